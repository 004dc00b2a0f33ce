import { ELEMENT_TYPES, isQuarryError, type FormatDefinition } from '@quarry/core';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalMimeType } from '../partition/detect-filetype.js';
import { BUILTIN_FORMATS } from '../partition/formats/index.js';
import { loadFormat } from '../partition/formats/load-format.js';
import { partitionFile } from '../partition/partition-file.js';
import type { FormatPartitionOptions } from '../partition/types.js';
import { PartitionPool } from '../pool/partition-pool.js';
import { formatPartitionOptions } from './format-options.js';

/** A document a format conformance suite partitions. */
export interface FormatSample {
  filename: string;
  bytes(): Uint8Array | Promise<Uint8Array>;
}

/** Options of {@link testFormatConformance}. */
export interface FormatConformanceOptions {
  /** Also partition every sample in a child process and compare (default true). */
  childProcess?: boolean;
  /** Strategy the samples are partitioned with (default `fast`: no OCR). */
  strategy?: FormatPartitionOptions['strategy'];
}

const TYPES = new Set<string>(ELEMENT_TYPES);

// Bytes from a fixed seed: the same "garbage" every run, so a failure reproduces.
function garbage(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    out[i] = s & 0xff;
  }
  return out;
}

/**
 * The behaviour every format partitioner shares, as a vitest suite over the samples you give:
 * each sample gives well-formed elements (known types, text, the file's metadata), the same ones
 * twice and in a child process (which imports the format's module by its URL); truncated and
 * random bytes give elements or a coded `QuarryError`, never a plain `Error` from a parser's
 * inside; the input bytes are left as they were.
 *
 * @example
 * ```ts
 * import { testFormatConformance } from '@quarry/nodes/testing';
 * testFormatConformance(vcardFormat, [{ filename: 'team.vcf', bytes: () => readFileSync('team.vcf') }]);
 * ```
 */
export function testFormatConformance(format: FormatDefinition, samples: readonly FormatSample[], options: FormatConformanceOptions = {}): void {
  const strategy = options.strategy ?? 'fast';
  // As an engine lists them: the format first, the built-in ones after it (an e-mail's body is text).
  const formats = [format, ...BUILTIN_FORMATS.filter((f) => f.name !== format.name)];
  const request = (filename: string) => ({ filename, filetype: format.mimeTypes[0]!, formats, strategy, unique_element_ids: false });

  describe(`format conformance: ${format.name}`, () => {
    let pool: PartitionPool | undefined;
    afterAll(async () => pool?.close());

    it.each(samples.map((s) => [s.filename, s] as const))('partitions %s into well-formed elements, the same each time', async (_, sample) => {
      const bytes = await sample.bytes();
      const before = bytes.slice();
      const elements = await partitionFile(bytes, request(sample.filename));
      expect(elements.length, 'a sample gives at least one element').toBeGreaterThan(0);
      for (const el of elements) {
        expect(TYPES.has(el.type), `element type ${el.type}`).toBe(true);
        expect(typeof el.text).toBe('string');
        expect(el.metadata.filename === sample.filename || el.metadata.attached_to_filename !== undefined, `metadata.filename ${el.metadata.filename}`).toBe(
          true,
        );
        if (!el.metadata.attached_to_filename) expect(el.metadata.filetype).toBe(canonicalMimeType(format.mimeTypes[0]!));
      }
      expect(new Set(elements.map((e) => e.element_id)).size).toBe(elements.length);
      expect(await partitionFile(bytes, request(sample.filename))).toEqual(elements);
      expect(bytes, 'the input bytes are not modified').toEqual(before);
      if (options.childProcess !== false) {
        pool ??= new PartitionPool({ size: 1 });
        expect(await pool.partition(bytes, request(sample.filename))).toEqual(elements);
      }
    });

    it.each(samples.map((s) => [s.filename, s] as const))('answers truncated and random bytes of %s with elements or a coded error', async (_, sample) => {
      const bytes = await sample.bytes();
      const partitioner = await loadFormat(format);
      const damaged = [bytes.subarray(0, Math.floor(bytes.length / 2)), bytes.subarray(0, 7), garbage(Math.min(bytes.length, 4096), bytes.length)];
      for (const [i, input] of damaged.entries()) {
        const outcome = await Promise.resolve()
          .then(() => partitioner.partition(input, formatPartitionOptions({ strategy, filename: sample.filename, filetype: format.mimeTypes[0]! })))
          .then(
            (elements) => ({ elements }),
            (error: unknown) => ({ error }),
          );
        if ('error' in outcome) {
          const e = outcome.error;
          expect(isQuarryError(e), `damaged input ${i}: a coded QuarryError, got ${String(e)}`).toBe(true);
        } else {
          expect(Array.isArray(outcome.elements)).toBe(true);
        }
      }
    });
  });
}
