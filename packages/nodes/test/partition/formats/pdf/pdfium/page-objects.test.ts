import { describe, expect, it } from 'vitest';
import { countPageObjects } from '../../../../../src/partition/formats/pdf/pdfium/page-objects.js';
import { makePdf, textLines } from '../fixture.js';

const latin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

describe('countPageObjects', () => {
  it('counts the page dictionaries of a PDF, not its page tree nodes', () => {
    const pdf = makePdf(Array.from({ length: 5 }, (_, i) => ({ texts: textLines([`Page ${i + 1}.`]) })));
    expect(countPageObjects(pdf, 100)).toBe(5);
  });

  it('reads the name however it is spaced and ended, and nothing that only starts like it', () => {
    const text = '<</Type/Page/Parent 2 0 R>> << /Type\r\n /Page >> <</Type /Page>><</Type /Pages>> /Type /PageLabels /Page /Type /Page';
    expect(countPageObjects(latin1(text), 100)).toBe(4);
  });

  it('stops counting at upTo', () => {
    expect(countPageObjects(latin1('/Type /Page '.repeat(50)), 16)).toBe(16);
  });

  it('sees nothing in compressed object streams', () => {
    expect(countPageObjects(latin1('%PDF-1.5\n4 0 obj << /Type /ObjStm /N 40 /Filter /FlateDecode >> stream\nx\x9c\xed\x9d endstream'), 16)).toBe(0);
  });
});
