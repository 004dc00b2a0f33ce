import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { optionalString, remoteEmbedNode, remoteEmbedSettings } from './remote-embed-node.js';

/** Settings of the `ibm` embedder: the common remote settings plus its own. */
export const ibmEmbedSettings = lazySchema(() =>
  remoteEmbedSettings('ibm', {
    project_id: optionalString('watsonx.ai project id; default WATSONX_AI_PROJECT_ID'),
    space_id: optionalString('watsonx.ai space id; default WATSONX_AI_SPACE_ID'),
  }),
);
/** Parsed `ibm` embedder settings. */
export type IBMEmbedSettings = z.output<ReturnType<typeof ibmEmbedSettings>>;

/** `ibm` embedder: embeds chunks with IBM watsonx.ai. */
export const ibmEmbedNode = remoteEmbedNode('ibm', 'embeds chunks with IBM watsonx.ai', ibmEmbedSettings);
