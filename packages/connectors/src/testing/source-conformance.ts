import type { SourceConnector, SourceDocument } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';

/** One document the suite asks the source's backing store to hold. */
export interface SourceFixture {
  /** A path-like name (`notes/beta.md`); the harness maps it onto the store's own identity. */
  key: string;
  content: Uint8Array;
}

/** A source over a backing store filled with the suite's fixtures. */
export interface SourceUnderTest {
  source: SourceConnector;
  /** The `record_id` the source gives the fixture with this key. */
  recordIdOf(key: string): string;
  /** The bytes `read()` returns for a fixture, when the source transforms them; default the content. */
  expectedBytes?(fixture: SourceFixture): Uint8Array;
  /** Replaces a fixture's content in the backing store, as an edit by a user would. */
  update(key: string, content: Uint8Array): Promise<void>;
  /** Removes the backing store. */
  cleanup(): Promise<void>;
}

const enc = new TextEncoder();

/** The fixtures every source is tested with: nested names, an empty file and non-UTF-8 bytes. */
export const SOURCE_FIXTURES: readonly SourceFixture[] = [
  { key: 'alpha.txt', content: enc.encode('Alpha.\n\nThe first document.\n') },
  { key: 'notes/beta.md', content: enc.encode('# Beta\n\nSecond document, ünïcødé.\n') },
  { key: 'notes/deeper/gamma.csv', content: enc.encode('a,b\n1,2\n') },
  { key: 'binary.bin', content: Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256) },
  { key: 'empty.txt', content: new Uint8Array(0) },
];

const never = new AbortController().signal;

async function listAll(source: SourceConnector, signal = never): Promise<SourceDocument[]> {
  const docs: SourceDocument[] = [];
  for await (const d of source.list(signal)) docs.push(d);
  return docs;
}

/**
 * Shared behaviour every source connector must have (STYLE #9): each document is listed once under
 * a stable `record_id`, reads return its bytes, versions are stable until the content changes, and
 * listing stops cleanly when the consumer stops or the job is cancelled.
 *
 * @example
 * ```ts
 * testSourceConformance('local', async (fixtures) => makeLocalSource(fixtures));
 * ```
 */
export function testSourceConformance(name: string, makeSource: (fixtures: readonly SourceFixture[]) => Promise<SourceUnderTest>): void {
  describe(`source conformance: ${name}`, () => {
    const live: SourceUnderTest[] = [];
    const make = async (fixtures: readonly SourceFixture[] = SOURCE_FIXTURES): Promise<SourceUnderTest> => {
      const under = await makeSource(fixtures);
      live.push(under);
      return under;
    };
    afterEach(async () => {
      for (const u of live.splice(0)) {
        await u.source.close?.();
        await u.cleanup();
      }
    });

    it('lists every document exactly once, under the record_id the store gives it', async () => {
      const under = await make();
      const docs = await listAll(under.source);
      const ids = docs.map((d) => d.record_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(SOURCE_FIXTURES.map((f) => under.recordIdOf(f.key)).sort());
    });

    it('describes each document: file name, provenance and a version consistent with it', async () => {
      const under = await make();
      for (const d of await listAll(under.source)) {
        expect(d.filename.length).toBeGreaterThan(0);
        expect(d.filename).not.toContain('/');
        expect(typeof d.data_source).toBe('object');
        if (d.version !== undefined) {
          expect(typeof d.version).toBe('string');
          expect(d.version.length).toBeGreaterThan(0);
          if (d.data_source.version !== undefined) expect(d.data_source.version).toBe(d.version);
        }
        if (d.last_modified !== undefined) expect(Number.isNaN(Date.parse(d.last_modified))).toBe(false);
      }
    });

    it('reads each document’s bytes, again and concurrently', async () => {
      const under = await make();
      const docs = await listAll(under.source);
      const byId = new Map(docs.map((d) => [d.record_id, d]));
      await Promise.all(
        SOURCE_FIXTURES.map(async (f) => {
          const doc = byId.get(under.recordIdOf(f.key));
          expect(doc, f.key).toBeDefined();
          const want = under.expectedBytes?.(f) ?? f.content;
          const [once, twice] = await Promise.all([doc!.read(never), doc!.read()]);
          expect(Buffer.from(once).equals(Buffer.from(want)), f.key).toBe(true);
          expect(Buffer.from(twice).equals(Buffer.from(want)), f.key).toBe(true);
          if (doc!.size !== undefined && !under.expectedBytes) expect(doc!.size).toBe(f.content.byteLength);
        }),
      );
    });

    it('gives the same record_ids and versions when listed again', async () => {
      const under = await make();
      const first = await listAll(under.source);
      const second = await listAll(under.source);
      const view = (docs: SourceDocument[]) => docs.map((d) => [d.record_id, d.version]).sort();
      expect(view(second)).toEqual(view(first));
    });

    it('changes the version of an edited document only', async () => {
      const under = await make();
      const before = new Map((await listAll(under.source)).map((d) => [d.record_id, d.version]));
      const edited = 'notes/beta.md';
      await under.update(edited, enc.encode('# Beta\n\nEdited: the content is longer than before.\n'));
      const after = new Map((await listAll(under.source)).map((d) => [d.record_id, d.version]));
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [id, version] of after) {
        if (version === undefined) continue;
        if (id === under.recordIdOf(edited)) expect(version).not.toBe(before.get(id));
        else expect(version).toBe(before.get(id));
      }
    });

    it('stops cleanly when the consumer stops early, and lists again afterwards', async () => {
      const under = await make();
      let seen = 0;
      for await (const d of under.source.list(never)) {
        expect(d.record_id).toBeTruthy();
        seen += 1;
        break;
      }
      expect(seen).toBe(1);
      expect(await listAll(under.source)).toHaveLength(SOURCE_FIXTURES.length);
    });

    it('lists nothing when the signal is already aborted', async () => {
      const under = await make();
      const ac = new AbortController();
      ac.abort(new Error('cancelled by test'));
      const got: SourceDocument[] = [];
      const drain = async () => {
        for await (const d of under.source.list(ac.signal)) got.push(d);
      };
      await drain().catch(() => undefined);
      expect(got).toEqual([]);
    });

    it('lists nothing from an empty store', async () => {
      const under = await make([]);
      expect(await listAll(under.source)).toEqual([]);
      if (under.source.count) expect(await under.source.count(never)).toBe(0);
    });

    it('counts, when it can, as many documents as it lists', async () => {
      const under = await make();
      if (!under.source.count) return;
      expect(await under.source.count(never)).toBe((await listAll(under.source)).length);
    });

    it('re-opens each listed document from its JSON record, when it supports get (distributed runs)', async () => {
      const under = await make();
      if (!under.source.get) return;
      for (const d of await listAll(under.source)) {
        const { read: _read, ...fields } = d;
        const record = JSON.parse(JSON.stringify(fields)) as typeof fields;
        const again = await under.source.get(record, never);
        const { read: _again, ...againFields } = again;
        expect(againFields).toEqual(record);
        expect(await again.read()).toEqual(await d.read());
      }
    });
  });
}
