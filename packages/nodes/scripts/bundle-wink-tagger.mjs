// Bundles wink-pos-tagger's code and the packages it requires (wink-helpers, wink-lemmatizer,
// wink-tokenizer, emoji-regex) into packages/nodes/vendor/wink-pos-tagger/tagger.cjs, which
// @quarry/nodes ships: requiring the tagger resolved, read and compiled sixteen CommonJS files
// before the first tag (47 -> 25 ms of CPU as one file, at load 8). wink-lexicon's modules stay
// requires, made through the tagger's own `require` (pos-tag.ts), so the packed dictionaries stand
// in for its data modules as before. Run through scripts/vendor.mjs.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { buildSync } from 'esbuild';

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The package root of a file under node_modules. */
function packageRoot(file) {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  return parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join(sep);
}

export function bundleWinkTagger() {
  const entry = createRequire(join(nodesRoot, 'package.json')).resolve('wink-pos-tagger');
  const { version } = JSON.parse(readFileSync(join(packageRoot(entry), 'package.json'), 'utf8'));
  const target = join(nodesRoot, 'vendor', 'wink-pos-tagger');
  const manifestPath = join(target, 'manifest.json');
  const wanted = { version, file: 'tagger.cjs' };
  if (existsSync(join(target, wanted.file)) && existsSync(manifestPath) && isDeepStrictEqual(JSON.parse(readFileSync(manifestPath, 'utf8')), wanted)) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const result = buildSync({
    entryPoints: [entry],
    outfile: join(target, wanted.file),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['wink-lexicon', 'wink-lexicon/*'],
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
  });
  const roots = [...new Set(Object.keys(result.metafile.inputs).map((i) => packageRoot(join(process.cwd(), i))))].sort();
  const notices = roots.map((root) => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const file = readdirSync(root).find((f) => /^(licen[cs]e|copying)([.-]|$)/i.test(f));
    if (!file) throw new Error(`${pkg.name} has no licence file to ship with the tagger bundle`);
    return `${pkg.name}@${pkg.version} (${pkg.license})\n\n${readFileSync(join(root, file), 'utf8').trim()}\n`;
  });
  writeFileSync(join(target, 'LICENSES.txt'), `Third-party packages in tagger.cjs\n\n${notices.join('\n---\n\n')}`);
  writeFileSync(manifestPath, `${JSON.stringify(wanted)}\n`);
  console.log(`bundled wink-pos-tagger ${version} into ${target}`);
}
