/**
 * How many page objects a PDF's bytes show before any parser reads them, so that a long document
 * goes to the PDFium build that suits it on its first load instead of its second.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */

const PAGE = Buffer.from('/Page');
const TYPE = Buffer.from('/Type');
// PDF white-space characters: NUL, tab, line feed, form feed, carriage return, space.
const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
// What ends a name: white space or a delimiter, `( ) < > [ ] { } / %`, or the end of the file.
const ENDS_NAME = new Set([...WHITE, 0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25, undefined]);

/**
 * The page dictionaries (`/Type /Page`) written as plain text in `bytes`, counted up to `upTo`. A
 * hint, not the page count: pages kept in compressed object streams are not seen (0 for many
 * files written since PDF 1.5), and an incrementally updated file may show a page's old versions too.
 */
export function countPageObjects(bytes: Uint8Array, upTo: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  // Buffer.indexOf searches natively: a megabyte takes well under a millisecond.
  for (let at = buffer.indexOf(PAGE); at >= 0 && n < upTo; at = buffer.indexOf(PAGE, at + PAGE.length)) {
    if (!ENDS_NAME.has(buffer[at + PAGE.length])) continue;
    let end = at;
    while (end > 0 && WHITE.has(buffer[end - 1]!)) end--;
    if (end >= TYPE.length && buffer.compare(TYPE, 0, TYPE.length, end - TYPE.length, end) === 0) n++;
  }
  return n;
}
