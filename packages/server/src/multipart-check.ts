/** Largest header block of one part, in bytes (under busboy's 80 KiB, past which it truncates the block in silence). */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
// busboy's default `headerPairs`: it stops reading a part's headers silently after these.
const MAX_PART_HEADERS = 2000;
const HEADER_END = Buffer.from('\r\n\r\n');
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The boundary of a `multipart/form-data` Content-Type, or undefined when it has none or one that
 * RFC 2046 does not allow (empty, longer than 70 characters).
 */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  const m = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = m ? (m[1] ?? m[2] ?? '') : '';
  return boundary.length >= 1 && boundary.length <= 70 ? boundary : undefined;
}

/**
 * Reads a multipart body beside busboy and finds what busboy passes over in silence: a part
 * without a `form-data` Content-Disposition naming its field, a header line that is not
 * `name: value`, a header block over {@link MAX_PART_HEADER_BYTES} (busboy truncates it), a
 * boundary line with text after the boundary. Feed it every chunk of the body with
 * {@link push}; {@link problem} then says what is wrong, if anything.
 */
export class PartHeaderCheck {
  /** The first problem found, for the client (`part 2 has no Content-Disposition header`). */
  problem: string | undefined;
  private readonly delimiter: Buffer;
  // Bytes kept from the previous chunk: a delimiter or header block may straddle two chunks.
  private pending: Buffer;
  private state: 'seek' | 'headers' | 'done' = 'seek';
  private part = 0;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    // As in busboy, the body reads as if it began with a line break, so a leading delimiter matches.
    this.pending = Buffer.from('\r\n');
  }

  /** Reads the next chunk of the body. */
  push(chunk: Buffer): void {
    if (this.state === 'done' || this.problem) return;
    let buf = chunk;
    if (this.state === 'seek' && this.pending.length) {
      // Only a delimiter straddling the two chunks needs the kept bytes: search a small window, not a copy of the chunk.
      const window = Buffer.concat([this.pending, chunk.subarray(0, this.delimiter.length - 1)]);
      const at = window.indexOf(this.delimiter);
      if (at >= 0) {
        buf = chunk.subarray(at + this.delimiter.length - this.pending.length);
        this.state = 'headers';
      } else if (chunk.length < this.delimiter.length - 1) {
        // The window holds the whole chunk: its tail, kept bytes included, is what to keep.
        buf = window;
      }
    } else if (this.pending.length) {
      buf = Buffer.concat([this.pending, chunk]);
    }
    this.pending = Buffer.alloc(0);
    for (;;) {
      if (this.state === 'seek') {
        const at = buf.indexOf(this.delimiter);
        if (at < 0) {
          this.keep(buf.subarray(Math.max(0, buf.length - this.delimiter.length + 1)));
          return;
        }
        buf = buf.subarray(at + this.delimiter.length);
        this.state = 'headers';
        continue;
      }
      if (buf.length < 2) {
        this.keep(buf);
        return;
      }
      // `--` after a delimiter closes the body; what follows is an epilogue.
      if (buf[0] === 0x2d && buf[1] === 0x2d) {
        this.state = 'done';
        return;
      }
      const end = buf.indexOf(HEADER_END);
      const next = buf.indexOf(this.delimiter);
      // busboy ends the part at the next delimiter even inside its headers, and then drops it.
      if (next >= 0 && (end < 0 || next < end + HEADER_END.length)) {
        this.problem = `part ${this.part + 1} has no empty line after its headers`;
        return;
      }
      if (end < 0 || end > MAX_PART_HEADER_BYTES) {
        if (end > MAX_PART_HEADER_BYTES || buf.length > MAX_PART_HEADER_BYTES + HEADER_END.length) {
          this.problem = `the headers of part ${this.part + 1} are longer than ${MAX_PART_HEADER_BYTES} bytes`;
          return;
        }
        this.keep(buf);
        return;
      }
      this.part++;
      this.problem = headerProblem(buf.toString('latin1', 0, end), this.part);
      if (this.problem) return;
      buf = buf.subarray(end + HEADER_END.length);
      this.state = 'seek';
    }
  }

  private keep(bytes: Buffer): void {
    this.pending = Buffer.from(bytes);
  }
}

/** What is wrong with a part's header block (the rest of its boundary line, then its header lines), if anything. */
function headerProblem(block: string, part: number): string | undefined {
  const where = `part ${part}`;
  const [padding = '', ...lines] = block.split('\r\n');
  if (!/^[ \t]*$/.test(padding)) return `the boundary line before ${where} does not match the boundary of the Content-Type`;
  const headers = new Map<string, string>();
  let last: string | undefined;
  let count = 0;
  for (const line of lines) {
    if (line === '') continue;
    if (/[\r\n]/.test(line)) return `${where} has a header with a bare line break`;
    if ((line.startsWith(' ') || line.startsWith('\t')) && last) {
      headers.set(last, `${headers.get(last) ?? ''}${line}`);
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!TOKEN.test(name)) return `${where} has a malformed header line (expected "Name: value")`;
    if (++count > MAX_PART_HEADERS) return `${where} has more than ${MAX_PART_HEADERS} headers`;
    last = name.toLowerCase();
    if (!headers.has(last)) headers.set(last, line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (disposition === undefined) return `${where} has no Content-Disposition header`;
  if (!/^form-data\s*(;|$)/i.test(disposition)) return `the Content-Disposition of ${where} is not form-data`;
  if (!/;\s*name\s*=/i.test(disposition)) return `the Content-Disposition of ${where} has no name`;
  return undefined;
}
