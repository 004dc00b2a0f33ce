import { createHmac, timingSafeEqual } from 'node:crypto';
import { stableStringify } from '@quarry/core';
import type { TaskData } from './task.js';

/**
 * Task signatures. With a shared secret, the coordinator signs each task it queues (HMAC-SHA-256
 * over the task's canonical JSON) with a key derived from the job's sealing key, and a worker runs
 * only tasks that carry a valid signature. Anyone who can write to Redis but lacks the secret can
 * then not queue documents of their choosing for a running job (the job's source and destination
 * would read and write them).
 */

/** The key that signs a job's tasks, derived from the key its connectors are sealed with. */
export function taskKeyOf(sealKey: Buffer): Buffer {
  return createHmac('sha256', sealKey).update('quarry distributed task signature v1').digest();
}

// The signed part of a task: everything but the signature.
function signedText(data: TaskData): string {
  const { mac: _mac, ...signed } = data;
  return stableStringify(signed);
}

/** The signature of a task (base64url). */
export function taskMac(key: Buffer, data: TaskData): string {
  return createHmac('sha256', key).update(signedText(data)).digest('base64url');
}

/** True when `data` carries the signature `key` gives it. */
export function hasValidMac(key: Buffer, data: TaskData): boolean {
  if (typeof data.mac !== 'string') return false;
  const given = Buffer.from(data.mac, 'base64url');
  const expected = Buffer.from(taskMac(key, data), 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
