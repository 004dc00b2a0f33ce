// pnpm bench: build, then run every packages/*/bench/*.bench.ts; each prints JSON lines of figures.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureInstalled, build, run, root } from './lib.mjs';

ensureInstalled();
build();
const only = process.argv[2];
let status = 0;
for (const pkg of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', pkg, 'bench');
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.bench.ts'))
    .sort()) {
    if (only && !f.includes(only)) continue;
    status ||= run(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, f), ...process.argv.slice(3)], { allowFail: true });
  }
}
process.exit(status);
