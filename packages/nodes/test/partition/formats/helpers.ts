import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Element } from '@quarry/core';
import type { FormatPartitionOptions, FormatPartitioner } from '../../../src/partition/types.js';
import { formatOptions } from '../format-options.js';
import { BUILTIN_FORMATS, findFormat } from '../../../src/partition/formats/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
/** The shared dev corpus (documents and reference outputs), outside the repo. */
export const corpusDir = path.resolve(repoRoot, '..', 'shared', 'corpus');
/** True when the corpus is present; corpus suites skip otherwise. */
export const hasCorpus = existsSync(path.join(corpusDir, 'docs'));

/** Bytes of a corpus document. */
export function corpusDoc(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(corpusDir, 'docs', name)));
}

/** A reference output (`expected/<doc>.json`). */
export function expectedElements(name: string): Array<{ type: string; text: string; metadata: Record<string, unknown> }> {
  return JSON.parse(readFileSync(path.join(corpusDir, 'expected', `${name}.json`), 'utf8'));
}

/** Calls to `partitionEmbedded` recorded by {@link makeOptions}. */
export interface EmbeddedCall {
  filename: string;
  bytes: Uint8Array;
}

/**
 * Partition options as the partition node would pass them. `partitionEmbedded` is the caller's
 * hook (the node's own detection), so tests may supply it; by default it records the call and
 * returns one element holding the embedded file's UTF-8 text.
 */
export function makeOptions(
  filename: string,
  overrides: Partial<FormatPartitionOptions> = {},
): FormatPartitionOptions & { embedded: EmbeddedCall[]; warnings: string[] } {
  const embedded: EmbeddedCall[] = [];
  const warnings: string[] = [];
  return {
    ...formatOptions({
      filename,
      // The built-in format of the file's extension gives the MIME type a partition node would.
      filetype: findFormat(BUILTIN_FORMATS, 'application/octet-stream', path.extname(filename))?.mimeTypes[0] ?? 'application/octet-stream',
      logger: { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} },
      async partitionEmbedded(bytes: Uint8Array, name: string): Promise<Element[]> {
        embedded.push({ filename: name, bytes });
        const text = new TextDecoder().decode(bytes).trim();
        return [{ element_id: `embedded-${embedded.length}`, type: 'NarrativeText', text, metadata: { attached_to_filename: filename, filename: name } }];
      },
    }),
    embedded,
    warnings,
    ...overrides,
  };
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Bag-of-tokens F1 between two texts (lower-cased letter/digit runs). */
export function tokenF1(ours: string, reference: string): number {
  const a = tokens(ours);
  const b = tokens(reference);
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const t of b) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of a) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      overlap++;
      counts.set(t, n - 1);
    }
  }
  if (overlap === 0) return 0;
  const p = overlap / a.length;
  const r = overlap / b.length;
  return (2 * p * r) / (p + r);
}

/**
 * Share of reference elements whose best-matching element of ours (by token F1, at least 0.5,
 * searched in document order) has the same type. OCR output never matches text exactly, hence
 * the fuzzy match.
 */
export function typeAgreement(ours: Array<{ type: string; text: string }>, reference: Array<{ type: string; text: string }>): number {
  if (reference.length === 0) return 1;
  let from = 0;
  let same = 0;
  for (const ref of reference) {
    let best = -1;
    let bestScore = 0.5;
    for (let j = from; j < ours.length; j++) {
      const score = tokenF1(ours[j]!.text, ref.text);
      if (score > bestScore || (score === 1 && bestScore < 1)) {
        best = j;
        bestScore = score;
        if (score === 1) break;
      }
    }
    if (best < 0) continue;
    if (ours[best]!.type === ref.type) same++;
    from = best + 1;
  }
  return same / reference.length;
}

/** Token F1 and type agreement of `ours` against a reference output, printed for the report. */
export function compareToReference(doc: string, ours: Element[]): { f1: number; types: number } {
  const ref = expectedElements(doc);
  const f1 = tokenF1(ours.map((e) => e.text).join('\n'), ref.map((e) => e.text).join('\n'));
  const types = typeAgreement(ours, ref);
  console.log(`[corpus] ${doc}: token F1 ${f1.toFixed(3)}, type agreement ${types.toFixed(3)} (${ours.length} elements, reference ${ref.length})`);
  return { f1, types };
}

/** The error a partitioner fails with (`undefined` when it succeeds). */
export async function partitionError(partitioner: FormatPartitioner, bytes: Uint8Array, options: FormatPartitionOptions): Promise<unknown> {
  return Promise.resolve()
    .then(() => partitioner.partition(bytes, options))
    .then(
      () => undefined,
      (e: unknown) => e,
    );
}
