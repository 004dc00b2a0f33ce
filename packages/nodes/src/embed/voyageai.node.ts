import { lazySchema } from '@quarry/core';
import type { z } from 'zod';
import { remoteEmbedNode, remoteEmbedSettings } from './remote-embed-node.js';

/** Settings of the `voyageai` embedder (the common remote settings). */
export const voyageAIEmbedSettings = lazySchema(() => remoteEmbedSettings('voyageai', {}));
/** Parsed `voyageai` embedder settings. */
export type VoyageAIEmbedSettings = z.output<ReturnType<typeof voyageAIEmbedSettings>>;

/** `voyageai` embedder: embeds chunks with Voyage AI. */
export const voyageAIEmbedNode = remoteEmbedNode('voyageai', 'embeds chunks with Voyage AI', voyageAIEmbedSettings);
