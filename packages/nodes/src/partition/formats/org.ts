import type { FormatPartitioner } from '../types.js';
import { decodeText } from './shared/decode-text.js';
import { partitionBlocks, type Block } from './shared/blocks-html.js';

const HEADLINE = /^(\*+)\s+(.*)$/u;
const ITEM = /^(\s*)(?:[-+]|\s\*|\d+[.)]|[a-zA-Z][.)])\s+(.*)$/u;
const TODO = /^(?:TODO|DONE|NEXT|WAITING|CANCELLED|CANCELED)\s+/u;
const TAGS = /\s+:[\w@#%:]+:\s*$/u;
const PRIORITY = /^\[#[A-Z0-9]\]\s+/u;

/** Org inline markup taken off: [[link][description]], ~code~, =verbatim=, *bold*, /italic/, _underline_, +strike+. */
export function orgInline(text: string): string {
  return text
    .replace(/\[\[([^\]]+)\](?:\[([^\]]+)\])?\]/gu, (_, link: string, desc?: string) => desc ?? link)
    .replace(/(^|[\s({'"])([~=*/_+])(\S(?:.*?\S)?)\2(?=$|[\s.,;:!?)}'"-])/gu, '$1$3')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Org-mode read line by line into blocks: headlines, paragraphs, lists, source/example blocks, tables. */
export function orgBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/gu, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === '' || /^#(\s|$)/u.test(trimmed)) {
      i++;
      continue;
    }
    const headline = HEADLINE.exec(line);
    if (headline) {
      const text = headline[2]!.replace(TODO, '').replace(PRIORITY, '').replace(TAGS, '');
      blocks.push({ kind: 'heading', level: headline[1]!.length, text: orgInline(text) });
      i++;
      continue;
    }
    const begin = /^#\+begin_(\w+)/iu.exec(trimmed);
    if (begin) {
      const name = begin[1]!.toLowerCase();
      const end = new RegExp(`^#\\+end_${name}\\b`, 'iu');
      const body: string[] = [];
      for (i++; i < lines.length && !end.test(lines[i]!.trim()); i++) body.push(lines[i]!);
      i++;
      const text = body.join('\n');
      if (name === 'src' || name === 'example' || name === 'verse') blocks.push({ kind: 'code', text: text.replace(/^\n+|\s+$/gu, '') });
      else if (name !== 'comment') blocks.push(...orgBlocks(text));
      continue;
    }
    if (trimmed.startsWith('#+')) {
      // In-buffer settings; the title is the document's first heading.
      const title = /^#\+title:\s*(.+)$/iu.exec(trimmed);
      if (title) blocks.push({ kind: 'heading', level: 1, text: orgInline(title[1]!) });
      i++;
      continue;
    }
    if (/^:[\w-]+:\s*$/u.test(trimmed) && lines.slice(i + 1).some((l) => /^:end:\s*$/iu.test(l.trim()))) {
      // A drawer (:PROPERTIES: ... :END:): metadata, not text.
      while (i < lines.length && !/^:end:\s*$/iu.test(lines[i]!.trim())) i++;
      i++;
      continue;
    }
    if (trimmed.startsWith('|')) {
      const rows: string[][] = [];
      let header = false;
      for (; i < lines.length && lines[i]!.trim().startsWith('|'); i++) {
        const l = lines[i]!.trim();
        if (/^\|[-+]+\|?$/u.test(l)) {
          if (rows.length === 1) header = true;
          continue;
        }
        rows.push(
          l
            .replace(/^\||\|$/gu, '')
            .split('|')
            .map(orgInline),
        );
      }
      blocks.push({ kind: 'table', rows, header });
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      const ordered = /^\s*[\da-zA-Z][.)]/u.test(line);
      const items: string[] = [];
      const indent = item[1]!.length;
      while (i < lines.length) {
        const m = ITEM.exec(lines[i]!);
        if (!m || m[1]!.length !== indent) break;
        const text = [m[2]!.replace(/^\[[ Xx-]\]\s+/u, '')];
        for (i++; i < lines.length && lines[i]!.trim() && !ITEM.exec(lines[i]!) && lines[i]!.length - lines[i]!.trimStart().length > indent; i++)
          text.push(lines[i]!.trim());
        items.push(orgInline(text.join(' ')));
        while (i < lines.length && lines[i]!.trim() === '' && ITEM.exec(lines[i + 1] ?? '')?.[1]?.length === indent) i++;
      }
      blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() !== '' &&
      !HEADLINE.test(lines[i]!) &&
      !lines[i]!.trim().startsWith('#+') &&
      !(para.length && ITEM.test(lines[i]!))
    )
      para.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', text: orgInline(para.join(' ')) });
  }
  return blocks;
}

/**
 * Org-mode (`.org`), read line by line: headlines become Titles (TODO keywords, priorities and
 * tags taken off), lists ListItems, paragraphs NarrativeText, source and example blocks text,
 * tables Tables with `text_as_html`; drawers, comments and settings lines are left out.
 */
export const orgPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionBlocks(orgBlocks(decodeText(bytes, options.encoding)), options),
};
