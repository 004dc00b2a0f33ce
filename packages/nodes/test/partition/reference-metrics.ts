import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Element } from '@quarry/core';

/** Root of the repository checkout. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** The shared corpus (documents and reference outputs), beside the repository. */
export const corpusDir = path.resolve(repoRoot, '..', 'shared', 'corpus');
/** True when the shared corpus is present. */
export const hasCorpus = existsSync(path.join(corpusDir, 'docs')) && existsSync(path.join(corpusDir, 'expected'));

/** Bytes of a corpus document. */
export function corpusBytes(name: string): Uint8Array {
  return readFileSync(path.join(corpusDir, 'docs', name));
}

/** The reference elements for a corpus document. */
export function expectedElements(name: string): Array<{ type: string; text: string; element_id: string; metadata: Record<string, unknown> }> {
  return JSON.parse(readFileSync(path.join(corpusDir, 'expected', `${name}.json`), 'utf8')) as Array<{
    type: string;
    text: string;
    element_id: string;
    metadata: Record<string, unknown>;
  }>;
}

function tokens(texts: readonly string[]): Map<string, number> {
  const bag = new Map<string, number>();
  for (const t of texts) for (const tok of t.toLowerCase().split(/\s+/u)) if (tok) bag.set(tok, (bag.get(tok) ?? 0) + 1);
  return bag;
}

/** Bag-of-words F1 between the texts of two element lists (whitespace tokens, case-folded). */
export function tokenF1(got: readonly { text: string }[], expected: readonly { text: string }[]): number {
  const g = tokens(got.map((e) => e.text));
  const x = tokens(expected.map((e) => e.text));
  let overlap = 0;
  let gTotal = 0;
  let xTotal = 0;
  for (const n of g.values()) gTotal += n;
  for (const [tok, n] of x) {
    xTotal += n;
    overlap += Math.min(n, g.get(tok) ?? 0);
  }
  if (gTotal === 0 || xTotal === 0) return gTotal === xTotal ? 1 : 0;
  const p = overlap / gTotal;
  const r = overlap / xTotal;
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

const norm = (s: string) => s.split(/\s+/u).filter(Boolean).join(' ');

/**
 * Share of reference elements matched, in order of appearance, by an element with the same
 * (whitespace-normalized) text and the same type.
 */
export function typeAgreement(got: readonly Element[], expected: readonly { type: string; text: string }[]): number {
  const pool = new Map<string, string[]>();
  for (const g of got) {
    const k = norm(g.text);
    const list = pool.get(k) ?? [];
    list.push(g.type);
    pool.set(k, list);
  }
  let same = 0;
  for (const e of expected) {
    const t = pool.get(norm(e.text))?.shift();
    if (t === e.type) same++;
  }
  return expected.length === 0 ? 1 : same / expected.length;
}
