import type { FormatPartitioner } from '../types.js';
import { decodeText } from './shared/decode-text.js';
import { partitionBlocks, type Block } from './shared/blocks-html.js';

// Section adornment: one punctuation character repeated (docutils accepts any of these).
const ADORNMENT = /^([=\-`:'"~^_*+#<>.])\1{2,}\s*$/u;
const BULLET = /^([-*+•])\s+(.*)$/u;
const ENUMERATED = /^(?:\d+|#|[a-zA-Z])[.)]\s+(.*)$|^\((?:\d+|#|[a-zA-Z])\)\s+(.*)$/u;
const DIRECTIVE = /^\.\.\s+([\w-]+)::\s*(.*)$/u;
const CODE_DIRECTIVES = new Set(['code', 'code-block', 'sourcecode', 'literalinclude', 'parsed-literal', 'math']);
const SKIPPED_DIRECTIVES = new Set([
  'image',
  'figure',
  'include',
  'raw',
  'toctree',
  'contents',
  'meta',
  'highlight',
  'role',
  'default-role',
  'sectnum',
  'index',
]);

/** Inline markup taken off: ``literal``, **strong**, *emphasis*, `link <url>`_, :role:`text`, |subst|. */
export function rstInline(text: string): string {
  return text
    .replace(/``(.+?)``/gu, '$1')
    .replace(/:[\w-]+:`([^`<]*?)\s*(?:<[^>]*>)?`/gu, '$1')
    .replace(/`([^`<]*?)\s*<[^>]*>`__?/gu, '$1')
    .replace(/`([^`]+)`_{0,2}/gu, '$1')
    .replace(/\*\*(.+?)\*\*/gu, '$1')
    .replace(/\*(\S(?:.*?\S)?)\*/gu, '$1')
    .replace(/\s+/gu, ' ')
    .trim();
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** reStructuredText read line by line into blocks: sections, paragraphs, lists, literal blocks, grid and simple tables. */
export function rstBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/gu, '\n').replace(/\t/gu, '        ').split('\n');
  const blocks: Block[] = [];
  const styles: string[] = [];
  let i = 0;
  const heading = (text: string, style: string): void => {
    if (!styles.includes(style)) styles.push(style);
    blocks.push({ kind: 'heading', level: styles.indexOf(style) + 1, text: rstInline(text) });
  };
  // The indented block after line `from` (blank lines inside it kept), dedented.
  const indented = (from: number): { text: string; next: number } => {
    let j = from;
    const body: string[] = [];
    while (j < lines.length && (lines[j]!.trim() === '' || indentOf(lines[j]!) > 0)) body.push(lines[j++]!);
    while (body.length && body[body.length - 1]!.trim() === '') body.pop();
    const cut = Math.min(...body.filter((l) => l.trim()).map(indentOf));
    return {
      text: body
        .map((l) => l.slice(Number.isFinite(cut) ? cut : 0))
        .join('\n')
        .replace(/^\n+/u, ''),
      next: j,
    };
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const next = lines[i + 1] ?? '';
    if (line.trim() === '') {
      i++;
      continue;
    }
    // Overlined title: adornment, text, adornment.
    if (ADORNMENT.test(line) && lines[i + 2] !== undefined && ADORNMENT.test(lines[i + 2]!) && next.trim() && !ADORNMENT.test(next)) {
      heading(next.trim(), `over${line.trim()[0]}`);
      i += 3;
      continue;
    }
    if (!line.startsWith(' ') && ADORNMENT.test(next) && next.trim().length >= line.trim().length && !/^=+(\s+=+)+\s*$/u.test(next)) {
      heading(line.trim(), next.trim()[0]!);
      i += 2;
      continue;
    }
    const directive = DIRECTIVE.exec(line.trim());
    if (directive) {
      const body = indented(i + 1);
      const name = directive[1]!.toLowerCase();
      if (CODE_DIRECTIVES.has(name)) blocks.push({ kind: 'code', text: body.text });
      else if (!SKIPPED_DIRECTIVES.has(name)) blocks.push(...rstBlocks([directive[2] ?? '', '', body.text].join('\n')));
      i = body.next;
      continue;
    }
    if (line.trim().startsWith('..')) {
      // A comment, a link target or a substitution definition: no text of the document.
      i = indented(i + 1).next;
      continue;
    }
    if (line.trim().startsWith('+-') && /^\+[-=+]+\+$/u.test(line.trim())) {
      const rows: string[][] = [];
      let header = false;
      let cells: string[] | undefined;
      for (; i < lines.length && /^[+|]/u.test(lines[i]!.trim()); i++) {
        const l = lines[i]!.trim();
        if (l.startsWith('+')) {
          if (cells) rows.push(cells.map(rstInline));
          cells = undefined;
          if (l.includes('=')) header = true;
          continue;
        }
        const parts = l.slice(1, l.endsWith('|') ? -1 : undefined).split('|');
        cells = cells ? cells.map((c, k) => `${c} ${parts[k] ?? ''}`) : parts;
      }
      blocks.push({ kind: 'table', rows, header });
      continue;
    }
    if (/^=+(\s+=+)+\s*$/u.test(line)) {
      // Simple table: column edges from the border line; a second border ends the header.
      const spans: Array<[number, number]> = [];
      for (const m of line.matchAll(/=+/gu)) spans.push([m.index, m.index + m[0].length]);
      const rows: string[][] = [];
      let borders = 1;
      let header = false;
      for (i++; i < lines.length && borders < 3; i++) {
        const l = lines[i]!;
        if (/^=+(\s+=+)+\s*$/u.test(l)) {
          borders++;
          if (borders === 2 && lines.slice(i + 1).some((x) => /^=+(\s+=+)+\s*$/u.test(x))) header = true;
          else if (borders === 2) borders = 3;
          continue;
        }
        if (l.trim() === '') continue;
        rows.push(spans.map(([a, b], k) => rstInline(k === spans.length - 1 ? l.slice(a) : l.slice(a, Math.max(b, spans[k + 1]![0])))));
      }
      blocks.push({ kind: 'table', rows, header });
      continue;
    }
    const item = BULLET.exec(line.trim()) ?? ENUMERATED.exec(line.trim());
    if (item) {
      const ordered = !BULLET.test(line.trim());
      const items: string[] = [];
      while (i < lines.length) {
        const l = lines[i]!;
        const m = (ordered ? ENUMERATED : BULLET).exec(l.trim());
        if (m && indentOf(l) === indentOf(line)) {
          const text = [m[2] ?? m[1] ?? ''];
          const start = indentOf(l) + (l.trim().length - (m[2] ?? m[1] ?? '').length);
          for (i++; i < lines.length && lines[i]!.trim() && indentOf(lines[i]!) >= start; i++) text.push(lines[i]!.trim());
          items.push(rstInline(text.join(' ')));
          while (
            i < lines.length &&
            lines[i]!.trim() === '' &&
            (lines[i + 1] ?? '').trim() &&
            indentOf(lines[i + 1]!) === indentOf(line) &&
            (ordered ? ENUMERATED : BULLET).test(lines[i + 1]!.trim())
          )
            i++;
          continue;
        }
        break;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    // A paragraph: lines up to a blank one; `::` at its end opens a literal block.
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') para.push(lines[i++]!.trim());
    let text = para.join(' ');
    const literal = text.endsWith('::');
    if (literal) text = text.replace(/\s*::$/u, text.endsWith(' ::') ? '' : ':');
    if (text) blocks.push({ kind: 'paragraph', text: rstInline(text) });
    if (literal) {
      while (i < lines.length && lines[i]!.trim() === '') i++;
      const body = indented(i);
      if (body.text) blocks.push({ kind: 'code', text: body.text });
      i = body.next;
    }
  }
  return blocks;
}

/**
 * reStructuredText (`.rst`), read line by line (there is no well-kept JavaScript parser):
 * section titles become Titles by their adornment's order, lists ListItems, paragraphs
 * NarrativeText, literal and code blocks text, grid and simple tables Tables with `text_as_html`;
 * comments, link targets and image directives carry no text and are left out.
 */
export const rstPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionBlocks(rstBlocks(decodeText(bytes, options.encoding)), options),
};
