import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FileStateStore, consoleLogger, type JobSummary } from '@quarry/core';
import { defaultEngine } from '../engine.js';
import { attachProgress } from '../progress.js';
import { readJsonFile } from '../read-json.js';
import { UserError } from '../user-error.js';

/** Options of `quarry run`. */
export interface RunCommandOptions {
  input: string;
  output: string;
  concurrency: number;
  reprocessAll?: boolean;
  progress: boolean;
  json?: boolean;
}

/** `quarry run WORKFLOW.json --input DIR --output DIR`: runs a workflow over local files. */
export async function runCommand(workflowPath: string, opts: RunCommandOptions): Promise<void> {
  const body = await readJsonFile(workflowPath);
  const input = resolve(opts.input);
  const output = resolve(opts.output);
  try {
    await stat(input);
  } catch {
    throw new UserError(`input not found: ${opts.input}`);
  }
  const engine = defaultEngine();
  const plan = engine.build(body);
  // One state file per workflow name and input, beside the outputs it describes.
  const key = createHash('sha256').update(`${plan.name}\0${input}`).digest('hex').slice(0, 16);
  const state = await FileStateStore.open(join(output, '.quarry', `state-${key}.jsonl`));
  const ac = new AbortController();
  const onSigint = (): void => ac.abort();
  process.once('SIGINT', onSigint);
  const job = engine.run(plan, {
    source: { type: 'local', config: { path: input } },
    destination: { type: 'local', config: { path: output } },
    concurrency: opts.concurrency,
    ...(opts.reprocessAll ? { reprocessAll: true } : {}),
    state,
    signal: ac.signal,
    logger: consoleLogger(),
  });
  if (opts.progress) attachProgress(job);
  const summary = await job.done;
  process.off('SIGINT', onSigint);
  process.stdout.write(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, output));
  process.exitCode = summary.status === 'COMPLETED' && summary.counts.failed === 0 ? 0 : 1;
}

/** The human-readable end-of-run summary. */
export function formatSummary(s: JobSummary, output: string): string {
  const c = s.counts;
  const lines = [
    `${s.status}: ${c.written} written, ${c.failed} failed, ${c.skipped} unchanged, ${c.stopped} stopped of ${c.total} documents; ${c.elements} elements in ${(s.duration_ms / 1000).toFixed(1)} s -> ${output}`,
  ];
  for (const n of s.nodes) lines.push(`  ${n.node} (${n.type}/${n.subtype}): ${n.success} ok, ${n.failure} failed, ${(n.ms / 1000).toFixed(2)} s`);
  for (const f of s.failures) lines.push(`  FAILED ${f.record_id} at ${f.node}: ${f.code}: ${f.message}`);
  if (s.error) lines.push(`  job error: ${s.error.code}: ${s.error.message}`);
  return `${lines.join('\n')}\n`;
}
