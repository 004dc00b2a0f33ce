/**
 * Parses an HTTP `Retry-After` value (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Also
 * understands the `retry-after-ms` header some vendors send. Returns milliseconds to wait (never
 * negative), or undefined when the value is absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter('2') // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:58 GMT')) // 2000
 * ```
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // Only the formats RFC 9110 allows (IMF-fixdate, RFC 850, asctime) contain a letter and a colon.
  if (!/[A-Za-z]/.test(v) || !v.includes(':')) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Reads a header from the shapes SDK errors carry: a fetch `Headers`, or a plain record. */
export function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const h = headers as { get?: (n: string) => string | null };
  if (typeof h.get === 'function') return h.get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers as Record<string, unknown>)) {
    if (k.toLowerCase() === lower) return Array.isArray(v) ? String(v[0]) : v === undefined || v === null ? undefined : String(v);
  }
  return undefined;
}

/** The wait a response asks for: `retry-after-ms` first (more precise), then `retry-after`. */
export function retryAfterFromHeaders(headers: unknown, now: number = Date.now()): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms.trim()));
  return parseRetryAfter(headerValue(headers, 'retry-after'), now);
}
