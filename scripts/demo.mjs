// npm run demo: install, build, run the example local workflow over examples/docs into ./out.
// With `-- --embed-model DIR` (or QUARRY_EMBED_MODEL=DIR) the workflow also chunks by title and
// embeds every chunk with the local ONNX model in DIR (examples/workflows/local-embed.json).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureInstalled, build, run, root } from './lib.mjs';

const flag = process.argv.indexOf('--embed-model');
const model = flag >= 0 ? process.argv[flag + 1] : process.env.QUARRY_EMBED_MODEL;
ensureInstalled();
build();
run(process.execPath, [join(root, 'examples/scripts/make-docs.mjs')]);
let workflow = join(root, 'examples/workflows/local.json');
if (model) {
  const { embedWorkflow } = await import('../examples/embed-workflow.mjs');
  workflow = join(mkdtempSync(join(tmpdir(), 'quarry-demo-')), 'local-embed.json');
  writeFileSync(workflow, JSON.stringify(embedWorkflow(model)));
}
run(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'run', workflow, '--input', join(root, 'examples/docs'), '--output', join(root, 'out')]);
