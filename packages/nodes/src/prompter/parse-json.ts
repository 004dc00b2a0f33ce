import { QuarryError } from '@quarry/core';

/** Error code of an LLM answer that cannot be used (no JSON object, no HTML table). */
export const ENRICHMENT_RESPONSE_INVALID = 'ENRICHMENT_RESPONSE_INVALID';

function tryParse(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the JSON object of a model's answer. Models wrap JSON in prose or markdown fences despite
 * being told not to, so this tries, in order: the whole text, the inside of the first code fence,
 * and the span from the first `{` to the last `}`.
 *
 * @throws QuarryError `ENRICHMENT_RESPONSE_INVALID` when none of them is a JSON object.
 */
export function parseJsonObject(text: string, what: string): Record<string, unknown> {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(trimmed)?.[1];
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  const candidates = [trimmed, fenced?.trim(), start >= 0 && end > start ? trimmed.slice(start, end + 1) : undefined];
  for (const c of candidates) {
    if (!c) continue;
    const v = tryParse(c);
    if (v) return v;
  }
  throw new QuarryError(ENRICHMENT_RESPONSE_INVALID, `${what}: the model's answer is not a JSON object: ${JSON.stringify(trimmed.slice(0, 200))}`);
}
