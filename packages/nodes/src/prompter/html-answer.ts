import { QuarryError } from '@quarry/core';
import { ENRICHMENT_RESPONSE_INVALID } from './parse-json.js';

/**
 * The `<table>…</table>` of a model's answer, with whitespace between tags removed (the compact
 * form partitioners write to `text_as_html`). Prose and code fences around it are dropped.
 *
 * @throws QuarryError `ENRICHMENT_RESPONSE_INVALID` when the answer holds no complete table.
 */
export function tableHtmlOf(answer: string, what: string): string {
  const start = answer.search(/<table[\s>]/i);
  const end = answer.toLowerCase().lastIndexOf('</table>');
  if (start < 0 || end < start) {
    throw new QuarryError(ENRICHMENT_RESPONSE_INVALID, `${what}: the model's answer holds no <table>…</table>: ${JSON.stringify(answer.trim().slice(0, 200))}`);
  }
  return answer
    .slice(start, end + '</table>'.length)
    .replace(/>\s+</g, '><')
    .trim();
}
