import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { optionalString, remoteEmbedNode, remoteEmbedSettings } from './remote-embed-node.js';

/** Settings of the `bedrock` embedder: the common remote settings plus its own. */
export const bedrockEmbedSettings = lazySchema(() =>
  remoteEmbedSettings('bedrock', {
    region: optionalString('AWS region; default AWS_REGION or us-east-1'),
  }),
);
/** Parsed `bedrock` embedder settings. */
export type BedrockEmbedSettings = z.output<ReturnType<typeof bedrockEmbedSettings>>;

/** `bedrock` embedder: embeds chunks with Amazon Bedrock (Titan, Cohere v3). */
export const bedrockEmbedNode = remoteEmbedNode('bedrock', 'embeds chunks with Amazon Bedrock (Titan, Cohere v3)', bedrockEmbedSettings);
