import type { FlatMetadataValue } from '@quarry/core';

/** Metadata LlamaIndex may show the embedding model and the LLM next to a node's text: what places it, in LlamaIndex's names. */
const SHOWN = new Set(['file_name', 'page_label']);

/**
 * The keys to hide from the embedding model and the LLM: LlamaIndex writes a node's metadata into
 * the text it embeds and prompts with, and ids, HTML tables or languages there would only be noise.
 */
export function hiddenKeys(metadata: Record<string, FlatMetadataValue | unknown>): string[] {
  return Object.keys(metadata).filter((k) => !SHOWN.has(k));
}
