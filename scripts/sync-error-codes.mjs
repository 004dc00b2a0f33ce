// Dev tool: sorts each package's error-code table (`export const <PKG>_ERROR_CODES = {...}` in
// packages/<pkg>/src/errors.ts) and rewrites the `## Error codes` table of that package's README from
// it (each package's test/error-codes.test.ts checks the two agree).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const code = (line) => line.trim().split(':')[0];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const errorsPath = join(root, 'packages', pkg, 'src/errors.ts');
  const readmePath = join(root, 'packages', pkg, 'README.md');
  if (!existsSync(errorsPath)) continue;
  let src = readFileSync(errorsPath, 'utf8');
  const m = /(export const [A-Z]+_ERROR_CODES = \{\n)([\s\S]*?)(\n\} as const satisfies ErrorCodeTable;)/.exec(src);
  if (!m) throw new Error(`${errorsPath}: no error-code table`);
  const lines = m[2].split('\n').sort((a, b) => (code(a) < code(b) ? -1 : 1));
  src = src.slice(0, m.index) + m[1] + lines.join('\n') + m[3] + src.slice(m.index + m[0].length);
  writeFileSync(errorsPath, src);
  const rows = lines.map((l) => /^ {2}([A-Z0-9_]+): (['"])(.*)\2,$/.exec(l)).map(([, c, , d]) => `| \`${c}\` | ${d} |`);
  let readme = readFileSync(readmePath, 'utf8');
  const section = readme.search(/^## Error codes$/m);
  if (section < 0) throw new Error(`${readmePath}: no "## Error codes" section`);
  const head = '| Code | Meaning |\n|---|---|\n';
  const a = readme.indexOf(head, section) + head.length;
  const b = readme.indexOf('\n\n', a);
  readme = readme.slice(0, a) + rows.join('\n') + readme.slice(b);
  writeFileSync(readmePath, readme);
  console.log(`${pkg}: ${rows.length} error codes`);
}
