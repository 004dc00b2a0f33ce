import { elementToJSON, type DestinationConnector, type Element, type Flow, type SourceDocument } from '@quarry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** A destination ready for one test, with what `readBack` needs to find what it stored. */
export interface DestinationUnderTest<T> {
  destination: DestinationConnector;
  /** Whatever locates the stored records: a directory, an index name and client, ... */
  target: T;
  /** Removes everything the test wrote. */
  cleanup(): Promise<void>;
}

/**
 * Reads back the element JSON objects stored for one `record_id` (any order), or `undefined` / `[]`
 * when nothing is stored for it.
 */
export type ReadBack<T> = (target: T, recordId: string) => Promise<ReadonlyArray<Record<string, unknown>> | undefined>;

/** Options of {@link testDestinationConformance}. */
export interface DestinationConformanceOptions {
  /**
   * True (default) when `readBack` returns each element's full JSON form (`elementToJSON`); false
   * when the store reshapes metadata, and only `element_id`, `type`, `text` and `embeddings` are compared.
   */
  exactJSON?: boolean;
}

const never = new AbortController().signal;

/** A source document with the given `record_id`; destinations read only its identity and metadata. */
export function conformanceDocument(recordId: string): SourceDocument {
  const filename = recordId.split('/').pop() ?? recordId;
  return {
    record_id: recordId,
    filename,
    version: `v-${recordId}`,
    data_source: { url: `file:///conformance/${recordId}`, record_locator: { protocol: 'file', remote_file_path: `/conformance/${recordId}` } },
    read: async () => new TextEncoder().encode(recordId),
  };
}

/** `n` elements of one document; `tag` makes different versions of the same document distinguishable. */
export function conformanceElements(recordId: string, n: number, tag = 'v1'): Element[] {
  const filename = recordId.split('/').pop() ?? recordId;
  return Array.from({ length: n }, (_, i) => ({
    element_id: `${tag}-${recordId}-${i}`.replace(/[^A-Za-z0-9-]/g, '_'),
    type: i === 0 ? 'Title' : 'NarrativeText',
    text: `${tag} element ${i} of ${recordId}: “quoted” text, ünïcødé, emoji 🪨`,
    metadata: {
      filename,
      filetype: 'text/plain',
      languages: ['eng'],
      page_number: 1 + Math.floor(i / 2),
      data_source: { url: `file:///conformance/${recordId}`, record_locator: { protocol: 'file', remote_file_path: `/conformance/${recordId}` } },
    },
  }));
}

function flow(recordId: string, elements: Element[]): Flow {
  return { document: conformanceDocument(recordId), elements };
}

type Stored = ReadonlyArray<Record<string, unknown>>;

const key = (e: Record<string, unknown>): string => String(e.element_id);
const sortById = <E extends Record<string, unknown>>(list: readonly E[]): E[] => [...list].sort((a, b) => key(a).localeCompare(key(b)));

/**
 * Shared behaviour every destination connector must have (STYLE #9): records land under their
 * `record_id`, a re-write replaces and never duplicates, concurrent writes do not interfere, and a
 * cancelled write leaves the previous content. Each connector's test file calls this once per
 * configuration, then adds its own regression tests.
 *
 * @example
 * ```ts
 * testDestinationConformance('local', makeLocalDestination, readLocalOutput);
 * ```
 */
export function testDestinationConformance<T>(
  name: string,
  makeDestination: () => Promise<DestinationUnderTest<T>>,
  readBack: ReadBack<T>,
  options: DestinationConformanceOptions = {},
): void {
  const exact = options.exactJSON ?? true;

  describe(`destination conformance: ${name}`, () => {
    let under: DestinationUnderTest<T>;

    beforeEach(async () => {
      under = await makeDestination();
      await under.destination.prepare?.({ nodes: [] });
    });
    afterEach(async () => {
      await under.destination.close?.();
      await under.cleanup();
    });

    const write = (recordId: string, elements: Element[], signal = never): Promise<void> => under.destination.write(flow(recordId, elements), { signal });
    const read = async (recordId: string): Promise<Stored> => (await readBack(under.target, recordId)) ?? [];

    function expectStored(stored: Stored, elements: readonly Element[]): void {
      const want = elements.map((e) => elementToJSON(e) as unknown as Record<string, unknown>);
      if (exact) {
        expect(sortById(stored)).toEqual(sortById(want));
        return;
      }
      const pick = (e: Record<string, unknown>) => ({ element_id: e.element_id, type: e.type, text: e.text, embeddings: e.embeddings });
      expect(sortById(stored).map(pick)).toEqual(sortById(want).map(pick));
    }

    it('stores each document under its record_id', async () => {
      const a = conformanceElements('alpha.txt', 3);
      const b = conformanceElements('beta.md', 2);
      await write('alpha.txt', a);
      await write('beta.md', b);
      expectStored(await read('alpha.txt'), a);
      expectStored(await read('beta.md'), b);
    });

    it('reads back nothing for a record that was never written', async () => {
      await write('alpha.txt', conformanceElements('alpha.txt', 1));
      expect(await read('never-written.txt')).toEqual([]);
    });

    it('replaces a document re-written with fewer elements, leaving others alone', async () => {
      const b = conformanceElements('beta.md', 2);
      await write('alpha.txt', conformanceElements('alpha.txt', 4));
      await write('beta.md', b);
      const fewer = conformanceElements('alpha.txt', 1, 'v2');
      await write('alpha.txt', fewer);
      expectStored(await read('alpha.txt'), fewer);
      expectStored(await read('beta.md'), b);
    });

    it('does not duplicate a document written twice with the same elements', async () => {
      const a = conformanceElements('alpha.txt', 3);
      await write('alpha.txt', a);
      await write('alpha.txt', a);
      expect(await read('alpha.txt')).toHaveLength(3);
      expectStored(await read('alpha.txt'), a);
    });

    it('leaves nothing for a document re-written with no elements', async () => {
      await write('alpha.txt', conformanceElements('alpha.txt', 3));
      await write('alpha.txt', []);
      expect(await read('alpha.txt')).toEqual([]);
    });

    it('lands every one of many concurrent writes of different documents', async () => {
      const ids = Array.from({ length: 12 }, (_, i) => `batch/doc-${i}.txt`);
      await Promise.all(ids.map((id, i) => write(id, conformanceElements(id, 1 + (i % 4)))));
      for (const [i, id] of ids.entries()) expectStored(await read(id), conformanceElements(id, 1 + (i % 4)));
    });

    it('keeps exactly one complete version after concurrent writes of the same document', async () => {
      const v1 = conformanceElements('alpha.txt', 3, 'v1');
      const v2 = conformanceElements('alpha.txt', 5, 'v2');
      await Promise.all([write('alpha.txt', v1), write('alpha.txt', v2)]);
      const stored = await read('alpha.txt');
      const ids = sortById(stored).map(key);
      const candidates = [v1, v2].map((v) => sortById(v.map((e) => ({ element_id: e.element_id }))).map(key));
      expect(candidates).toContainEqual(ids);
    });

    it('keeps documents apart whose record_ids share a file name, and accepts spaces and non-ASCII', async () => {
      const ids = ['a/report.pdf', 'b/report.pdf', 'report.pdf', 'dossier été/ünï cødé 📄.docx'];
      for (const id of ids) await write(id, conformanceElements(id, 2, id.length.toString()));
      for (const id of ids) expectStored(await read(id), conformanceElements(id, 2, id.length.toString()));
    });

    it('round-trips embeddings, coordinates and nested metadata', async () => {
      const [first] = conformanceElements('vectors.pdf', 1);
      const el: Element = {
        ...(first as Element),
        embeddings: [0.1, -0.25, 3.5e-7, 1],
        metadata: {
          ...(first as Element).metadata,
          coordinates: {
            points: [
              [0, 0],
              [0, 10.5],
              [20, 10.5],
              [20, 0],
            ],
            system: 'PixelSpace',
            layout_width: 612,
            layout_height: 792,
          },
          text_as_html: '<table><tr><td>1</td></tr></table>',
          entities: { items: [{ entity: 'Ada', type: 'PERSON' }], relationships: [] },
        },
      };
      await write('vectors.pdf', [el]);
      expectStored(await read('vectors.pdf'), [el]);
    });

    it('rejects a write whose signal is already aborted and keeps the previous elements', async () => {
      const a = conformanceElements('alpha.txt', 2);
      await write('alpha.txt', a);
      const ac = new AbortController();
      ac.abort(new Error('cancelled by test'));
      await expect(write('alpha.txt', conformanceElements('alpha.txt', 5, 'v2'), ac.signal)).rejects.toThrow();
      expectStored(await read('alpha.txt'), a);
    });

    it('accepts prepare again, as a re-run does, and keeps what was written', async () => {
      const a = conformanceElements('alpha.txt', 2);
      await write('alpha.txt', a);
      await under.destination.prepare?.({ nodes: [] });
      expectStored(await read('alpha.txt'), a);
      await write('beta.md', conformanceElements('beta.md', 1));
      expectStored(await read('beta.md'), conformanceElements('beta.md', 1));
    });

    it('does not modify the flow it is given', async () => {
      const f = flow('alpha.txt', conformanceElements('alpha.txt', 3));
      const before = structuredClone({ document: { ...f.document, read: undefined }, elements: f.elements });
      await under.destination.write(f, { signal: never });
      expect({ document: { ...f.document, read: undefined }, elements: f.elements }).toEqual(before);
    });
  });
}
