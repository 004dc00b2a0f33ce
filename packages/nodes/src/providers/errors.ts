import { QuarryError } from '@quarry/core';
import { NODES_ERROR_CODES } from '../errors.js';

/** The error codes the provider layer and the embedder nodes raise: a part of the package's table. */
export const PROVIDER_ERROR_CODES = {
  EMBED_DIMENSIONS_MISMATCH: NODES_ERROR_CODES.EMBED_DIMENSIONS_MISMATCH,
  EMBED_INPUT_TOO_LONG: NODES_ERROR_CODES.EMBED_INPUT_TOO_LONG,
  EMBED_MODEL_UNAVAILABLE: NODES_ERROR_CODES.EMBED_MODEL_UNAVAILABLE,
  PROVIDER_AUTH: NODES_ERROR_CODES.PROVIDER_AUTH,
  PROVIDER_BAD_REQUEST: NODES_ERROR_CODES.PROVIDER_BAD_REQUEST,
  PROVIDER_ERROR: NODES_ERROR_CODES.PROVIDER_ERROR,
  PROVIDER_NOT_CONFIGURED: NODES_ERROR_CODES.PROVIDER_NOT_CONFIGURED,
  PROVIDER_RATE_LIMITED: NODES_ERROR_CODES.PROVIDER_RATE_LIMITED,
  PROVIDER_TIMEOUT: NODES_ERROR_CODES.PROVIDER_TIMEOUT,
  PROVIDER_UNAVAILABLE: NODES_ERROR_CODES.PROVIDER_UNAVAILABLE,
} as const;

/** A code of {@link PROVIDER_ERROR_CODES}. */
export type ProviderErrorCode = keyof typeof PROVIDER_ERROR_CODES;

/** Structured, secret-free facts attached to a provider error. */
export interface ProviderErrorDetails {
  provider?: string;
  model?: string;
  status?: number;
  attempts?: number;
  [key: string]: unknown;
}

/**
 * Creates a {@link QuarryError} with a provider-layer code. The message must already be free of
 * secrets; use {@link redactSecrets} on anything that came from a server.
 */
export function providerError(code: ProviderErrorCode, message: string, details: ProviderErrorDetails = {}, cause?: unknown): QuarryError {
  return new QuarryError(code, message, { details, ...(cause === undefined ? {} : { cause }) });
}

const MASK = '[redacted]';

/**
 * Replaces every occurrence of each secret (and of its longer prefixes and suffixes, which some
 * vendors echo as `sk-abc...wxyz`) in `text`. Secrets shorter than 8 characters are masked only
 * when they appear whole, so that a short test key does not blank every word.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const s of secrets) {
    if (!s) continue;
    out = out.split(s).join(MASK);
    if (s.length >= 16) {
      // Vendors echo part of a wrong key ("sk-proj-abc*****wxyz"); hide any 8+ character slice of it.
      for (let len = Math.min(s.length - 1, 24); len >= 8; len--) {
        for (const part of [s.slice(0, len), s.slice(-len)]) out = out.split(part).join(MASK);
      }
    }
  }
  return out;
}

/**
 * A copy of an SDK error that is safe to attach as `cause`: same name and redacted message, no
 * request, response or headers (which could carry credentials).
 */
export function sanitizedCause(e: unknown, secrets: ReadonlyArray<string | undefined>): Error {
  const name = e instanceof Error ? e.name : 'Error';
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : 'non-error thrown';
  const copy = new Error(redactSecrets(message, secrets));
  copy.name = name;
  return copy;
}
