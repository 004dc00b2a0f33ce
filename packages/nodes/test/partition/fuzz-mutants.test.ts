/**
 * Fuzz test: a few hundred seeded mutants of the corpus documents (`../support/mutants.ts`:
 * truncated, bit-flipped, zeroed and duplicated ranges, corrupted ZIP members and headers,
 * corrupted PDF xrefs, trailers and object streams) are partitioned through a `PartitionPool` of
 * two processes, as `quarry run` would. Every mutant must come out as elements or as a coded error
 * a user can read: no crash, hang or memory exhaustion (DOCUMENT_CRASHED, NODE_TIMEOUT,
 * DOCUMENT_TOO_LARGE), no error with a code that neither core nor the nodes plugin declares, no
 * message that shows the engine's internals instead of what is wrong with the file
 * (`INTERNAL_MESSAGE_PATTERNS`).
 *
 * Strategy `fast`: hi_res renders and OCRs every PDF page, too slow for CI (the fuzz bench runs a
 * hi_res subset). Images are OCR'd whatever the strategy (several seconds each), so they get a few
 * mutants of their own instead of their share of the 200. A failure names every offending mutant
 * (`s<seed>#<index> <source> <mutation>`); `mutant(sources, seed, index)` makes it again, with
 * `sources` the list it was drawn from (the corpus without images, or its images alone).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PartitionPool } from '../../src/pool/partition-pool.js';
import { countOutcomes, describeFindings, partitionMutants } from '../support/fuzz-run.js';
import { CORPUS_DIR, loadCorpus, mutant, mutants, parseMutantName, type MutantSource } from '../support/mutants.js';

const SEED = 20261126;
const DOCUMENT_MUTANTS = 200;
const IMAGE_MUTANTS = 2;
const PROCESSES = 2;
// A hang is a document that never finishes; the bound is generous so a slow machine is not one.
const DOCUMENT_TIMEOUT_MS = 60_000;

const isImage = (s: MutantSource): boolean => /\.(png|jpe?g|tiff?|bmp|gif|webp)$/i.test(s.name);
const sources = loadCorpus();

describe('fuzz: mutated corpus documents through the partition pool', () => {
  if (!sources) {
    it.skip(`corpus not found in ${CORPUS_DIR}: the fuzz test needs the shared corpus documents`, () => {});
    return;
  }
  it('makes the same mutant from the same seed and index, named so it can be made again', () => {
    const a = mutants(sources, 7, 40);
    const b = mutants(sources, 7, 40);
    expect(a.map((m) => m.name)).toEqual(b.map((m) => m.name));
    expect(a.every((m, i) => Buffer.compare(m.bytes, b[i]!.bytes) === 0)).toBe(true);
    expect(mutants(sources, 8, 40).map((m) => m.name)).not.toEqual(a.map((m) => m.name));
    const again = a[23]!;
    const parsed = parseMutantName(again.name)!;
    expect(Buffer.compare(mutant(sources, parsed.seed, parsed.index).bytes, again.bytes)).toBe(0);
    // Every mutation kind occurs, and a mutant differs from its source.
    const kinds = new Set(mutants(sources, 1, 400).map((m) => m.mutation.replace(/\(.*$/, '')));
    for (const k of [
      'truncate',
      'flip-bits',
      'zero',
      'duplicate',
      'zip-data',
      'zip-local-header',
      'zip-central-header',
      'zip-size',
      'pdf-startxref',
      'pdf-xref',
      'pdf-trailer',
      'pdf-objstm',
    ])
      expect(kinds).toContain(k);
    for (const m of a) expect(Buffer.compare(m.bytes, sources.find((s) => s.name === m.source)!.bytes)).not.toBe(0);
  });

  const pool = new PartitionPool({ size: PROCESSES, documentTimeoutMs: DOCUMENT_TIMEOUT_MS });
  afterAll(() => pool.close());

  it(`partitions ${DOCUMENT_MUTANTS + IMAGE_MUTANTS} mutants (fast) to elements or coded, readable errors: no crash, hang or internals`, async () => {
    const set = [
      ...mutants(
        sources.filter((s) => !isImage(s)),
        SEED,
        DOCUMENT_MUTANTS,
      ),
      ...mutants(sources.filter(isImage), SEED, IMAGE_MUTANTS),
    ];
    pool.warm();
    const t0 = performance.now();
    const results = await partitionMutants(pool, set, PROCESSES, { strategy: 'fast' });
    const seconds = (performance.now() - t0) / 1000;
    // The counts go to the test log: what the mutants came to, not only whether the test passed.
    console.log(JSON.stringify({ fuzz: 'fast', seed: SEED, ...countOutcomes(results), seconds: Number(seconds.toFixed(1)) }));
    expect(describeFindings(results)).toEqual([]);
    // The mutants must reach the parsers, not all stop at detection.
    expect(results.filter((r) => r.outcome.kind === 'ok').length).toBeGreaterThan(set.length / 4);
  }, 900_000);
});
