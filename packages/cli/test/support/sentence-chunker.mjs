// A third-party chunker in one file: a chunk node made with chunkerNode, registered by a plugin.
// `quarry chunk --plugin` and the `chunk` helper's `plugins` option both take it.
import { definePlugin, ENGINE_VERSION } from '@quarry/core';
import { chunkCommonShape, chunkerNode, chunkerSettings } from '@quarry/nodes';

/** One chunk per sentence of each element, cut at max_characters. */
function chunkBySentence(elements, options) {
  return elements.flatMap((e) =>
    e.text
      .split(/(?<=[.!?])\s+/)
      .filter((s) => s.trim() !== '')
      .map((text, i) => ({ element_id: `${e.element_id}-${i}`, type: 'CompositeElement', text: text.slice(0, options.max_characters), metadata: { ...e.metadata } })),
  );
}

export const chunkBySentenceNode = chunkerNode('chunk_by_sentence', () => chunkerSettings('chunk_by_sentence', chunkCommonShape()), chunkBySentence, 'one chunk per sentence', ['by_sentence']);

export default definePlugin({ name: 'sentence-chunker', engine: `^${ENGINE_VERSION}`, nodes: [chunkBySentenceNode] });
