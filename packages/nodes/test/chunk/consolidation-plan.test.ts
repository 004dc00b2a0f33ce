import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Element, ElementMetadata } from '@quarry/core';
import { consolidateFieldByField, consolidateMetadata } from '../../src/chunk/consolidate-metadata.js';
import { el } from './helpers.js';

// A seeded generator, so a failure names a reproducible case.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

// Metadata values of every consolidation strategy, nulls and ad-hoc fields included.
const VALUES: Record<string, ReadonlyArray<unknown>> = {
  filename: ['a.pdf', 'b.pdf', null],
  page_number: [1, 2, undefined],
  languages: [['eng'], ['deu', 'eng'], ['eng', 'eng'], 'fra', null],
  emphasized_text_contents: [['bold'], 'lone', null],
  link_urls: [['https://x'], []],
  text_as_html: ['<p> a </p>', '  <td>b</td>'],
  data_source: [{ url: 'u', record_locator: { k: [1, 2] } }, null],
  coordinates: [{ points: [[0, 0]], system: 'PixelSpace' }],
  custom_field: ['ad hoc'],
  parent_id: ['p1', 'p2'],
  enrichment_origins: [[{ node: 'a' }], [{ node: 'a' }, { node: 'b' }]],
};
const FIELDS = Object.keys(VALUES);

function metadataOf(rand: () => number, fields: readonly string[]): ElementMetadata {
  const md: ElementMetadata = {};
  for (const f of fields) {
    const values = VALUES[f] as ReadonlyArray<unknown>;
    md[f] = structuredClone(values[Math.floor(rand() * values.length)]);
  }
  return md;
}

describe('compiled consolidation', () => {
  it('gives exactly the field-by-field result, key order included, on 3,000 random chunks', () => {
    const rand = random(20261122);
    let sameOrder = 0;
    for (let c = 0; c < 3000; c++) {
      // Mostly one field order per chunk (the compiled case), sometimes a mix (the fallback).
      const fields = FIELDS.filter(() => rand() < 0.5).filter((f) => f !== 'enrichment_origins' || rand() < 0.2);
      const n = 1 + Math.floor(rand() * 4);
      const mixed = rand() < 0.2;
      // Later elements that differ only in fields a chunk drops (dropped, ad hoc) share the plan.
      const unkept = new Set(['coordinates', 'custom_field', 'parent_id']);
      const varied = !mixed && rand() < 0.3;
      const variant = (): string[] => fields.filter((f) => !unkept.has(f)).concat([...unkept].filter(() => rand() < 0.5));
      const elements: Element[] = Array.from({ length: n }, (_, i) =>
        el('NarrativeText', `t${i}`, metadataOf(rand, mixed && i > 0 ? [...fields].reverse() : varied && i > 0 ? variant() : fields)),
      );
      if (!mixed) sameOrder++;
      const before = JSON.stringify(elements);
      const got = consolidateMetadata(elements);
      expect(JSON.stringify(got), `chunk ${c}`).toBe(JSON.stringify(consolidateFieldByField(elements)));
      // Values are copies: the elements are untouched, and nothing is shared with them.
      expect(JSON.stringify(elements)).toBe(before);
      for (const [k, v] of Object.entries(got)) if (typeof v === 'object' && v !== null) expect(v).not.toBe(elements[0]?.metadata[k]);
    }
    expect(sameOrder).toBeGreaterThan(2000);
  });

  it('consolidates a range of a longer list exactly as the range alone, on both paths', () => {
    const rand = random(7);
    // Blocks of five elements share a field order (the compiled path), their values drawn anew.
    const orders = Array.from({ length: 12 }, () => FIELDS.filter((f) => f !== 'enrichment_origins' && rand() < 0.6));
    const elements: Element[] = Array.from({ length: 60 }, (_, i) => el('NarrativeText', `t${i}`, metadataOf(rand, orders[Math.floor(i / 5)] as string[])));
    for (let c = 0; c < 500; c++) {
      const from = Math.floor(rand() * 58);
      const to = from + 1 + Math.floor(rand() * Math.min(4, 60 - from));
      const alone = elements.slice(from, to);
      expect(JSON.stringify(consolidateMetadata(elements, from, to)), `[${from}, ${to})`).toBe(JSON.stringify(consolidateMetadata(alone)));
      expect(JSON.stringify(consolidateFieldByField(elements, from, to)), `[${from}, ${to})`).toBe(JSON.stringify(consolidateFieldByField(alone)));
    }
  });

  it('orders fields as they first appear with a value when the first element lacks one', () => {
    const a = el('Title', 'A', { filename: null, page_number: 1 } as unknown as ElementMetadata);
    const b = el('NarrativeText', 'B', { filename: 'b.pdf', page_number: 2 });
    expect(Object.keys(consolidateMetadata([a, b]))).toEqual(['page_number', 'filename']);
  });

  const dist = fileURLToPath(new URL('../../dist/chunk/consolidate-metadata.js', import.meta.url));
  it.skipIf(!existsSync(dist))('falls back to the field-by-field path where code generation is disallowed', () => {
    const script = `
      const { consolidateMetadata } = await import(${JSON.stringify(dist)});
      const els = [1, 2].map((p) => ({ element_id: String(p), type: 'NarrativeText', text: 't', metadata: { filename: 'f', languages: ['eng', String(p)], page_number: p } }));
      console.log(JSON.stringify(consolidateMetadata(els)));`;
    const r = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ filename: 'f', languages: ['eng', '1', '2'], page_number: 1 });
  });
});
