/**
 * Builds the compact table HTML stored in `metadata.text_as_html`, the same shape
 * `unstructured` writes (`unstructured/common/html_table.py`): no whitespace, no `<thead>`/`<tbody>`,
 * escaped cell text, line feeds as `<br/>`, `<td/>` for an empty cell, and `colspan`/`rowspan`
 * only when greater than 1.
 */

/** One cell that originates a (possibly 1x1) region: its text and spans. */
export interface SpannedCell {
  text: string;
  colspan: number;
  rowspan: number;
}

/** Escapes text as Python's `html.escape` does (quotes included). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#x27;'));
}

/** Collapses every whitespace run to one space and trims. */
export function normalizeSpace(s: string): string {
  return s.split(/\s+/).filter(Boolean).join(' ');
}

function formatTd(text: string, colspan = 1, rowspan = 1): string {
  const body = normalizeSpace(escapeHtml(text).split('\n').join('<br/>'));
  let attrs = '';
  if (colspan > 1) attrs += ` colspan="${colspan}"`;
  if (rowspan > 1) attrs += ` rowspan="${rowspan}"`;
  return body ? `<td${attrs}>${body}</td>` : `<td${attrs}/>`;
}

/**
 * `<table><tr><td>a</td><td/></tr></table>` from rows of cell texts. Rows with no cells are
 * skipped; an empty matrix gives `''`.
 */
export function htmlifyMatrix(matrix: readonly (readonly string[])[]): string {
  if (matrix.length === 0) return '';
  let html = '<table>';
  for (const row of matrix) {
    if (row.length === 0) continue;
    html += '<tr>';
    for (const cell of row) html += formatTd(cell);
    html += '</tr>';
  }
  return `${html}</table>`;
}

/**
 * Like {@link htmlifyMatrix} for cells with spans. A row whose cells are all covered by a rowspan
 * from above is still emitted as `<tr></tr>`, because `rowspan` counts `<tr>` elements.
 */
export function htmlifySpannedMatrix(matrix: readonly (readonly SpannedCell[])[]): string {
  if (matrix.length === 0) return '';
  let html = '<table>';
  for (const row of matrix) {
    html += '<tr>';
    for (const c of row) html += formatTd(c.text, c.colspan, c.rowspan);
    html += '</tr>';
  }
  return `${html}</table>`;
}

/**
 * Collapses a full grid of `[text, mergeKey]` cells (every grid position present, merged regions
 * sharing an equal key) into spanned cells. Only rectangular regions are expected (DOCX, XLSX and
 * PPTX merges are rectangular); positions covered by an earlier cell are omitted.
 */
export function collapseKeyedMatrix(matrix: readonly (readonly (readonly [string, unknown])[])[]): SpannedCell[][] {
  const consumed = matrix.map((row) => row.map(() => false));
  const out: SpannedCell[][] = [];
  for (let r = 0; r < matrix.length; r++) {
    const row = matrix[r]!;
    const spanned: SpannedCell[] = [];
    for (let c = 0; c < row.length; c++) {
      if (consumed[r]![c]) continue;
      consumed[r]![c] = true;
      const [text, key] = row[c]!;
      let colspan = 1;
      while (c + colspan < row.length && row[c + colspan]![1] === key) {
        consumed[r]![c + colspan] = true;
        colspan++;
      }
      let rowspan = 1;
      for (let nr = r + 1; nr < matrix.length; nr++) {
        const next = matrix[nr]!;
        if (c + colspan > next.length) break;
        let same = true;
        for (let i = 0; i < colspan; i++) if (next[c + i]![1] !== key) same = false;
        if (!same) break;
        for (let i = 0; i < colspan; i++) consumed[nr]![c + i] = true;
        rowspan++;
      }
      spanned.push({ text, colspan, rowspan });
    }
    out.push(spanned);
  }
  return out;
}

/** The element text of a table: every non-empty cell text, whitespace-normalized, space-joined. */
export function matrixText(matrix: readonly (readonly string[])[]): string {
  const parts: string[] = [];
  for (const row of matrix)
    for (const cell of row) {
      const t = normalizeSpace(cell);
      if (t) parts.push(t);
    }
  return parts.join(' ');
}
