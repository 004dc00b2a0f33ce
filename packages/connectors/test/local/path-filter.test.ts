import { describe, expect, it } from 'vitest';
import { createPathFilter } from '../../src/local/path-filter.js';

describe('createPathFilter', () => {
  it('lists every visible file and enters every visible directory by default', () => {
    const f = createPathFilter();
    expect(['a.txt', 'x/y/z.pdf'].map(f.includesFile)).toEqual([true, true]);
    expect(['.env', 'x/.hidden', '.git/config'].map(f.includesFile)).toEqual([false, false, false]);
    expect(['x', 'x/y'].map(f.entersDirectory)).toEqual([true, true]);
    expect(['.git', 'x/.cache'].map(f.entersDirectory)).toEqual([false, false]);
  });

  it('matches slash-free patterns against the name, others against the whole path', () => {
    const f = createPathFilter({ include: ['*.pdf', 'docs/*.md'] });
    expect(f.includesFile('deep/down/a.pdf')).toBe(true);
    expect(f.includesFile('docs/a.md')).toBe(true);
    expect(f.includesFile('docs/sub/a.md')).toBe(false);
    expect(f.includesFile('a.md')).toBe(false);
  });

  it('accepts ./ prefixes and anchors a leading / at the root', () => {
    const f = createPathFilter({ include: ['./docs/*.md'], exclude: ['/docs/skip.md'] });
    expect(f.includesFile('docs/a.md')).toBe(true);
    expect(f.includesFile('docs/skip.md')).toBe(false);
    const g = createPathFilter({ exclude: ['/tmp'] });
    expect(g.entersDirectory('tmp')).toBe(false);
    expect(g.entersDirectory('x/tmp')).toBe(true);
  });

  it('prunes directories matched by an exclude pattern', () => {
    const f = createPathFilter({ exclude: ['node_modules', 'build/**', 'out/*'] });
    expect(f.entersDirectory('node_modules')).toBe(false);
    expect(f.entersDirectory('pkg/node_modules')).toBe(false);
    expect(f.entersDirectory('build')).toBe(false);
    expect(f.entersDirectory('out')).toBe(true);
    expect(f.entersDirectory('out/sub')).toBe(false);
    expect(f.includesFile('out/a.txt')).toBe(false);
  });

  it('lets exclude patterns match hidden entries', () => {
    const f = createPathFilter({ include: ['.env', '.config/**'], exclude: ['*.bak', '.config/cache'] });
    expect(f.includesFile('.env')).toBe(true);
    expect(f.includesFile('.env.bak')).toBe(false);
    expect(f.entersDirectory('.config')).toBe(true);
    expect(f.entersDirectory('.config/cache')).toBe(false);
  });

  it('enters a hidden directory only when a path pattern names it', () => {
    const f = createPathFilter({ include: ['**/.github/workflows/*.yml', '.env'] });
    expect(f.entersDirectory('.github')).toBe(true);
    expect(f.entersDirectory('pkg/.github')).toBe(true);
    expect(f.entersDirectory('.github/workflows')).toBe(true);
    expect(f.entersDirectory('.github/other')).toBe(false);
    expect(f.entersDirectory('.git')).toBe(false);
    expect(f.includesFile('.github/workflows/ci.yml')).toBe(true);
    expect(f.includesFile('pkg/.github/workflows/ci.yml')).toBe(true);
    expect(f.includesFile('.git/.env')).toBe(false);
    expect(f.includesFile('a/.env')).toBe(true);
  });

  it('never lets ** or * stand for a hidden name', () => {
    const f = createPathFilter({ include: ['**', '**/*'] });
    expect(f.includesFile('a/b.txt')).toBe(true);
    expect(f.includesFile('.env')).toBe(false);
    expect(f.includesFile('a/.git/x')).toBe(false);
    expect(f.entersDirectory('a/.git')).toBe(false);
  });

  it('understands braces and character classes', () => {
    const f = createPathFilter({ include: ['*.{md,txt}', 'data/[0-9]*.csv'] });
    expect(['a.md', 'b/c.txt', 'data/1.csv', 'data/x.csv', 'a.pdf'].map(f.includesFile)).toEqual([true, true, true, false, false]);
  });
});
