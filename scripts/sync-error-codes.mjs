// Dev tool: sorts ERROR_CODES in packages/core/src/errors.ts and rewrites the error-code table of
// packages/core/README.md from it (a test checks the two agree).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const errorsPath = join(root, 'packages/core/src/errors.ts');
const readmePath = join(root, 'packages/core/README.md');
let src = readFileSync(errorsPath, 'utf8');
const m = /export const ERROR_CODES = \{\n([\s\S]*?)\n\} as const;/.exec(src);
const lines = m[1].split('\n').sort((a, b) => (a.trim().split(':')[0] < b.trim().split(':')[0] ? -1 : 1));
src = src.slice(0, m.index) + `export const ERROR_CODES = {\n${lines.join('\n')}\n} as const;` + src.slice(m.index + m[0].length);
writeFileSync(errorsPath, src);
const rows = [...src.matchAll(/^ {2}([A-Z_]+): '(.*)',$/gm)].map(([, c, d]) => `| \`${c}\` | ${d} |`);
let readme = readFileSync(readmePath, 'utf8');
const head = '| Code | Meaning |\n|---|---|\n';
const a = readme.indexOf(head) + head.length;
const b = readme.indexOf('\n\n', a);
readme = readme.slice(0, a) + rows.join('\n') + readme.slice(b);
writeFileSync(readmePath, readme);
console.log(`${rows.length} error codes`);
