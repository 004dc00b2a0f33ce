/** Flattens one element's JSON into columns: `type`, `element_id`, `text`, then metadata keys joined with `_`. */
function flatten(element: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const put = (key: string, v: unknown): void => {
    if (v === undefined || v === null) return;
    if (typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) put(`${key}_${k}`, x);
      return;
    }
    out.set(key, typeof v === 'string' ? v : JSON.stringify(v));
  };
  for (const k of ['type', 'element_id', 'text']) put(k, element[k]);
  for (const [k, v] of Object.entries((element.metadata as Record<string, unknown> | undefined) ?? {})) put(k, v);
  if (element.embeddings !== undefined) put('embeddings', element.embeddings);
  return out;
}

function cell(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * Elements as CSV (`output_format=text/csv`): one row per element, one column per field seen
 * (metadata flattened with `_`, lists as JSON), columns no element fills left out, RFC 4180 quoting.
 */
export function elementsToCsv(elements: ReadonlyArray<Record<string, unknown>>): string {
  const rows = elements.map(flatten);
  const columns: string[] = [];
  for (const r of rows) for (const k of r.keys()) if (!columns.includes(k)) columns.push(k);
  return `${[columns.map(cell).join(','), ...rows.map((r) => columns.map((c) => cell(r.get(c) ?? '')).join(','))].join('\r\n')}\r\n`;
}
