import { validateWorkflow } from '@quarry/core';
import { defaultEngine } from '../engine.js';
import { readJsonFile } from '../read-json.js';

/** `quarry validate FILE [--json]`: structure and rules of one workflow body. */
export async function validateCommand(file: string, opts: { json?: boolean }): Promise<void> {
  const body = await readJsonFile(file);
  const result = validateWorkflow(body, { mode: 'create', registry: defaultEngine().registry });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ valid: result.valid, problems: result.problems }, null, 2)}\n`);
  } else if (result.valid) {
    process.stdout.write(`${file}: valid\n`);
  } else {
    for (const p of result.problems) process.stdout.write(`${file}: ${p.path || '/'}: ${p.message} [${p.code}]\n`);
    process.stdout.write(`${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}\n`);
  }
  process.exitCode = result.valid ? 0 : 1;
}
