import { readFile } from 'node:fs/promises';
import { collectSecrets, errorMessage, maskUrlPasswords, QuarryError, SECRET_MASK } from '@quarry/core';
import type { Client, ClientOptions } from '@elastic/elasticsearch';
import { resolveAuth, secretsOf, type ResolvedAuth } from './auth.js';
import type { SearchIndexConfig } from './config.js';
import { searchIndexError, type ConnectionFacts } from './errors.js';

/** A connected client with what error messages may say about it. */
export interface SearchClient {
  client: Client;
  facts: ConnectionFacts;
  /** Cluster URLs as configured, a password in one masked (for `record_locator.hosts`), or the URL a cloud id stands for. */
  hosts: string[];
}

/** A bare `host:port` (the ingestion client's form) is an http URL; URLs are kept. */
export function normalizeHost(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
}

/** The cluster URL a cloud id stands for (`name:base64(domain$es_id$kibana_id)`), or undefined. */
export function cloudIdUrl(cloudId: string): string | undefined {
  const encoded = cloudId.split(':').slice(1).join(':') || cloudId;
  const parts = Buffer.from(encoded, 'base64').toString('utf8').split('$');
  if (parts.length < 2 || !parts[0] || !parts[1]) return undefined;
  return `https://${parts[1]}.${parts[0]}`;
}

function tlsDescription(config: SearchIndexConfig): string {
  const parts = [config.ca_certs ? `CA file ${config.ca_certs}` : '', config.ssl_assert_fingerprint ? 'certificate fingerprint' : ''].filter(Boolean);
  return parts.length ? parts.join(' + ') : 'system CAs';
}

/** A cluster URL as messages and records may show it: `https://user:********@host:9200`. */
export function displayHost(host: string): string {
  return maskUrlPasswords(normalizeHost(host), SECRET_MASK);
}

/** What error messages may say about a config's connection (no secrets, a password in a host URL included). */
export function connectionFacts(config: SearchIndexConfig, auth: ResolvedAuth = resolveAuth(config)): ConnectionFacts {
  const target = config.cloud_id ? `cloud id "${config.cloud_id.split(':')[0]}"` : (config.hosts ?? []).map(displayHost).join(', ');
  return { target, auth, tls: tlsDescription(config), secrets: [...secretsOf(config), ...collectSecrets({ hosts: config.hosts ?? [] })] };
}

/**
 * The `@elastic/elasticsearch` client options for a config: nodes or cloud id, the one
 * authentication form, the CA file's PEM as `tls.ca`, and the fingerprint as `caFingerprint`. A
 * pinned fingerprint replaces chain verification (as `ssl_assert_fingerprint` does in the Python
 * client), so a self-signed certificate is accepted when, and only when, its fingerprint matches.
 */
export async function clientOptions(config: SearchIndexConfig, auth: ResolvedAuth = resolveAuth(config)): Promise<ClientOptions> {
  const options: ClientOptions = {
    requestTimeout: config.request_timeout_ms,
    // Retries of bulk writes are the destination's own (429 included); other calls keep a few.
    maxRetries: 3,
  };
  if (config.cloud_id) options.cloud = { id: config.cloud_id };
  else options.nodes = (config.hosts ?? []).map(normalizeHost);
  if (auth.auth) options.auth = auth.auth;
  const tls: NonNullable<ClientOptions['tls']> = {};
  if (config.ca_certs) {
    try {
      tls.ca = await readFile(config.ca_certs, 'utf8');
    } catch (e) {
      throw new QuarryError('SEARCH_INDEX_UNREACHABLE', `cannot read the CA file ca_certs "${config.ca_certs}": ${errorMessage(e)}`, {
        cause: e,
        details: { ca_certs: config.ca_certs },
      });
    }
  }
  if (config.ssl_assert_fingerprint) {
    options.caFingerprint = config.ssl_assert_fingerprint
      .replace(/:/g, '')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1:');
    if (!config.ca_certs) tls.rejectUnauthorized = false;
  }
  if (Object.keys(tls).length) options.tls = tls;
  return options;
}

/**
 * Creates a client for a config. `@elastic/elasticsearch` is imported here, lazily, so that importing
 * the connectors costs nothing until a search index is used. A config the client refuses (a
 * malformed cloud id, a fingerprint on an http URL) is `SEARCH_INDEX_UNREACHABLE`, naming the
 * authentication form but never the secret.
 */
export async function createSearchClient(config: SearchIndexConfig): Promise<SearchClient> {
  const auth = resolveAuth(config);
  const facts = connectionFacts(config, auth);
  const options = await clientOptions(config, auth);
  const { Client } = await import('@elastic/elasticsearch');
  let client: Client;
  try {
    client = new Client(options);
  } catch (e) {
    throw searchIndexError(e, 'configuring the client', facts);
  }
  const hosts = config.hosts?.map(displayHost) ?? [cloudIdUrl(config.cloud_id ?? '') ?? ''];
  return { client, facts, hosts };
}

/** Checks that the cluster answers and accepts the credentials (`GET /`). */
export async function checkConnection(sc: SearchClient, signal?: AbortSignal): Promise<void> {
  try {
    await sc.client.info(undefined, signal ? { signal } : {});
  } catch (e) {
    throw searchIndexError(e, 'connecting', sc.facts);
  }
}
