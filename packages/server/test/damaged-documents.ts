import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A ZIP archive of stored (uncompressed) entries, written by hand so that tests can damage it. */
export function storedZip(entries: ReadonlyArray<[string, string | Uint8Array]>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A DOCX whose main part holds `documentXml`. */
export function docx(documentXml: string): Buffer {
  return storedZip([
    ['[Content_Types].xml', CONTENT_TYPES],
    ['word/document.xml', documentXml],
  ]);
}

/** A readable one-paragraph DOCX. */
export function goodDocx(text: string): Buffer {
  return docx(`<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`);
}

/** The same bytes with the central directory's first signature zeroed: the ZIP's index is broken, its entries intact. */
export function damageCentralDirectory(zip: Buffer): Buffer {
  const out = Buffer.from(zip);
  const eocd = out.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const at = out.readUInt32LE(eocd + 16);
  out.fill(0, at, at + 4);
  return out;
}

/**
 * A one-page PDF encrypted with the standard handler (RC4, revision 2) whose user password is not
 * empty: its /U entry matches no key an empty password gives, so a reader asks for a password.
 */
export function passwordPdf(): Buffer {
  const hex32 = (seed: number): string => Buffer.from(Array.from({ length: 32 }, (_, i) => (seed * (i + 7) * 131) & 255)).toString('hex');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex32(3)}> /U <${hex32(5)}> /P -4 >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${hex32(7).slice(0, 32)}> <${hex32(7).slice(0, 32)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * A valid gzip file (one member) that inflates to `mib` MiB of zeros, in about 1 KB per MiB: a
 * deflate segment of 1 MiB of zeros ended by a full flush does not refer back, so it is repeated.
 */
export function gzipBomb(mib: number): Buffer {
  const zeros = Buffer.alloc(2 ** 20);
  const segment = deflateRawSync(zeros, { finishFlush: constants.Z_FULL_FLUSH });
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = crc32(zeros, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((mib * 2 ** 20) >>> 0, 4);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  // 0x03 0x00: an empty final block with fixed codes ends the deflate stream.
  return Buffer.concat([header, ...Array<Buffer>(mib).fill(segment), Buffer.from([3, 0]), trailer]);
}
