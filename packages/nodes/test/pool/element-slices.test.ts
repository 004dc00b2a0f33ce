import type { Element } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { partitionFile } from '../../src/partition/partition-file.js';
import { elementSlices, SLICE_BYTES } from '../../src/pool/element-slices.js';
import { PartitionPool } from '../../src/pool/partition-pool.js';

const enc = new TextEncoder();
// 6,000 paragraphs: some 2 MB of elements, several slices' worth.
const paragraphs = enc.encode(
  Array.from({ length: 6000 }, (_, i) => `Paragraph ${i} says something "quoted" about item ${i}, and then a little more to be narrative text.`).join('\n\n'),
);
const request = { filename: 'paragraphs.txt', strategy: 'fast', unique_element_ids: false } as const;

function element(text: string): Element {
  return { type: 'NarrativeText', element_id: text.slice(0, 8), text, metadata: { filename: 'a.txt', languages: ['eng'] } } as Element;
}

describe('elementSlices', () => {
  it('cuts elements into consecutive slices of about the byte budget that join back into the list, a big element alone', () => {
    const elements = [...Array.from({ length: 30 }, (_, i) => element(`small ${i} `.repeat(10))), element('x'.repeat(5000)), element('after')];
    const slices = elementSlices(elements, 1000);
    expect(slices.flat()).toEqual(elements);
    expect(slices.length).toBeGreaterThan(5);
    // Every slice but the big element's holds several elements and stays under budget.
    for (const slice of slices) if (slice.length > 1) expect(JSON.stringify(slice).length).toBeLessThan(1000);
    expect(slices.find((s) => s.some((e) => e.text.length === 5000))).toHaveLength(1);
    expect(elementSlices([])).toEqual([]);
  });
});

describe('PartitionPool with a long document', () => {
  let pool: PartitionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('brings back, in several slices, the same elements as partitioning in this process', async () => {
    const inProcess = await partitionFile(paragraphs, request);
    expect(inProcess).toHaveLength(6000);
    expect(elementSlices(inProcess).length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(elementSlices(inProcess)[0]).length).toBeLessThan(SLICE_BYTES * 1.5);
    pool = new PartitionPool({ size: 1, smallLaneProcesses: 0 });
    expect(await pool.partition(paragraphs, request)).toEqual(inProcess);
  }, 60_000);
});
