import Papa from 'papaparse';
import type { Element } from '@quarry/core';
import type { FormatPartitionOptions, FormatPartitioner } from '../types.js';
import { limitError, partitionLimits } from '../limits.js';
import { decodeText } from './shared/decode-text.js';
import { assertLineBytes } from './shared/line-bytes.js';
import { newElement } from './shared/new-element.js';
import { htmlifyMatrix, matrixText } from './shared/table-html.js';

/**
 * Parses delimited text into rows, padded to the widest row. Blank lines are skipped, as pandas
 * `read_csv` does in `unstructured`'s partitioner.
 */
export function parseDelimited(text: string, delimiter: string | undefined): string[][] {
  // Files mixing CRLF and LF would otherwise leave stray line feeds inside the last fields.
  const result = Papa.parse<string[]>(text.replace(/\r\n?/g, '\n'), {
    newline: '\n',
    delimiter: delimiter ?? '',
    // `unstructured` sniffs only comma and semicolon; anything else is a single-column file.
    delimitersToGuess: [',', ';'],
    skipEmptyLines: 'greedy',
  });
  const rows = result.data.filter((r): r is string[] => Array.isArray(r));
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  return rows.map((r) => (r.length < width ? [...r, ...Array<string>(width - r.length).fill('')] : r));
}

function partitionDelimited(bytes: Uint8Array, options: FormatPartitionOptions, delimiter: string | undefined): Element[] {
  assertLineBytes(bytes, options.filename);
  const limits = partitionLimits();
  if (bytes.byteLength > limits.maxCsvBytes) throw limitError('FILE_TOO_LARGE', 'maxCsvBytes', options.filename, bytes.byteLength, limits);
  const rows = parseDelimited(decodeText(bytes, options.encoding), delimiter);
  const text = matrixText(rows);
  if (!text) return [];
  // Like `unstructured`: the whole file is one Table, with no header row (pandas `header=None`).
  return [newElement('Table', text, { text_as_html: htmlifyMatrix(rows) })];
}

/**
 * CSV: the whole file becomes one `Table` element whose text is every non-empty cell joined by
 * spaces and whose `text_as_html` holds the grid. The delimiter is sniffed (comma or semicolon).
 * `text_as_html` is always written: `unstructured` infers table structure for every non-PDF format
 * by default. A file over `QUARRY_MAX_CSV_BYTES`, or with a line over `QUARRY_MAX_LINE_BYTES`, fails
 * with `FILE_TOO_LARGE`.
 */
export const csvPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionDelimited(bytes, options, undefined),
};

/** TSV: as {@link csvPartitioner}, with a tab delimiter. */
export const tsvPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionDelimited(bytes, options, '\t'),
};
