import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { remoteEmbedNode, remoteEmbedSettings } from './remote-embed-node.js';

/** Settings of the `openai` embedder (the common remote settings). */
export const openAIEmbedSettings = lazySchema(() => remoteEmbedSettings('openai', {}));
/** Parsed `openai` embedder settings. */
export type OpenAIEmbedSettings = z.output<ReturnType<typeof openAIEmbedSettings>>;

/** `openai` embedder: embeds chunks with any OpenAI-compatible embeddings endpoint. */
export const openAIEmbedNode = remoteEmbedNode('openai', 'embeds chunks with any OpenAI-compatible embeddings endpoint', openAIEmbedSettings);
