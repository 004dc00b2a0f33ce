// npm run demo: install, build, run the example local workflow over examples/docs into ./out.
import { join } from 'node:path';
import { ensureInstalled, build, run, root } from './lib.mjs';

ensureInstalled();
build();
run(process.execPath, [join(root, 'examples/scripts/make-docs.mjs')]);
run(process.execPath, [
  join(root, 'packages/cli/dist/bin.js'), 'run', join(root, 'examples/workflows/local.json'),
  '--input', join(root, 'examples/docs'), '--output', join(root, 'out'),
]);
