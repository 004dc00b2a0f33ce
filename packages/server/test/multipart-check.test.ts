import { describe, expect, it } from 'vitest';
import { MAX_PART_HEADER_BYTES, PartHeaderCheck, multipartBoundary } from '../src/multipart-check.js';

const B = 'q7Boundary';

/** The check's verdict on a body fed in pieces of `size` bytes (the whole body when size is 0). */
function verdict(body: Buffer, size = 0): string | undefined {
  const check = new PartHeaderCheck(B);
  if (size === 0) check.push(body);
  else for (let i = 0; i < body.length; i += size) check.push(body.subarray(i, i + size));
  return check.problem;
}

/** The same verdict however the body is cut into chunks: whole, byte by byte, and at every split point. */
function verdictEverySplit(body: Buffer): string | undefined {
  const whole = verdict(body);
  expect(verdict(body, 1)).toBe(whole);
  for (let at = 1; at < body.length; at++) {
    const check = new PartHeaderCheck(B);
    check.push(body.subarray(0, at));
    check.push(body.subarray(at));
    expect(check.problem).toBe(whole);
  }
  return whole;
}

const part = (headers: string, content = 'hello'): string => `--${B}\r\n${headers}\r\n\r\n${content}\r\n`;
const file = (name = 'a.txt'): string => `Content-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain`;
const body = (...parts: string[]): Buffer => Buffer.from(`${parts.join('')}--${B}--\r\n`, 'latin1');

describe('multipartBoundary', () => {
  it('reads the boundary parameter, quoted or not, and refuses none, an empty one or one over 70 characters', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(multipartBoundary(`multipart/form-data;BOUNDARY="${B} x"; charset=utf-8`)).toBe(`${B} x`);
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
    expect(multipartBoundary('multipart/form-data; boundary=')).toBeUndefined();
    expect(multipartBoundary(`multipart/form-data; boundary=${'b'.repeat(71)}`)).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });
});

describe('PartHeaderCheck', () => {
  it('accepts what FormData sends, however the body is cut, with boundary-like bytes inside a file', async () => {
    const fd = new FormData();
    fd.append('request_data', '{"template_id":"x"}');
    const tricky = new Uint8Array(Buffer.from(`line\r\n--${B.slice(0, 5)}\r\n--\r\n\r\n--${B.slice(0, -1)}\r\nend`));
    fd.append('input_files', new Blob([tricky]), 'tricky.txt');
    const big = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
    fd.append('input_files', new Blob([big]), 'big.bin');
    const res = new Response(fd);
    const boundary = multipartBoundary(res.headers.get('content-type') ?? '');
    expect(boundary).toBeDefined();
    const bytes = Buffer.from(await res.arrayBuffer());
    for (const size of [0, 7, 4096, 65536]) {
      const check = new PartHeaderCheck(boundary!);
      if (size === 0) check.push(bytes);
      else for (let i = 0; i < bytes.length; i += size) check.push(bytes.subarray(i, i + size));
      expect(check.problem).toBeUndefined();
    }
  });

  it('accepts a preamble, an epilogue, folded headers, padding after the boundary and an empty part', () => {
    const folded = `Content-Disposition: form-data;\r\n name="files"; filename="a.txt"`;
    const padded = Buffer.from(`preamble\r\n--${B}  \r\n${file()}\r\n\r\nhello\r\n--${B}\r\n${folded}\r\n\r\n\r\n--${B}--\r\nepilogue`, 'latin1');
    expect(verdictEverySplit(padded)).toBeUndefined();
  });

  it('finds each malformed part header, however the body is cut', () => {
    expect(verdictEverySplit(body(part('Content-Type: text/plain')))).toBe('part 1 has no Content-Disposition header');
    expect(verdictEverySplit(body(part(file()), part('not a header line')))).toBe('part 2 has a malformed header line (expected "Name: value")');
    expect(verdictEverySplit(body(part(': no name')))).toBe('part 1 has a malformed header line (expected "Name: value")');
    expect(verdictEverySplit(body(part('Content-Disposition: attachment; filename="a.txt"')))).toBe('the Content-Disposition of part 1 is not form-data');
    expect(verdictEverySplit(body(part('Content-Disposition: form-data; filename="a.txt"')))).toBe('the Content-Disposition of part 1 has no name');
    expect(verdictEverySplit(body(part('Content-Disposition: form-data; name="a\rb"')))).toBe('part 1 has a header with a bare line break');
    expect(verdictEverySplit(Buffer.from(`--${B}x\r\n${file()}\r\n\r\nhello\r\n--${B}--\r\n`))).toBe(
      'the boundary line before part 1 does not match the boundary of the Content-Type',
    );
    expect(verdictEverySplit(Buffer.from(`--${B}\r\n${file()}\r\n--${B}--\r\n`))).toBe('part 1 has no empty line after its headers');
  });

  it('refuses a header block over the limit, at its end or while it is still arriving', () => {
    const long = body(part(`${file()}\r\nX-Long: ${'y'.repeat(MAX_PART_HEADER_BYTES)}`));
    expect(verdict(long)).toBe(`the headers of part 1 are longer than ${MAX_PART_HEADER_BYTES} bytes`);
    expect(verdict(long, 1000)).toBe(`the headers of part 1 are longer than ${MAX_PART_HEADER_BYTES} bytes`);
    const unending = new PartHeaderCheck(B);
    unending.push(Buffer.from(`--${B}\r\nX: `));
    for (let i = 0; i < 20 && !unending.problem; i++) unending.push(Buffer.alloc(1024, 0x61));
    expect(unending.problem).toBe(`the headers of part 1 are longer than ${MAX_PART_HEADER_BYTES} bytes`);
    expect(verdict(body(part(`${file()}\r\nX-Fits: ${'y'.repeat(MAX_PART_HEADER_BYTES - 200)}`)))).toBeUndefined();
  });
});
