import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { remoteEmbedNode, remoteEmbedSettings } from './remote-embed-node.js';

/** Settings of the `togetherai` embedder (the common remote settings). */
export const togetherAIEmbedSettings = lazySchema(() => remoteEmbedSettings('togetherai', {}));
/** Parsed `togetherai` embedder settings. */
export type TogetherAIEmbedSettings = z.output<ReturnType<typeof togetherAIEmbedSettings>>;

/** `togetherai` embedder: embeds chunks with Together AI. */
export const togetherAIEmbedNode = remoteEmbedNode('togetherai', 'embeds chunks with Together AI', togetherAIEmbedSettings);
