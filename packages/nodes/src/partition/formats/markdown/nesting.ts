/** A container marker at the start of a line: a block quote `>`, a bullet or an ordered-list number. */
const MARKER = /^(?:>[ \t]?|[-+*](?:[ \t]+|$)|\d{1,9}[.)](?:[ \t]+|$))/;
const INDENT = /^[ \t]+/;

/** Columns of leading whitespace (a tab to the next multiple of 4). */
function columns(ws: string): number {
  let n = 0;
  for (const c of ws) n = c === '\t' ? n + 4 - (n % 4) : n + 1;
  return n;
}

/**
 * Caps the container nesting of each line of Markdown at `maxDepth` levels. A line's nesting is
 * counted from its prefix: one level per block-quote or list marker and per two columns of
 * indentation (an over-estimate: list content is indented by its marker's width). Past the limit
 * the rest of the prefix is dropped, so the line's text stays, less deeply nested. marked reads
 * each level's content again at the next, recursively: deep nesting costs depth x size and
 * overflows the call stack near 2,000 levels.
 */
export function capMarkdownNesting(markdown: string, maxDepth: number): { text: string; capped: number } {
  let capped = 0;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let rest = line;
    let depth = 0;
    // The prefix kept, once the line is found past the limit.
    let kept: string | undefined;
    for (;;) {
      const ws = INDENT.exec(rest)?.[0] ?? '';
      const marker = MARKER.exec(rest.slice(ws.length))?.[0];
      const cost = Math.floor(columns(ws) / 2) + (marker ? 1 : 0);
      if (kept === undefined && depth + cost > maxDepth) {
        // Keep what indentation still fits, then the text.
        kept = line.slice(0, line.length - rest.length) + ' '.repeat(Math.min(columns(ws), 2 * (maxDepth - depth)));
      }
      depth += cost;
      rest = rest.slice(ws.length + (marker?.length ?? 0));
      if (!marker) break;
    }
    if (kept !== undefined) {
      capped++;
      lines[i] = `${kept}${kept && !/[ \t]$/.test(kept) ? ' ' : ''}${rest}`;
    }
  }
  return { text: capped > 0 ? lines.join('\n') : markdown, capped };
}
