import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every import among the sources of the packages, type-only ones included: a circle of type
// imports still ties the files together for a reader, and becomes a load-order bug the day one of
// them imports a value.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const packagesDir = path.join(root, 'packages');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each exported entry (`@quarry/<name>`, `@quarry/<name>/testing`, ...) -> its source file. */
function workspacePackages(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of readdirSync(packagesDir)) {
    const manifest = path.join(packagesDir, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports: Record<string, { source: string }> };
    for (const [subpath, entry] of Object.entries(exports)) out.set(name + subpath.slice(1), path.join(packagesDir, dir, entry.source));
  }
  return out;
}

/** The file a specifier names, undefined for a module outside the workspace; throws when it names a missing file. */
function resolve(from: string, specifier: string, packages: ReadonlyMap<string, string>): string | undefined {
  if (packages.has(specifier)) return packages.get(specifier);
  if (specifier.startsWith('@quarry/')) throw new Error(`${path.relative(root, from)} imports ${specifier}: not an entry its package exports`);
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  const found = candidates.find((c) => c.endsWith('.ts') && existsSync(c));
  if (!found) throw new Error(`${path.relative(root, from)} imports ${specifier}, which names no .ts file`);
  return found;
}

/** Each file's imports and `export ... from`s (static, dynamic and type-only), as files. */
function importGraph(): Map<string, string[]> {
  const packages = workspacePackages();
  const files = readdirSync(packagesDir)
    .map((dir) => path.join(packagesDir, dir, 'src'))
    .filter((src) => existsSync(src))
    .flatMap(sourceFiles);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map((f) => resolve(file, f.fileName, packages)).filter((t): t is string => t !== undefined);
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Every cycle a depth-first search meets (one per back edge), each as the files along it. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      const s = state.get(next);
      if (s === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('imports among packages/*/src', () => {
  const graph = importGraph();

  it('reads the sources of every package', () => {
    expect(graph.size).toBeGreaterThan(100);
    // Sanity check of the parsing: a type-only import and an `export ... from` are edges.
    const task = path.join(packagesDir, 'distributed', 'src', 'task-mac.ts');
    expect(graph.get(task)).toContain(path.join(packagesDir, 'distributed', 'src', 'task.ts'));
    expect(graph.get(path.join(packagesDir, 'core', 'src', 'index.ts'))!.length).toBeGreaterThan(5);
  });

  it('form no cycle', () => {
    const cycles = findCycles(graph).map((c) => c.map((f) => path.relative(packagesDir, f)).join(' -> '));
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('detects a cycle when there is one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(findCycles(g)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
