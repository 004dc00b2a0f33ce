import iconv from 'iconv-lite';
import { quarryError } from '@quarry/core/errors';
import { partitionLimits } from '../limits.js';
import type { FormatPartitioner } from '../types.js';
import { partitionBlocks, type Block } from './shared/blocks-html.js';

// Destinations whose text is not the document's (fonts, styles' own text, pictures, fields' codes, ...).
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'info',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'fldinst',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'pgdsctbl',
  'mmathPr',
  'bkmkstart',
  'bkmkend',
  'pntext',
  'listtext',
  'pntxtb',
  'pntxta',
  'filetbl',
  'revtbl',
  'pnseclvl',
  'nonshppict',
  'shppict',
  'shpinst',
  'template',
  'xe',
  'tc',
  'atnid',
  'atnauthor',
  'annotation',
]);
const CHARACTERS: Readonly<Record<string, string>> = {
  tab: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201C',
  rdblquote: '\u201D',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  line: '\n',
  ltrmark: '',
  rtlmark: '',
};
const SYMBOLS: Readonly<Record<string, string>> = { '~': '\u00A0', _: '\u2011', '-': '', '\\': '\\', '{': '{', '}': '}' };

interface GroupState {
  skip: boolean;
  /** Characters of `\u` fallback text to drop after each Unicode character. */
  uc: number;
  /** Inside the stylesheet: a style definition is being read. */
  style: boolean;
}

interface Paragraph {
  outline?: number;
  style?: number;
  list: boolean;
  inTable: boolean;
}

/**
 * The blocks of an RTF document: paragraphs (headings from an outline level or a "heading N" /
 * "Title" paragraph style, list items from list numbering), and tables from `\cell`/`\row`.
 */
export function rtfBlocks(document: string, filename: string): Block[] {
  const source = document.trimStart();
  if (!source.startsWith('{\\rtf'))
    throw quarryError('FILE_UNREADABLE', `${filename}: not an RTF document (it does not start with {\\rtf)`, { details: { filename } });
  const maxDepth = partitionLimits().maxNestingDepth;
  const blocks: Block[] = [];
  const styleNames = new Map<number, string>();
  let codepage = 'windows-1252';
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, uc: 1, style: false };
  let para: Paragraph = { list: false, inTable: false };
  let text = '';
  let bytes: number[] = [];
  let styleText = '';
  let styleNumber = 0;
  let pendingSkip = 0;
  let cells: string[] = [];
  let cellText = '';
  let rows: string[][] = [];

  const flushBytes = (): void => {
    if (bytes.length === 0) return;
    const decoded = iconv.encodingExists(codepage) ? iconv.decode(Buffer.from(bytes), codepage) : Buffer.from(bytes).toString('latin1');
    if (state.style) styleText += decoded;
    else text += decoded;
    bytes = [];
  };
  const emit = (s: string): void => {
    flushBytes();
    if (pendingSkip > 0) {
      pendingSkip--;
      return;
    }
    if (state.skip) return;
    if (state.style) styleText += s;
    else text += s;
  };
  const flushTable = (): void => {
    if (rows.length) blocks.push({ kind: 'table', rows, header: false });
    rows = [];
  };
  const endParagraph = (): void => {
    flushBytes();
    const t = text.replace(/[ \t\u00A0]+/gu, ' ').trim();
    text = '';
    if (para.inTable) {
      // A paragraph inside a cell: the cell's text goes on.
      if (t) cellText = cellText ? `${cellText} ${t}` : t;
      return;
    }
    flushTable();
    if (!t) return;
    const name = para.style !== undefined ? (styleNames.get(para.style) ?? '') : '';
    const headingStyle = /^heading\s*(\d)/iu.exec(name);
    const level =
      para.outline !== undefined && para.outline < 9
        ? para.outline + 1
        : headingStyle
          ? Number(headingStyle[1])
          : /^(title|subtitle)$/iu.test(name)
            ? 1
            : undefined;
    const last = blocks[blocks.length - 1];
    if (level !== undefined) blocks.push({ kind: 'heading', level, text: t });
    else if (para.list && last?.kind === 'list') last.items.push(t);
    else if (para.list) blocks.push({ kind: 'list', ordered: false, items: [t] });
    else blocks.push({ kind: 'paragraph', text: t });
  };

  const word = (name: string, param: number | undefined): void => {
    if (state.skip && name !== 'bin') return;
    switch (name) {
      case 'ansicpg':
        if (param !== undefined) codepage = `cp${param}`;
        return;
      case 'uc':
        state.uc = param ?? 1;
        return;
      case 'u':
        if (param !== undefined) emit(String.fromCharCode(param < 0 ? param + 65536 : param));
        pendingSkip = state.uc;
        return;
      case 'par':
      case 'sect':
        endParagraph();
        return;
      case 'pard':
        if (text.trim()) endParagraph();
        para = { list: false, inTable: false };
        return;
      case 'intbl':
        para.inTable = true;
        return;
      case 'cell':
      case 'nestcell': {
        flushBytes();
        cells.push(`${cellText} ${text}`.replace(/\s+/gu, ' ').trim());
        cellText = '';
        text = '';
        return;
      }
      case 'row':
      case 'nestrow':
        if (cells.length) rows.push(cells);
        cells = [];
        return;
      case 'cs':
      case 'ds':
      case 'ts':
        // Character, section and table styles share the numbers of paragraph styles.
        if (state.style) styleNumber = -1;
        return;
      case 's':
        if (state.style) styleNumber = param ?? 0;
        else para.style = param ?? 0;
        return;
      case 'outlinelevel':
        para.outline = param ?? 0;
        return;
      case 'ls':
        // Word and LibreOffice write \ilvl0 (and \ls0 from some writers) on plain paragraphs too.
        if ((param ?? 0) > 0) para.list = true;
        return;
      case 'pnlvlblt':
      case 'pnlvlbody':
        para.list = true;
        return;
      default:
        if (CHARACTERS[name] !== undefined) emit(CHARACTERS[name]);
    }
  };

  let inStylesheet = false;
  let stylesheetDepth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '{') {
      flushBytes();
      if (stack.length >= maxDepth)
        throw quarryError('DOCUMENT_TOO_COMPLEX', `${filename}: RTF groups nest deeper than ${maxDepth} levels (QUARRY_MAX_NESTING_DEPTH raises the limit)`, {
          details: { filename },
        });
      stack.push(state);
      state = { ...state, style: inStylesheet && stack.length === stylesheetDepth + 1 };
      if (state.style) {
        styleText = '';
        styleNumber = 0;
      }
      continue;
    }
    if (c === '}') {
      flushBytes();
      if (state.style) styleNames.set(styleNumber, styleText.replace(/;\s*$/u, '').trim());
      if (inStylesheet && stack.length === stylesheetDepth) inStylesheet = false;
      state = stack.pop() ?? state;
      continue;
    }
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[a-zA-Z]/u.test(next)) {
        const m = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/u.exec(source.slice(i + 1, i + 48))!;
        i += m[0].length;
        const name = m[1]!;
        const param = m[2] !== undefined ? Number(m[2]) : undefined;
        if (name === 'bin') {
          // Binary data: its bytes are no text.
          i += Math.max(param ?? 0, 0);
          continue;
        }
        // The stylesheet is read for its names (`{\s1 ... heading 1;}`), which mark headings.
        if (name === 'stylesheet') {
          inStylesheet = true;
          stylesheetDepth = stack.length;
          state.skip = false;
          continue;
        }
        if (SKIPPED.has(name)) {
          state.skip = true;
          // The number or bullet a list paragraph shows is written before its text.
          if (name === 'listtext' || name === 'pntext') para.list = true;
        } else if (!state.style) word(name, param);
        else if (['s', 'cs', 'ds', 'ts', 'u'].includes(name)) word(name, param);
        continue;
      }
      if (next === "'") {
        const hex = Number.parseInt(source.slice(i + 2, i + 4), 16);
        i += 3;
        if (Number.isNaN(hex) || state.skip) continue;
        if (pendingSkip > 0) {
          pendingSkip--;
          continue;
        }
        bytes.push(hex);
        continue;
      }
      i++;
      if (next === '*') state.skip = true;
      else if (next === '\n' || next === '\r') {
        if (!state.skip && !state.style) endParagraph();
      } else if (SYMBOLS[next] !== undefined) emit(SYMBOLS[next]);
      continue;
    }
    if (c === '\n' || c === '\r') continue;
    if (state.skip) continue;
    if (pendingSkip > 0) {
      pendingSkip--;
      continue;
    }
    const code = c.charCodeAt(0);
    if (code >= 0x80) bytes.push(code);
    else {
      flushBytes();
      if (state.style) styleText += c;
      else text += c;
    }
  }
  endParagraph();
  flushTable();
  return blocks;
}

/**
 * Rich Text Format (`.rtf`), read by a tokenizer here (the JavaScript RTF packages are unkept or
 * need a browser DOM): paragraphs become NarrativeText, those with an outline level or a heading
 * style Titles, numbered or bulleted ones ListItems, `\row` tables Tables with `text_as_html`;
 * fonts, styles, pictures, headers, footers and field codes are left out. Text in any ANSI code
 * page (`\ansicpg`) and `\u` Unicode escapes is decoded.
 */
export const rtfPartitioner: FormatPartitioner = {
  partition: (bytes, options) =>
    partitionBlocks(rtfBlocks(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'), options.filename), options),
};
