import { credentialKey, decodeUrlPart, maskUrlPasswords, maskValuePasswords, restoreValuePasswords, valueCredentials } from './url-credentials.js';

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
 * depth) replaced by {@link SECRET_MASK}, and the password of every URL in any other string too
 * (`https://user:********@host:9200`, also `user:********@host:9200`). Null and absent values stay
 * as they are, so a caller can still see which secrets are unset.
 */
export function maskSecrets(config: Record<string, unknown>): Record<string, unknown> {
  const mask = (v: unknown): unknown => {
    if (typeof v === 'string') return maskValuePasswords(v, SECRET_MASK);
    if (Array.isArray(v)) return v.map(mask);
    if (!isPlainObject(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isSecretKey(k) && x !== null && x !== undefined ? SECRET_MASK : mask(x)]));
  };
  return mask(config) as Record<string, unknown>;
}

/**
 * The config of an update: where the new config gives {@link SECRET_MASK} for a secret, the stored
 * value is kept, so a client can send back what it read (GET then PUT) without knowing the secret.
 * A masked URL password takes the stored password of the same scheme, user and host, wherever in
 * the config that URL was (a reordered `hosts` list); it is never carried to another host.
 */
export function restoreMaskedSecrets(next: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const storedPasswords = new Map<string, string>();
  forEachString(stored, (v) => {
    for (const c of valueCredentials(v)) if (!storedPasswords.has(credentialKey(c))) storedPasswords.set(credentialKey(c), c.password);
  });
  const merge = (n: unknown, s: unknown): unknown => {
    if (typeof n === 'string') return restoreValuePasswords(n, storedPasswords, SECRET_MASK);
    if (Array.isArray(n)) return n.map((x, i) => merge(x, Array.isArray(s) ? s[i] : undefined));
    if (!isPlainObject(n)) return n;
    const old = isPlainObject(s) ? s : {};
    return Object.fromEntries(Object.entries(n).map(([k, x]) => [k, isSecretKey(k) && x === SECRET_MASK && k in old ? old[k] : merge(x, old[k])]));
  };
  return merge(next, stored) as Record<string, unknown>;
}

/** Calls `fn` with every string of a JSON-like value, at any depth. */
function forEachString(v: unknown, fn: (s: string) => void): void {
  if (typeof v === 'string') fn(v);
  else if (Array.isArray(v)) v.forEach((x) => forEachString(x, fn));
  else if (isPlainObject(v)) Object.values(v).forEach((x) => forEachString(x, fn));
}

/**
 * Every secret string of a config: values under secret keys (at any depth, and strings inside them),
 * and the password of every URL in any string, as written and percent-decoded, with its
 * `user:password` pair (what basic authentication sends in Base64). Strings under 4 characters are
 * left out: scrubbing them would garble messages; URLs still have their passwords masked by shape.
 */
export function collectSecrets(config: Record<string, unknown>): string[] {
  const out = new Set<string>();
  const add = (s: string): void => {
    if (s.length >= 4) out.add(s);
  };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isPlainObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (isSecretKey(k)) forEachString(x, add);
        else walk(x);
      }
    }
  };
  walk(config);
  forEachString(config, (v) => {
    for (const c of valueCredentials(v)) {
      // A mask sent back and kept as it is (no stored password for that host) is no secret.
      if (!c.password || c.password === SECRET_MASK) continue;
      add(c.password);
      add(decodeUrlPart(c.password));
      add(`${decodeUrlPart(c.user)}:${decodeUrlPart(c.password)}`);
    }
  });
  return [...out];
}

/**
 * Replaces every occurrence of the given secrets in `text` by {@link SECRET_MASK}; also their
 * Base64 form, since search-cluster keys travel encoded (`id:key` in Base64). The password of any
 * URL in the text is masked too, known or not.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = maskUrlPasswords(text, SECRET_MASK);
  for (const s of secrets) {
    for (const form of [s, Buffer.from(s, 'utf8').toString('base64')]) if (form && out.includes(form)) out = out.split(form).join(SECRET_MASK);
  }
  return out;
}

/** Deep copy of a JSON-like value with {@link scrubSecrets} applied to every string (so URL passwords are masked even without secrets). */
export function scrubValue<T>(value: T, secrets: readonly string[]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubSecrets(v, secrets);
    if (v instanceof Error) return scrubSecrets(v.message, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
