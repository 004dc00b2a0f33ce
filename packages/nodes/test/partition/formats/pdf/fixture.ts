/**
 * A small PDF writer for test fixtures: pages of Helvetica text at given positions, grey images,
 * optional RC4-128 encryption (standard security handler, revision 3) with a user and an owner
 * password. Fixtures are generated at test time; none is committed.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/** One text run drawn at (x, y) in PDF user space (origin bottom-left). */
export interface FixtureText {
  x: number;
  y: number;
  size: number;
  text: string;
  /** `bold` uses Helvetica-Bold. */
  bold?: boolean;
}

/** A flat grey image drawn in the rectangle (x, y, width, height), user space. */
export interface FixtureImage {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One page. */
export interface FixturePage {
  width?: number;
  height?: number;
  texts?: FixtureText[];
  images?: FixtureImage[];
}

/** Options of {@link makePdf}. */
export interface FixtureOptions {
  /** Encrypts the file. An empty `user` password gives a file anyone can open (owner password only). */
  encrypt?: { user: string; owner: string };
  /** Compresses the page content streams (`/FlateDecode`). */
  compress?: boolean;
}

const PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
};

function padPassword(pw: string): Buffer {
  return Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);
}

/** The /O, /U entries and the file key of the standard security handler, revision 3, 128-bit. */
function securityValues(user: string, owner: string, permissions: number, fileId: Buffer): { o: Buffer; u: Buffer; key: Buffer } {
  // Algorithm 3: the owner entry.
  let h = md5(padPassword(owner || user));
  for (let i = 0; i < 50; i++) h = md5(h);
  const ownerKey = h.subarray(0, 16);
  let o = rc4(ownerKey, padPassword(user));
  for (let i = 1; i <= 19; i++)
    o = rc4(
      ownerKey.map((b) => b ^ i),
      o,
    );
  // Algorithm 2: the file key.
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  let k = md5(padPassword(user), o, p, fileId);
  for (let i = 0; i < 50; i++) k = md5(k.subarray(0, 16));
  const key = k.subarray(0, 16);
  // Algorithm 5: the user entry.
  let u = rc4(key, md5(PAD, fileId));
  for (let i = 1; i <= 19; i++)
    u = rc4(
      key.map((b) => b ^ i),
      u,
    );
  return { o, u: Buffer.concat([u, Buffer.alloc(16)]), key };
}

function objectKey(key: Buffer, num: number): Buffer {
  const extra = Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0]);
  return md5(key, extra).subarray(0, Math.min(key.length + 5, 16));
}

// Characters of WinAnsiEncoding outside Latin-1, by their code in that encoding.
const WIN_ANSI: Readonly<Record<string, number>> = {
  '\u2022': 0x95,
  '\u2013': 0x96,
  '\u2014': 0x97,
  '\u2018': 0x91,
  '\u2019': 0x92,
  '\u201C': 0x93,
  '\u201D': 0x94,
  '\u2026': 0x85,
};

/** Text as a PDF literal string body in WinAnsiEncoding. */
function encodeText(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = WIN_ANSI[ch] ?? ch.charCodeAt(0);
    const c = String.fromCharCode(code > 255 ? 0x3f : code);
    out += c === '\\' || c === '(' || c === ')' ? `\\${c}` : c;
  }
  return out;
}

/**
 * Writes a PDF. Coordinates are PDF user space: origin at the bottom-left, y up, in points.
 *
 * @example
 * ```ts
 * const bytes = makePdf([{ texts: [{ x: 72, y: 720, size: 12, text: 'Hello' }] }]);
 * ```
 */
export function makePdf(pages: readonly FixturePage[], options: FixtureOptions = {}): Uint8Array {
  interface Obj {
    dict: string;
    stream?: Buffer;
  }
  const objects: Obj[] = [];
  const add = (o: Obj): number => objects.push(o);
  const catalog = add({ dict: '' });
  const pagesObj = add({ dict: '' });
  const font = add({ dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' });
  const bold = add({ dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>' });
  const grey = Buffer.alloc(16 * 16, 0x80);
  const image = add({
    dict: `<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${grey.length} >>`,
    stream: grey,
  });
  const kids: number[] = [];
  for (const page of pages) {
    const w = page.width ?? 612;
    const h = page.height ?? 792;
    let content = '';
    for (const img of page.images ?? []) content += `q ${img.width} 0 0 ${img.height} ${img.x} ${img.y} cm /Im1 Do Q\n`;
    for (const t of page.texts ?? []) content += `BT /${t.bold ? 'F2' : 'F1'} ${t.size} Tf ${t.x} ${t.y} Td (${encodeText(t.text)}) Tj ET\n`;
    const raw = Buffer.from(content, 'latin1');
    const stream = options.compress ? deflateSync(raw) : raw;
    const contents = add({ dict: `<< /Length ${stream.length}${options.compress ? ' /Filter /FlateDecode' : ''} >>`, stream });
    kids.push(
      add({
        dict: `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R >> /XObject << /Im1 ${image} 0 R >> >> /Contents ${contents} 0 R >>`,
      }),
    );
  }
  objects[catalog - 1]!.dict = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1]!.dict = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  const fileId = md5(Buffer.from(`quarry-fixture-${pages.length}-${JSON.stringify(options.encrypt ?? null)}`));
  let trailerExtra = '';
  let key: Buffer | undefined;
  if (options.encrypt) {
    const permissions = -3904; // printing allowed, copying and changing not
    const sec = securityValues(options.encrypt.user, options.encrypt.owner, permissions, fileId);
    key = sec.key;
    const enc = add({ dict: `<< /Filter /Standard /V 2 /R 3 /Length 128 /P ${permissions} /O <${sec.o.toString('hex')}> /U <${sec.u.toString('hex')}> >>` });
    trailerExtra = ` /Encrypt ${enc} 0 R`;
    // Streams of every object but the encryption dictionary are encrypted with per-object keys.
    objects.forEach((o, i) => {
      if (o.stream && i + 1 !== enc) o.stream = rc4(objectKey(key!, i + 1), o.stream);
    });
  }

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(offset);
    const parts: Buffer[] = [Buffer.from(`${i + 1} 0 obj\n${o.dict}\n`, 'latin1')];
    if (o.stream) parts.push(Buffer.from('stream\n', 'latin1'), o.stream, Buffer.from('\nendstream\n', 'latin1'));
    parts.push(Buffer.from('endobj\n', 'latin1'));
    for (const p of parts) {
      chunks.push(p);
      offset += p.length;
    }
  });
  const xrefAt = offset;
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) xref += `${String(off).padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /ID [<${fileId.toString('hex')}> <${fileId.toString('hex')}>]${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Letter-size page text lines, top to bottom from y = 720, 14 points apart. */
export function textLines(lines: readonly string[], x = 72, size = 11, top = 720): FixtureText[] {
  return lines.map((text, i) => ({ x, y: top - i * 14, size, text }));
}
