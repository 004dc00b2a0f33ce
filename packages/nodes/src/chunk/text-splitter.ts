import { QuarryError } from '@quarry/core/errors';
import { isPyWhitespace, pyLstrip, pyRstrip } from './python-text.js';

/** Separators tried in order when splitting an oversized text (the library's default). */
export const TEXT_SPLITTING_SEPARATORS: readonly string[] = ['\n', ' '];

/**
 * Splits text longer than a window into pieces no longer than the window, the way
 * `unstructured`'s `_TextSplitter` does: cut at the right-most separator (newline, then space) whose
 * position is within `(overlap, maxlen]`, drop the separator and the whitespace around it, and
 * prefix the remainder with the last `overlap - 1` characters of the piece plus a space; with no
 * separator in range, cut at `maxlen` and restart `overlap` characters back.
 *
 * The remainder is never materialised: the splitter walks the source with a cursor plus a short
 * overlap head, so splitting a long text is linear in its length.
 */
export class TextSplitter {
  private readonly maxSepLen: number;

  /**
   * @param maxlen window size in characters (> 0).
   * @param overlap characters repeated at the start of each following piece (< maxlen).
   * @throws QuarryError `INVALID_ARGUMENT` when the window could never advance.
   */
  constructor(
    readonly maxlen: number,
    readonly overlap: number,
    private readonly separators: readonly string[] = TEXT_SPLITTING_SEPARATORS,
  ) {
    if (!Number.isInteger(maxlen) || maxlen <= 0 || !Number.isInteger(overlap) || overlap >= maxlen) {
      throw new QuarryError('INVALID_ARGUMENT', `TextSplitter needs an integer maxlen > 0 and overlap < maxlen, got ${maxlen} and ${overlap}`);
    }
    this.maxSepLen = Math.max(0, ...separators.map((s) => s.length));
  }

  /** Every piece of `text`, in order. A text within the window is one piece, unchanged. */
  pieces(text: string): string[] {
    if (text.length <= this.maxlen) return [text];
    const out: string[] = [];
    const cursor = new Cursor(text);
    for (;;) {
      const piece = this.step(cursor);
      out.push(piece);
      if (cursor.length === 0) return out;
    }
  }

  /** One split: `[piece, remainder]`, the library's `split(s)` contract. */
  split(s: string): [string, string] {
    const cursor = new Cursor(s);
    const piece = this.step(cursor);
    return [piece, cursor.materialize(cursor.length)];
  }

  // Takes the next piece off the cursor's virtual string and leaves the remainder on it.
  private step(c: Cursor): string {
    const { maxlen, overlap } = this;
    const total = c.length;
    if (total <= maxlen) {
      const all = c.materialize(total);
      c.consume(total);
      return all;
    }
    const window = c.materialize(Math.min(total, maxlen + this.maxSepLen));
    const from = Math.max(0, overlap + 1);
    for (const sep of this.separators) {
      if (sep.length === 0) continue;
      const start = window.lastIndexOf(sep, maxlen);
      if (start < from) continue;
      const fragment = pyRstrip(window.slice(0, start));
      if (!fragment) continue;
      const rest = c.fork();
      rest.consume(start + sep.length);
      rest.lstrip();
      if (overlap > 1) rest.prepend(`${pyLstrip(fragment.slice(-(overlap - 1)))} `);
      if (rest.length >= total) continue;
      rest.lstrip();
      c.assign(rest);
      return fragment;
    }
    const fragment = pyRstrip(window.slice(0, maxlen));
    c.consume(maxlen - overlap);
    c.lstrip();
    return fragment;
  }
}

// A string `head + src.slice(pos)`, edited without copying `src`.
class Cursor {
  head = '';
  pos = 0;

  constructor(readonly src: string) {}

  get length(): number {
    return this.head.length + this.src.length - this.pos;
  }

  materialize(n: number): string {
    const h = this.head;
    if (n <= h.length) return h.slice(0, n);
    const tail = this.src.slice(this.pos, this.pos + n - h.length);
    return h ? h + tail : tail;
  }

  consume(n: number): void {
    if (n <= this.head.length) {
      this.head = this.head.slice(n);
      return;
    }
    this.pos = Math.min(this.src.length, this.pos + n - this.head.length);
    this.head = '';
  }

  lstrip(): void {
    if (this.head) {
      this.head = pyLstrip(this.head);
      if (this.head) return;
    }
    const s = this.src;
    let p = this.pos;
    while (p < s.length && isPyWhitespace(s.charCodeAt(p))) p++;
    this.pos = p;
  }

  prepend(prefix: string): void {
    this.head = prefix + this.head;
  }

  fork(): Cursor {
    const c = new Cursor(this.src);
    c.head = this.head;
    c.pos = this.pos;
    return c;
  }

  assign(other: Cursor): void {
    this.head = other.head;
    this.pos = other.pos;
  }
}
