// A merge that left conflict markers in a README or source file still builds and passes every other
// test (a README is not compiled): this one reads every tracked text file for them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEXT = /\.(ts|mts|mjs|js|json|md|yaml|yml|sh)$/;
// A line that is exactly a marker git writes (the middle one is 7 `=`, alone on its line).
const MARKER = /^(<{7} |={7}$|>{7} )/m;

describe('repository text', () => {
  it('holds no merge-conflict markers in any tracked file', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((f) => TEXT.test(f));
    expect(files.length).toBeGreaterThan(100);
    const marked = files.filter((f) => MARKER.test(readFileSync(path.join(root, f), 'utf8')));
    expect(marked).toEqual([]);
  });
});
