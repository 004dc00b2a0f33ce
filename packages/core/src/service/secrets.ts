/** What a secret config value is replaced with in every response. */
export const SECRET_MASK = '********';

// Any key that names a credential: api keys, passwords, secrets, tokens, auth headers.
const SECRET_KEY = /key|password|secret|token|auth|credential/i;

/** True when a config key holds a secret (`search_api_key`, `password`, `bearer_auth`, ...). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of a connector config with every secret value (a non-null value under a secret key, at any
 * depth) replaced by {@link SECRET_MASK}. Null and absent values stay as they are, so a caller can
 * still see which secrets are unset.
 */
export function maskSecrets(config: Record<string, unknown>): Record<string, unknown> {
  const mask = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(mask);
    if (!isPlainObject(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isSecretKey(k) && x !== null && x !== undefined ? SECRET_MASK : mask(x)]));
  };
  return mask(config) as Record<string, unknown>;
}

/**
 * The config of an update: where the new config gives {@link SECRET_MASK} for a secret, the stored
 * value is kept, so a client can send back what it read (GET then PUT) without knowing the secret.
 */
export function restoreMaskedSecrets(next: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const merge = (n: unknown, s: unknown): unknown => {
    if (Array.isArray(n)) return n.map((x, i) => merge(x, Array.isArray(s) ? s[i] : undefined));
    if (!isPlainObject(n)) return n;
    const old = isPlainObject(s) ? s : {};
    return Object.fromEntries(Object.entries(n).map(([k, x]) => [k, isSecretKey(k) && x === SECRET_MASK && k in old ? old[k] : merge(x, old[k])]));
  };
  return merge(next, stored) as Record<string, unknown>;
}

/** Every secret string of a config (values under secret keys, at any depth, and strings inside them). */
export function collectSecrets(config: Record<string, unknown>): string[] {
  const out = new Set<string>();
  const strings = (v: unknown): void => {
    if (typeof v === 'string' && v.length >= 4) out.add(v);
    else if (Array.isArray(v)) v.forEach(strings);
    else if (isPlainObject(v)) Object.values(v).forEach(strings);
  };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isPlainObject(v)) for (const [k, x] of Object.entries(v)) (isSecretKey(k) ? strings : walk)(x);
  };
  walk(config);
  return [...out];
}

/**
 * Replaces every occurrence of the given secrets in `text` by {@link SECRET_MASK}; also their
 * Base64 form, since search-cluster keys travel encoded (`id:key` in Base64).
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    for (const form of [s, Buffer.from(s, 'utf8').toString('base64')]) if (form && out.includes(form)) out = out.split(form).join(SECRET_MASK);
  }
  return out;
}

/** Deep copy of a JSON-like value with {@link scrubSecrets} applied to every string. */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubSecrets(v, secrets);
    if (v instanceof Error) return scrubSecrets(v.message, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
