/** The credentials of one URL found in a text (`https://user:password@host`). */
export interface UrlCredential {
  /** `https:`, lower-cased; `''` for a bare `user:password@host:port`. */
  scheme: string;
  /** As written (percent-encoded or not). */
  user: string;
  /** As written. */
  password: string;
  /** Host and port, lower-cased. */
  host: string;
  /** Where the password starts and ends in the text. */
  start: number;
  end: number;
}

// A scheme, `//`, then the authority: up to a path, a query, a fragment or whitespace. Anything
// else stays in it, quotes included: reading too far can only mask more, never less.
const URL_AUTHORITY = /\b([a-z][a-z0-9+.-]*:)\/\/([^\s/?#]+)/gi;
// A whole value `user:password@host:port`: search clients read a bare host as http.
const BARE_AUTHORITY = /^([^\s/?#@:]+):([^\s/?#]*)@([^\s/?#@]+)$/;

/**
 * Every URL with a password in `text`, at any position: `https://user:password@host:9200/x`, also
 * inside a longer message. The userinfo ends at the last `@` of the authority, as URL parsers read it.
 */
export function urlCredentials(text: string): UrlCredential[] {
  const out: UrlCredential[] = [];
  for (const m of text.matchAll(URL_AUTHORITY)) {
    const authority = m[2]!;
    const at = authority.lastIndexOf('@');
    const colon = authority.slice(0, Math.max(at, 0)).indexOf(':');
    if (at < 0 || colon < 0) continue;
    const start = m.index + m[1]!.length + 2 + colon + 1;
    out.push({
      scheme: m[1]!.toLowerCase(),
      user: authority.slice(0, colon),
      password: authority.slice(colon + 1, at),
      host: authority.slice(at + 1).toLowerCase(),
      start,
      end: start + at - colon - 1,
    });
  }
  return out;
}

/** The credentials of a config value: the URLs in it, or the value itself in the bare form `user:password@host:9200`. */
export function valueCredentials(value: string): UrlCredential[] {
  const bare = BARE_AUTHORITY.exec(value);
  if (!bare) return urlCredentials(value);
  const start = bare[1]!.length + 1;
  return [{ scheme: '', user: bare[1]!, password: bare[2]!, host: bare[3]!.toLowerCase(), start, end: start + bare[2]!.length }];
}

/** `text` with each given password replaced by `mask`. */
function maskAt(text: string, credentials: readonly UrlCredential[], mask: string): string {
  let out = '';
  let from = 0;
  for (const c of credentials) {
    if (c.password === '') continue;
    out += text.slice(from, c.start) + mask;
    from = c.end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `text` with the password of every URL in it replaced by `mask`: `https://user:********@host:9200`. */
export function maskUrlPasswords(text: string, mask: string): string {
  return text.includes('@') ? maskAt(text, urlCredentials(text), mask) : text;
}

/** A config value with its URL passwords masked, the bare form `user:password@host` included. */
export function maskValuePasswords(value: string, mask: string): string {
  return value.includes('@') ? maskAt(value, valueCredentials(value), mask) : value;
}

/**
 * A config value sent back with masked URL passwords, each replaced by the password `stored` holds
 * for the same scheme, user and host; a mask with no such stored credential stays as it is. A
 * password is never carried to another host.
 */
export function restoreValuePasswords(value: string, stored: ReadonlyMap<string, string>, mask: string): string {
  if (!value.includes(mask)) return value;
  let out = '';
  let from = 0;
  for (const c of valueCredentials(value)) {
    const old = c.password === mask ? stored.get(credentialKey(c)) : undefined;
    if (old === undefined) continue;
    out += value.slice(from, c.start) + old;
    from = c.end;
  }
  return from === 0 ? value : out + value.slice(from);
}

/** What identifies a URL's credentials apart from the password: scheme, user and host. */
export function credentialKey(c: Pick<UrlCredential, 'scheme' | 'user' | 'host'>): string {
  return `${c.scheme}//${c.user}@${c.host}`;
}

/** The percent-decoded form of a URL part, or the part itself when it does not decode. */
export function decodeUrlPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
