/**
 * Partitions mutants (`mutants.ts`) through a `PartitionPool` and sorts what happened: elements,
 * a coded error a user can read, or a finding (a crash, a hang, memory exhaustion, an error with
 * no known code, or a message that shows the engine's internals instead of saying what is wrong
 * with the file). Shared by the CI fuzz test and the fuzz bench.
 */
import { createEngine, errorMessage, isQuarryError } from '@quarry/core';
import { nodesPlugin } from '../../src/plugin.js';
import type { PartitionPool } from '../../src/pool/partition-pool.js';
import type { PartitionStrategy } from '../../src/partition/types.js';
import type { Mutant } from './mutants.js';

/** Pool codes: the process partitioning the mutant crashed, hung or ran out of memory. */
export const POOL_FAILURE_CODES: ReadonlySet<string> = new Set(['DOCUMENT_CRASHED', 'NODE_TIMEOUT', 'DOCUMENT_TOO_LARGE']);

/**
 * Phrases that give away a JavaScript or library internal rather than a sentence about the file:
 * seen in real runs (jszip's "Expected Central-File-Header signature", exceljs's "Cannot set
 * properties of undefined (setting 'sheetNo')") or the usual shapes of a TypeError/RangeError.
 */
export const INTERNAL_MESSAGE_PATTERNS: readonly RegExp[] = [
  /Cannot read propert(y|ies) of/i,
  /Cannot set propert(y|ies) of/i,
  /is not a function/,
  /is not iterable/,
  /is not a constructor/,
  /\bundefined\b/,
  /\bnull\b/,
  /\bNaN\b/,
  /\[object \w+\]/,
  /Invalid string length/,
  /Invalid array length/,
  /Invalid typed array length/,
  /Maximum call stack/,
  /out of memory/i,
  /Expected Central-File-Header/,
  /End of data reached/,
  /Corrupted zip/i,
  /invalid (stored )?block/i,
  /invalid distance/i,
  /incorrect header check/i,
  /unexpected end of file/i,
  /Unexpected token/,
  /Unexpected end of/,
  /\bat position \d+/,
  /(Type|Range|Reference|Syntax)Error/,
  /Offset is outside the bounds/,
  /out of range/i,
];

/** What partitioning one mutant came to. */
export type FuzzOutcome =
  | { kind: 'ok'; elements: number }
  | { kind: 'error'; code: string; message: string }
  /** A crash, hang or memory exhaustion, an uncoded error, or a message showing internals. */
  | { kind: 'finding'; code: string; message: string; why: string };

/** One mutant's outcome with its time. */
export interface FuzzResult {
  mutant: Mutant;
  outcome: FuzzOutcome;
  ms: number;
}

// Every code a partition may end with: core's and those the nodes plugin declares at registration.
const KNOWN_CODES: ReadonlyMap<string, unknown> = createEngine().use(nodesPlugin).registry.errorCodes();

/** Sorts a thrown value into an outcome. */
export function classifyError(e: unknown): FuzzOutcome {
  const message = errorMessage(e);
  if (!isQuarryError(e)) return { kind: 'finding', code: '(none)', message, why: 'not a QuarryError' };
  if (POOL_FAILURE_CODES.has(e.code)) return { kind: 'finding', code: e.code, message, why: 'crash, hang or memory exhaustion' };
  if (!KNOWN_CODES.has(e.code)) return { kind: 'finding', code: e.code, message, why: 'code declared by neither core nor the nodes plugin' };
  const internal = INTERNAL_MESSAGE_PATTERNS.find((p) => p.test(message));
  if (internal) return { kind: 'finding', code: e.code, message, why: `message shows internals (${internal.source})` };
  return { kind: 'error', code: e.code, message };
}

/** Options of {@link partitionMutants}. */
export interface FuzzRunOptions {
  strategy: PartitionStrategy;
  /** Called as each mutant settles (progress, streaming output). */
  onResult?: (result: FuzzResult) => void;
}

/**
 * Partitions every mutant through `pool`, one per process at a time (so each time is the mutant's
 * own, not its wait in the queue), and returns the results in mutant order.
 */
export async function partitionMutants(pool: PartitionPool, mutants: readonly Mutant[], processes: number, options: FuzzRunOptions): Promise<FuzzResult[]> {
  const results: FuzzResult[] = new Array(mutants.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < mutants.length; i = next++) {
      const mutant = mutants[i]!;
      const t0 = performance.now();
      let outcome: FuzzOutcome;
      try {
        const elements = await pool.partition(mutant.bytes, { filename: mutant.filename, strategy: options.strategy });
        outcome = { kind: 'ok', elements: elements.length };
      } catch (e) {
        outcome = classifyError(e);
      }
      results[i] = { mutant, outcome, ms: performance.now() - t0 };
      options.onResult?.(results[i]!);
    }
  };
  await Promise.all(Array.from({ length: processes }, lane));
  return results;
}

/** Outcome counts: `ok`, each error code, and findings by code. */
export interface FuzzCounts {
  mutants: number;
  outputs: number;
  errors: Record<string, number>;
  findings: Record<string, number>;
}

/** Counts outcomes by kind and code. */
export function countOutcomes(results: readonly FuzzResult[]): FuzzCounts {
  const counts: FuzzCounts = { mutants: results.length, outputs: 0, errors: {}, findings: {} };
  for (const { outcome } of results) {
    if (outcome.kind === 'ok') counts.outputs++;
    else {
      const bucket = outcome.kind === 'error' ? counts.errors : counts.findings;
      bucket[outcome.code] = (bucket[outcome.code] ?? 0) + 1;
    }
  }
  return counts;
}

/** One line per finding: the mutant's name, the code, why it is a finding, and the message. */
export function describeFindings(results: readonly FuzzResult[]): string[] {
  return results.flatMap(({ mutant, outcome, ms }) =>
    outcome.kind === 'finding' ? [`${mutant.name}: ${outcome.code} (${outcome.why}, ${Math.round(ms)} ms): ${outcome.message.slice(0, 300)}`] : [],
  );
}
