import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { elementsFromJSON, elementToJSON, encodeOrigElements, type Element } from '@quarry/core';
import { documentId } from '../../src/search-index/document-id.js';
import { flattenObject, type JsonObject } from '../../src/search-index/flatten.js';
import { searchDocument } from '../../src/search-index/search-document.js';

const expectedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/corpus/expected');

/**
 * Staging spelled out step by step, as the reference stager does it: the element's sparse JSON,
 * `orig_elements` compressed, flattened with `-`, filtered by the mapping. `searchDocument` does it
 * in one pass and must give the same `_source`, key order included.
 */
function stagedStepByStep(
  el: Element,
  recordId: string,
  stored: ReadonlySet<string>,
  embeddings: boolean,
): { id: string; source: JsonObject; dropped: Map<string, number> } {
  const dropped = new Map<string, number>();
  const json = elementToJSON(el);
  const meta: JsonObject = { ...json.metadata };
  if (Array.isArray(meta.orig_elements)) meta.orig_elements = encodeOrigElements(meta.orig_elements as Element[]);
  const metadata: JsonObject = {};
  for (const [k, v] of Object.entries(flattenObject(meta, '-'))) {
    if (stored.has(k)) metadata[k] = v;
    else dropped.set(`metadata.${k}`, (dropped.get(`metadata.${k}`) ?? 0) + 1);
  }
  const source: JsonObject = { element_id: el.element_id };
  if (el.embeddings) {
    if (embeddings) source.embeddings = el.embeddings;
    else dropped.set('embeddings', 1);
  }
  Object.assign(source, { text: el.text, type: el.type, record_id: recordId, metadata });
  return { id: documentId(el.element_id, recordId), source, dropped };
}

function expectSameStaging(elements: Element[], stored: ReadonlySet<string>, embeddings: boolean): void {
  for (const el of elements) {
    const want = stagedStepByStep(el, 'folder/doc.pdf', stored, embeddings);
    const dropped = new Map<string, number>();
    const got = searchDocument(el, 'folder/doc.pdf', { metadata: stored, embeddings }, dropped);
    expect(got.id).toBe(want.id);
    // JSON text, so that key order counts too.
    expect(JSON.stringify(got.source)).toBe(JSON.stringify(want.source));
    expect(dropped).toEqual(want.dropped);
  }
}

// Every flattened metadata name the elements carry, and every other one of them.
function namesOf(elements: Element[]): string[] {
  const names = new Set<string>();
  for (const el of elements)
    for (const k of stagedStepByStep(el, 'r', new Set(), true).dropped.keys()) if (k.startsWith('metadata.')) names.add(k.slice('metadata.'.length));
  return [...names].sort();
}

const tricky: Element[] = [
  {
    element_id: 'a1',
    type: 'NarrativeText',
    text: 'Nested and empty values.',
    embeddings: [0.1, 0.2, 0.3],
    metadata: {
      filename: 'doc.pdf',
      languages: ['eng'],
      emphasized_text_contents: [],
      parent_id: null as unknown as string,
      coordinates: {
        points: [
          [0, 1],
          [2, 3],
        ],
        system: 'PixelSpace',
        layout_width: null,
        layout_height: undefined,
      } as never,
      data_source: {
        url: 'file:///doc.pdf',
        version: '',
        record_locator: { protocol: 'file', remote_file_path: '/doc.pdf', empty: {} },
        permissions_data: [],
        date_created: null,
      } as never,
      empty_object: {} as never,
      links: [{ text: 'x', url: 'http://x', start_index: 0 }],
      custom: { deep: { deeper: { value: 1, gone: undefined } }, list: [{ a: { b: 1 } }] } as never,
    },
  },
  {
    element_id: 'c1',
    type: 'CompositeElement',
    text: 'A chunk with its originals.',
    metadata: {
      filename: 'doc.pdf',
      page_number: 2,
      orig_elements: [
        { element_id: 'o1', type: 'Title', text: 'Title', metadata: { page_number: 2, languages: ['eng'], data_source: { url: 'u' } } },
        { element_id: 'o2', type: 'CheckBox', text: '', metadata: { page_number: 2 } },
      ],
    },
  },
  { element_id: 'e1', type: 'UncategorizedText', text: '', metadata: { data_source: { record_locator: {} } as never, is_continuation: false } },
  {
    element_id: 'e2',
    type: 'UncategorizedText',
    text: 'Only data_source empties.',
    metadata: { data_source: { url: undefined, record_locator: null } as never },
  },
];

describe('searchDocument', () => {
  it('stages nested, empty and compressed metadata exactly as the step-by-step stager, whichever fields the index maps', () => {
    const names = namesOf(tricky);
    expect(names).toContain('data_source-record_locator-remote_file_path');
    expect(names).toContain('custom-deep-deeper-value');
    expect(names).toContain('orig_elements');
    expectSameStaging(tricky, new Set(names), true);
    expectSameStaging(tricky, new Set(names.filter((_, i) => i % 2 === 0)), false);
    expectSameStaging(tricky, new Set(), true);
  });

  it.skipIf(!existsSync(expectedDir))(
    `stages every element of the corpus reference outputs as the step-by-step stager${existsSync(expectedDir) ? '' : ` (skipped: ${expectedDir} not found)`}`,
    () => {
      const files = readdirSync(expectedDir).filter((f) => f.endsWith('.json'));
      let staged = 0;
      for (const f of files) {
        const raw = JSON.parse(readFileSync(path.join(expectedDir, f), 'utf8')) as unknown;
        if (!Array.isArray(raw) || raw.length === 0) continue;
        const elements = elementsFromJSON(raw, { source: f });
        const names = namesOf(elements);
        expectSameStaging(elements, new Set(names), true);
        expectSameStaging(elements, new Set(names.slice(0, Math.ceil(names.length / 2))), true);
        staged += elements.length;
      }
      expect(staged).toBeGreaterThan(500);
    },
  );
});
