import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { maskSecrets, quarryError, stableStringify, type ConnectorSpec } from '@quarry/core';
import { taskKeyOf } from './task-mac.js';
import type { JobSpec } from './task.js';

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

/** A job spec as stored in Redis: its connectors in clear, or sealed with the shared secret. */
export type StoredJobSpec = Omit<JobSpec, 'source' | 'destinations'> & (JobConnectors | { sealed: SealedConnectors });

// scrypt's defaults (N = 2^14, r = 8, p = 1): about 50 ms, once per job on each side.
const KEY_BYTES = 32;

function deriveKey(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(secret, salt, KEY_BYTES, (e, key) => (e ? reject(e) : resolve(key))));
}

// The associated data authenticated with the connectors: the job id, and the other values bound
// to them (canonical JSON), so that none of them can be changed without the seal failing.
function associatedData(jobId: string, bound: object | undefined): Buffer {
  return Buffer.from(bound === undefined ? jobId : `${jobId}\n${stableStringify(bound)}`, 'utf8');
}

/**
 * Encrypts a job's connectors for Redis. The job id, and `bound` when given (the rest of the job
 * spec), are authenticated with them: a sealed record moved to another job, or stored beside
 * other values, does not open.
 */
export async function sealConnectors(connectors: JobConnectors, secret: string, jobId: string, bound?: object): Promise<SealedConnectors> {
  return (await seal(connectors, secret, jobId, bound)).sealed;
}

async function seal(connectors: JobConnectors, secret: string, jobId: string, bound: object | undefined): Promise<{ sealed: SealedConnectors; key: Buffer }> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(secret, salt);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(jobId, bound));
  const data = Buffer.concat([cipher.update(JSON.stringify(connectors), 'utf8'), cipher.final()]);
  const sealed: SealedConnectors = {
    alg: 'aes-256-gcm+scrypt',
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return { sealed, key };
}

/**
 * Decrypts connectors sealed by {@link sealConnectors} under the same job id and `bound` values.
 * Throws `DISTRIBUTED_KEY_REQUIRED` without a secret and `DISTRIBUTED_KEY_MISMATCH` when the
 * secret is not the coordinator's (or the record or a bound value was altered).
 */
export async function openConnectors(sealed: SealedConnectors, secret: string | undefined, jobId: string, bound?: object): Promise<JobConnectors> {
  return (await open(sealed, secret, jobId, bound)).connectors;
}

async function open(
  sealed: SealedConnectors,
  secret: string | undefined,
  jobId: string,
  bound: object | undefined,
): Promise<{ connectors: JobConnectors; key: Buffer }> {
  if (secret === undefined || secret === '') {
    throw quarryError(
      'DISTRIBUTED_KEY_REQUIRED',
      `job "${jobId}" keeps its connectors encrypted; start this worker with the coordinator's secret (${DISTRIBUTED_KEY_ENV})`,
      { details: { job_id: jobId } },
    );
  }
  if (sealed.alg !== 'aes-256-gcm+scrypt') {
    throw quarryError('DISTRIBUTED_JOB_INVALID', `job "${jobId}" seals its connectors with "${String(sealed.alg)}", which this worker does not know`, {
      details: { job_id: jobId },
    });
  }
  try {
    const key = await deriveKey(secret, Buffer.from(sealed.salt, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(associatedData(jobId, bound));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    return { connectors: JSON.parse(text) as JobConnectors, key };
  } catch (e) {
    throw quarryError(
      'DISTRIBUTED_KEY_MISMATCH',
      `cannot open the connectors of job "${jobId}": this worker's secret (${DISTRIBUTED_KEY_ENV}) is not the coordinator's, or the job's record in Redis was altered`,
      { cause: e, details: { job_id: jobId } },
    );
  }
}

/** True when a connector config holds a credential (a value under a key such as `api_key` or `password`, or a password in a URL). */
export function holdsSecrets(connectors: JobConnectors): boolean {
  return [connectors.source, ...connectors.destinations].some(
    (c) => c.config !== undefined && JSON.stringify(maskSecrets(c.config)) !== JSON.stringify(c.config),
  );
}

/** A job spec as kept in Redis, and the key that signs its tasks (see `task-mac.ts`). */
export interface SealedJob {
  stored: StoredJobSpec;
  /** `undefined` without a secret: tasks are then not signed. */
  taskKey: Buffer | undefined;
}

/**
 * A job spec as kept in Redis: its connectors sealed with `secret`, the rest of the spec (workflow
 * version, timeouts) authenticated with them; or all in clear without a secret.
 */
export async function sealJobSpec(spec: JobSpec, secret: string | undefined): Promise<SealedJob> {
  if (!secret) return { stored: spec, taskKey: undefined };
  const { source, destinations, ...rest } = spec;
  const { sealed, key } = await seal({ source, destinations }, secret, spec.job_id, rest);
  return { stored: { ...rest, sealed }, taskKey: taskKeyOf(key) };
}

/**
 * The job spec a worker runs for a task of job `jobId`, from what {@link sealJobSpec} kept (see
 * {@link openConnectors}: sealed connectors open only under the job id and spec they were sealed
 * with, so a workflow version swapped in Redis is refused as `DISTRIBUTED_KEY_MISMATCH`), and the
 * key its tasks must be signed with.
 */
export async function openJobSpec(stored: StoredJobSpec, secret: string | undefined, jobId: string): Promise<{ spec: JobSpec; taskKey: Buffer | undefined }> {
  if (!('sealed' in stored)) return { spec: stored, taskKey: undefined };
  const { sealed, ...rest } = stored;
  const { connectors, key } = await open(sealed, secret, jobId, rest);
  return { spec: { ...rest, ...connectors }, taskKey: taskKeyOf(key) };
}
