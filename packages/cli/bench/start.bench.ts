// Start-up: whole-process wall time of fresh processes, JSON lines, with `node -e 1` as the peer
// measured in the same rounds (each round runs every command once, so a busy moment of the
// machine falls on all of them alike). Goals: `quarry --help` at most 3x `node -e 1`; `quarry
// partition note.txt` (one line of text, partitioned in a child process) at most 0.3 s; a process
// that imports `@quarry/core` or `@quarry/nodes` (the built packages) at most 2x `node -e 1`; one
// whose first `partition()` with default options reads a 2-page text PDF at most 0.3 s. A line
// whose words send the tagger to its WordNet dictionaries (a plural, a past tense) is timed too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 7;
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
// The CLI package depends on core and nodes, so their names resolve from its folder (built dist).
const cliDir = fileURLToPath(new URL('..', import.meta.url));
const pdf = fileURLToPath(new URL('../../../../shared/corpus/docs/multi-column-2p.pdf', import.meta.url));

/** Median wall time in seconds of each `node args...`, over RUNS interleaved rounds after one unmeasured round. */
function medianSeconds(commands: Record<string, string[]>): Record<string, number> {
  const times = new Map<string, number[]>(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i <= RUNS; i++) {
    for (const [name, args] of Object.entries(commands)) {
      const start = process.hrtime.bigint();
      const r = spawnSync(process.execPath, args, { cwd: cliDir, stdio: ['ignore', 'ignore', 'pipe'] });
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr.toString()}`);
      if (i > 0) times.get(name)!.push(seconds);
    }
  }
  const out: Record<string, number> = {};
  for (const [name, list] of times) {
    list.sort((a, b) => a - b);
    out[name] = Number(list[Math.floor(list.length / 2)]!.toFixed(3));
  }
  return out;
}

const esm = (code: string): string[] => ['--input-type=module', '-e', code];

const dir = await mkdtemp(join(tmpdir(), 'quarry-start-'));
try {
  const note = join(dir, 'note.txt');
  await writeFile(note, 'hello\n');
  const sentence = join(dir, 'sentence.txt');
  await writeFile(sentence, 'The reviewers approved the changes on Friday.\n');
  // Before the runs: the load of whatever else the machine is doing.
  const load = loadavg()[0]!.toFixed(2);
  const library: Record<string, string[]> = {
    "import('@quarry/core')": esm("await import('@quarry/core')"),
    "import('@quarry/nodes')": esm("await import('@quarry/nodes')"),
  };
  if (existsSync(pdf))
    library['first partition() of a 2-page PDF'] = esm(`const { partition } = await import('@quarry/nodes'); await partition(${JSON.stringify(pdf)});`);
  else console.error(`bench start: ${pdf} not found, the first partition() is not timed`);
  const t = medianSeconds({
    'node -e 1': ['-e', '1'],
    'quarry --help': [bin, '--help'],
    'quarry partition note.txt': [bin, 'partition', note],
    'quarry partition sentence.txt': [bin, 'partition', sentence],
    ...library,
  });
  const node = t['node -e 1']!;
  const goals: Record<string, { goal_ratio?: number; goal_s?: number }> = {
    'quarry --help': { goal_ratio: 3 },
    'quarry partition note.txt': { goal_s: 0.3 },
    "import('@quarry/core')": { goal_ratio: 2 },
    "import('@quarry/nodes')": { goal_ratio: 2 },
    'first partition() of a 2-page PDF': { goal_s: 0.3 },
  };
  console.log(
    JSON.stringify({
      bench: 'cli_start',
      command: 'node -e 1',
      median_s: node,
      runs: RUNS,
      load_average_1m: Number(load),
      load_average_after_1m: Number(loadavg()[0]!.toFixed(2)),
    }),
  );
  for (const [command, seconds] of Object.entries(t)) {
    if (command === 'node -e 1') continue;
    console.log(
      JSON.stringify({ bench: 'cli_start', command, median_s: seconds, runs: RUNS, ratio_to_node: Number((seconds / node).toFixed(2)), ...goals[command] }),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
