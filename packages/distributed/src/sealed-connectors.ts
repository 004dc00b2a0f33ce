import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { maskSecrets, quarryError, type ConnectorSpec } from '@quarry/core';
import type { JobSpec, StoredJobSpec } from './task.js';

/** The environment variable the CLI reads the shared secret of coordinators and workers from. */
export const DISTRIBUTED_KEY_ENV = 'QUARRY_DISTRIBUTED_KEY';

/** A job's connectors, which workers need and which may hold credentials. */
export interface JobConnectors {
  source: ConnectorSpec;
  destinations: ConnectorSpec[];
}

/** Connectors encrypted with AES-256-GCM under a key derived (scrypt) from the shared secret. */
export interface SealedConnectors {
  alg: 'aes-256-gcm+scrypt';
  /** Base64 of the scrypt salt, the GCM nonce, the tag and the ciphertext. */
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

// scrypt's defaults (N = 2^14, r = 8, p = 1): about 50 ms, once per job on each side.
const KEY_BYTES = 32;

function deriveKey(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_BYTES, (e, key) => (e ? reject(e) : resolve(key))));
}

/**
 * Encrypts a job's connectors for Redis. The job id is authenticated with them, so a sealed record
 * moved to another job does not open.
 */
export async function sealConnectors(connectors: JobConnectors, secret: string, jobId: string): Promise<SealedConnectors> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await deriveKey(secret, salt), iv);
  cipher.setAAD(Buffer.from(jobId, 'utf8'));
  const data = Buffer.concat([cipher.update(JSON.stringify(connectors), 'utf8'), cipher.final()]);
  return { alg: 'aes-256-gcm+scrypt', salt: salt.toString('base64'), iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/**
 * Decrypts connectors sealed by {@link sealConnectors}. Throws `DISTRIBUTED_KEY_REQUIRED` without a
 * secret and `DISTRIBUTED_KEY_MISMATCH` when the secret is not the coordinator's (or the record was
 * altered).
 */
export async function openConnectors(sealed: SealedConnectors, secret: string | undefined, jobId: string): Promise<JobConnectors> {
  if (secret === undefined || secret === '') {
    throw quarryError('DISTRIBUTED_KEY_REQUIRED', `job "${jobId}" keeps its connectors encrypted; start this worker with the coordinator's secret (${DISTRIBUTED_KEY_ENV})`, { details: { job_id: jobId } });
  }
  if (sealed.alg !== 'aes-256-gcm+scrypt') {
    throw quarryError('DISTRIBUTED_JOB_INVALID', `job "${jobId}" seals its connectors with "${String(sealed.alg)}", which this worker does not know`, { details: { job_id: jobId } });
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', await deriveKey(secret, Buffer.from(sealed.salt, 'base64')), Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(Buffer.from(jobId, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as JobConnectors;
  } catch (e) {
    throw quarryError('DISTRIBUTED_KEY_MISMATCH', `cannot open the connectors of job "${jobId}": this worker's secret (${DISTRIBUTED_KEY_ENV}) is not the coordinator's`, { cause: e, details: { job_id: jobId } });
  }
}

/** True when a connector config holds a credential (a value under a key such as `api_key` or `password`). */
export function holdsSecrets(connectors: JobConnectors): boolean {
  return [connectors.source, ...connectors.destinations].some((c) => c.config !== undefined && JSON.stringify(maskSecrets(c.config)) !== JSON.stringify(c.config));
}

/** A job spec as kept in Redis: its connectors sealed with `secret`, or in clear without one. */
export async function storedJobSpec(spec: JobSpec, secret: string | undefined): Promise<StoredJobSpec> {
  if (!secret) return spec;
  const { source, destinations, ...rest } = spec;
  return { ...rest, sealed: await sealConnectors({ source, destinations }, secret, spec.job_id) };
}

/**
 * The job spec a worker runs for a task of job `jobId`, from what {@link storedJobSpec} kept (see
 * {@link openConnectors}: sealed connectors open only under the job id they were sealed for).
 */
export async function jobSpecOf(stored: StoredJobSpec, secret: string | undefined, jobId: string): Promise<JobSpec> {
  if (!('sealed' in stored)) return stored;
  const { sealed, ...rest } = stored;
  return { ...rest, ...(await openConnectors(sealed, secret, jobId)) };
}
