import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { partition } from '@quarry/nodes';
import type { Element } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { answerElement, answerJson, type PartitionedUpload } from '../../src/legacy/answer-json.js';

const guide = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples/docs/field-guide.md');

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const piece of stream) out += String(piece);
  return out;
}

/** At least `n` elements: the guide's, repeated. */
async function elements(n: number): Promise<Element[]> {
  const one = await partition(guide, { strategy: 'fast' });
  return Array.from({ length: n }, (_, i) => one[i % one.length] as Element);
}

describe('answerJson: the legacy answer made a piece at a time', () => {
  it('writes the bytes JSON.stringify writes, for one upload, several and empty ones', async () => {
    const many = await elements(250);
    const a: PartitionedUpload = { elements: many, filename: 'a.md', coordinates: false };
    const b: PartitionedUpload = { elements: many.slice(0, 3), filename: 'b.md', coordinates: true };
    const none: PartitionedUpload = { elements: [], filename: 'c.md', coordinates: false };
    const json = (u: PartitionedUpload) => u.elements.map((el) => answerElement(el, u));
    expect(await text(answerJson([a]))).toBe(JSON.stringify(json(a)));
    expect(await text(answerJson([none]))).toBe('[]');
    expect(await text(answerJson([a, none, b]))).toBe(JSON.stringify([json(a), json(none), json(b)]));
    expect(JSON.parse(await text(answerJson([b])))[0].metadata.filename).toBe('b.md');
  });

  it('lets other work run between its pieces', async () => {
    const upload: PartitionedUpload = { elements: await elements(450), filename: 'a.md', coordinates: false };
    let turns = 0;
    let reading = true;
    const tick = (): void => {
      if (!reading) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await text(answerJson([upload]));
    reading = false;
    // Five pieces of 100 elements: the event loop turned between them.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});
