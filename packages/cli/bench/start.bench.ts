// CLI start: whole-process wall time of the built CLI, JSON lines, with `node -e 1` as the peer
// measured in the same run. Goals: `quarry --help` at most 3x `node -e 1`; `quarry partition
// note.txt` (one line of text, partitioned in a child process) at most 0.3 s. A line whose words
// send the tagger to its WordNet dictionaries (a plural, a past tense) is timed beside it.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 7;
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Median wall time in seconds of `node args...` over RUNS runs (after one unmeasured run). */
function medianSeconds(args: string[]): number {
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr.toString()}`);
    if (i > 0) times.push(seconds);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(times.length / 2)]!.toFixed(3));
}

const dir = await mkdtemp(join(tmpdir(), 'quarry-start-'));
try {
  const note = join(dir, 'note.txt');
  await writeFile(note, 'hello\n');
  const sentence = join(dir, 'sentence.txt');
  await writeFile(sentence, 'The reviewers approved the changes on Friday.\n');
  // Before the runs: the load of whatever else the machine is doing.
  const load = loadavg()[0]!.toFixed(2);
  const node = medianSeconds(['-e', '1']);
  const help = medianSeconds([bin, '--help']);
  const partition = medianSeconds([bin, 'partition', note]);
  const partitionSentence = medianSeconds([bin, 'partition', sentence]);
  console.log(JSON.stringify({ bench: 'cli_start', command: 'node -e 1', median_s: node, runs: RUNS, load_average_1m: Number(load) }));
  console.log(JSON.stringify({ bench: 'cli_start', command: 'quarry --help', median_s: help, runs: RUNS, ratio_to_node: Number((help / node).toFixed(2)), goal_ratio: 3 }));
  console.log(JSON.stringify({ bench: 'cli_start', command: 'quarry partition note.txt', median_s: partition, runs: RUNS, ratio_to_node: Number((partition / node).toFixed(2)), goal_s: 0.3 }));
  console.log(JSON.stringify({ bench: 'cli_start', command: 'quarry partition sentence.txt', median_s: partitionSentence, runs: RUNS, ratio_to_node: Number((partitionSentence / node).toFixed(2)) }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
