import { describe, expect, it } from 'vitest';
import { elementJsonPieces, elementToJSON, type Element, writeElementJson } from '../../src/element/index.js';

function element(i: number): Element {
  return {
    type: i % 4 === 0 ? 'Title' : 'NarrativeText',
    element_id: `id-${i}`,
    text: `Element ${i} says "something" with a backslash \\ and a tab\tin it.`,
    metadata: {
      filename: 'doc.pdf',
      page_number: 1 + Math.floor(i / 3),
      languages: ['eng'],
      // Empty values that the sparse JSON form leaves out, and nested ones that keep their indentation.
      emphasized_text_contents: [],
      coordinates: {
        points: [
          [1, 2],
          [3, 4],
        ],
        system: 'PixelSpace',
        layout_width: 10,
        layout_height: 20,
      },
    },
  } as Element;
}

describe('elementJsonPieces', () => {
  it.each([0, 1, 6, 7, 8, 23])('joins into the bytes of JSON.stringify with two-space indentation and a newline (%i elements, batches of 7)', (n) => {
    const elements = Array.from({ length: n }, (_, i) => element(i));
    const pieces = [...elementJsonPieces(elements, 7)];
    expect(pieces.join('')).toBe(`${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`);
    expect(pieces).toHaveLength(Math.max(1, Math.ceil(n / 7)));
  });

  it('makes pieces of 100 elements by default', () => {
    const elements = Array.from({ length: 250 }, (_, i) => element(i));
    const pieces = [...elementJsonPieces(elements)];
    expect(pieces).toHaveLength(3);
    expect(pieces.join('')).toBe(`${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`);
  });
});

describe('writeElementJson', () => {
  it.each([0, 1, 250])('writes the bytes of JSON.stringify in writes of at least the size asked, but the last (%i elements)', async (n) => {
    const elements = Array.from({ length: n }, (_, i) => element(i));
    // One piece and a half: the first write gathers two pieces of 100 elements, the last the rest.
    const size = Math.ceil(1.5 * Buffer.byteLength([...elementJsonPieces(elements)][0]!));
    const writes: Uint8Array[] = [];
    await writeElementJson({ writeFile: async (data) => void writes.push(data) }, elements, size);
    expect(Buffer.concat(writes).toString('utf8')).toBe(`${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`);
    for (const w of writes.slice(0, -1)) expect(w.length).toBeGreaterThanOrEqual(size);
    expect(writes.length).toBe(n === 250 ? 2 : 1);
  });

  it('makes the next write while one is under way, and writes in order', async () => {
    const elements = Array.from({ length: 450 }, (_, i) => element(i));
    const expected = `${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`;
    // Element 150 is in the second piece: its text is read when that piece is made.
    let secondPieceMade = false;
    const text = elements[150]!.text;
    Object.defineProperty(elements[150]!, 'text', { get: () => ((secondPieceMade = true), text), enumerable: true });
    const size = Buffer.byteLength([...elementJsonPieces(elements)][0]!);
    secondPieceMade = false;
    const writes: Uint8Array[] = [];
    let underWay = 0;
    let release: (() => void) | undefined;
    const sink = {
      writeFile: async (data: Uint8Array) => {
        underWay++;
        expect(underWay).toBe(1);
        // The first write is held a while.
        if (writes.length === 0) await new Promise<void>((resolve) => (release = resolve));
        writes.push(data);
        underWay--;
      },
    };
    const done = writeElementJson(sink, elements, size);
    while (!release) await new Promise((resolve) => setImmediate(resolve));
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(secondPieceMade).toBe(true);
    release();
    await done;
    expect(Buffer.concat(writes).toString('utf8')).toBe(expected);
  });

  it('fails with a failed write, and leaves no write of its own unhandled', async () => {
    const elements = Array.from({ length: 450 }, (_, i) => element(i));
    const size = Buffer.byteLength([...elementJsonPieces(elements)][0]!);
    let calls = 0;
    const sink = {
      writeFile: async () => {
        calls++;
        throw new Error('disk full');
      },
    };
    await expect(writeElementJson(sink, elements, size)).rejects.toThrow('disk full');
    expect(calls).toBe(1);
  });

  it('lets the event loop turn between pieces, not only between writes', async () => {
    const elements = Array.from({ length: 450 }, (_, i) => element(i));
    // A turn of the event loop runs the callbacks of setImmediate: count those that ran before the one write.
    let turns = 0;
    let writing = false;
    const tick = () => {
      if (writing) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    let before = -1;
    await writeElementJson({ writeFile: async () => void ((before = turns), (writing = true)) }, elements, Number.POSITIVE_INFINITY);
    // Five pieces of 100 elements (the last of 50), one write at the end: a turn between each two pieces.
    expect(before).toBeGreaterThanOrEqual(4);
  });
});
