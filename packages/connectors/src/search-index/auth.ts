import { decodeUrlPart, valueCredentials } from '@quarry/core';
import type { SearchIndexConfig } from './config.js';

/** The authentication form a config selects; named in errors (never with the secret). */
export type AuthForm = 'api_key' | 'api_key_id' | 'basic' | 'bearer' | 'none';

/** What the client receives for one {@link AuthForm}. */
export type ClientAuth = { apiKey: string } | { username: string; password: string } | { bearer: string } | undefined;

/** The selected authentication: the form, and the client's `auth` option. */
export interface ResolvedAuth {
  form: AuthForm;
  auth: ClientAuth;
  /** A description safe to print: the form and the non-secret part (`api key id "abc"`, `user "elastic"`). */
  description: string;
}

/**
 * The Encoded form of an API key: Base64 of the UTF-8 text `<id>:<key>` (what the cluster's
 * `POST /_security/api_key` returns as `encoded`, and what `Authorization: ApiKey` carries).
 */
export function encodeApiKey(id: string, key: string): string {
  return Buffer.from(`${id}:${key}`, 'utf8').toString('base64');
}

/**
 * Picks the authentication form of a config. The schema allows one form at most, so there is no
 * precedence to learn: an API key (encoded for the user when `api_key_id` is given), basic
 * authentication (user `elastic` when only a password is given, as cloud deployments expect),
 * a bearer token, or none; with none, a user and password written in a host URL are basic
 * authentication too (the client reads them from the URL).
 */
export function resolveAuth(
  config: Pick<SearchIndexConfig, 'search_api_key' | 'es_api_key' | 'api_key_id' | 'username' | 'password' | 'bearer_auth'> & {
    hosts?: readonly string[] | undefined;
  },
): ResolvedAuth {
  const key = config.search_api_key ?? config.es_api_key;
  if (key && config.api_key_id) {
    return { form: 'api_key_id', auth: { apiKey: encodeApiKey(config.api_key_id, key) }, description: `API key id "${config.api_key_id}"` };
  }
  if (key) return { form: 'api_key', auth: { apiKey: key }, description: 'an encoded API key' };
  if (config.password) {
    const username = config.username ?? 'elastic';
    return { form: 'basic', auth: { username, password: config.password }, description: `user "${username}" and password` };
  }
  if (config.bearer_auth) return { form: 'bearer', auth: { bearer: config.bearer_auth }, description: 'a bearer token' };
  const inUrl = (config.hosts ?? []).flatMap(valueCredentials)[0];
  if (inUrl) return { form: 'basic', auth: undefined, description: `user "${decodeUrlPart(inUrl.user)}" and password in the host URL` };
  return { form: 'none', auth: undefined, description: 'no credentials' };
}

/** Every secret of a config, to scrub from messages that quote a server or library error. */
export function secretsOf(config: Pick<SearchIndexConfig, 'search_api_key' | 'es_api_key' | 'password' | 'bearer_auth' | 'api_key_id'>): string[] {
  const out = [config.search_api_key, config.es_api_key, config.password, config.bearer_auth].filter((s): s is string => !!s);
  const key = config.search_api_key ?? config.es_api_key;
  if (key && config.api_key_id) out.push(encodeApiKey(config.api_key_id, key));
  return out;
}

/** Replaces every occurrence of a secret in `text` with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}
