import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// `quarry partition` loads the pool in the parent and the worker in each child before it reads a
// document: neither may reach the engine (the core index: rxjs, zod, ajv, croner, the service).
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const HEAVY = ['rxjs', 'zod', 'ajv', 'croner'];

function entries(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of ['core', 'nodes']) {
    const pkgDir = path.join(root, 'packages', dir);
    const { name, exports } = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, { source: string }>;
    };
    for (const [sub, entry] of Object.entries(exports)) out.set(name + sub.slice(1), path.join(pkgDir, entry.source));
  }
  return out;
}

/** Every module a file loads when imported (static value imports, transitively), as source files or package names. */
function staticallyLoaded(start: string): Set<string> {
  const packages = entries();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const st of sf.statements) {
      if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      if (ts.isImportDeclaration(st) ? st.importClause?.isTypeOnly : st.isTypeOnly) continue;
      const spec = st.moduleSpecifier.text;
      if (packages.has(spec)) visit(packages.get(spec)!);
      else if (spec.startsWith('.')) {
        const base = path.resolve(path.dirname(file), spec).replace(/\.js$/, '');
        visit([`${base}.ts`, path.join(base, 'index.ts')].find((c) => existsSync(c))!);
      } else seen.add(spec);
    }
  };
  visit(start);
  return seen;
}

describe('lean import graphs of quarry partition', () => {
  const coreIndex = path.join(root, 'packages/core/src/index.ts');
  for (const [what, file] of [
    ['the pool (@quarry/nodes/pool)', 'packages/nodes/src/pool/partition-pool.ts'],
    ['the worker module', 'packages/nodes/src/pool/partition-worker.ts'],
    ['the process entry of core', 'packages/core/src/runtime/process-entry.ts'],
    ['the partition command', 'packages/cli/src/commands/partition.ts'],
  ] as const) {
    it(`${what} loads neither the core index nor ${HEAVY.join(', ')}`, () => {
      const loaded = staticallyLoaded(path.join(root, file));
      expect(loaded.has(coreIndex)).toBe(false);
      expect(HEAVY.filter((m) => loaded.has(m))).toEqual([]);
      expect(loaded.has(path.join(root, 'packages/nodes/src/index.ts'))).toBe(false);
    });
  }

  // `import('@quarry/nodes')` and `import('@quarry/core')` load what their exports need at once;
  // engines, OCR, type sniffing, globbing and semver load with their first use, zod with the first
  // settings to check (each node's schema is built by its `settings` getter), htmlparser2 with the
  // first table HTML to chunk.
  it('the nodes index loads neither hi_res (OCR, pdf.js) nor file-type, tinyglobby, semver, zod or htmlparser2', () => {
    const loaded = staticallyLoaded(path.join(root, 'packages/nodes/src/index.ts'));
    const heavy = ['partition/formats/pdf/hi-res.ts', 'partition/ocr.ts', 'partition/formats/pdf/pdfjs/render.ts', 'inspect/table-markup.ts'].map((f) =>
      path.join(root, 'packages/nodes/src', f),
    );
    expect(heavy.filter((f) => loaded.has(f))).toEqual([]);
    expect(['file-type', 'file-type/core', 'tinyglobby', 'semver', 'rxjs', 'ajv', 'croner', 'zod', 'htmlparser2'].filter((m) => loaded.has(m))).toEqual([]);
  });

  // A prompter node's task and runner load when a job creates the node.
  it('the nodes index loads no enrichment task nor the enrichment runner', () => {
    const loaded = staticallyLoaded(path.join(root, 'packages/nodes/src/index.ts'));
    const runtime = [
      'image-description',
      'ner',
      'ocr',
      'table2html',
      'table-description',
      'twopass-table2html',
      'run-enrichment',
      'plan-facts',
      'prompter-runtime',
    ].map((f) => path.join(root, 'packages/nodes/src/prompter', `${f}.ts`));
    expect(runtime.filter((f) => loaded.has(f))).toEqual([]);
  });

  it('the PDF partitioner loads hi_res only when a document needs it', () => {
    const loaded = staticallyLoaded(path.join(root, 'packages/nodes/src/partition/formats/pdf/index.ts'));
    expect(
      [path.join(root, 'packages/nodes/src/partition/formats/pdf/hi-res.ts'), path.join(root, 'packages/nodes/src/partition/ocr.ts')].filter((f) =>
        loaded.has(f),
      ),
    ).toEqual([]);
  });

  // hi_res loads OCR in the partitioning process: its pool runs on core's queue, whose entry has no rxjs.
  it('the OCR module and @quarry/core/batch-queue load neither the core index nor rxjs', () => {
    for (const file of ['packages/nodes/src/partition/ocr.ts', 'packages/core/src/concurrency/batch-queue-entry.ts']) {
      const loaded = staticallyLoaded(path.join(root, file));
      expect([file, loaded.has(coreIndex)]).toEqual([file, false]);
      expect([file, HEAVY.filter((m) => loaded.has(m))]).toEqual([file, []]);
    }
  });

  // zod loads with the first schema (workflow/zod-lib.ts): a plugin's settings, a workflow to validate.
  it('the core index loads neither zod, rxjs, ajv, croner nor semver', () => {
    const loaded = staticallyLoaded(coreIndex);
    expect(['zod', 'rxjs', 'ajv', 'croner', 'semver'].filter((m) => loaded.has(m))).toEqual([]);
  });

  // What a worker loads before its first document, a text file, is on the way of every
  // `quarry partition`: file-type's core entry only (its main one adds Node streams), with the
  // first document; franc and iconv-lite when a text needs them.
  it('the worker module and the text partitioner load neither file-type nor franc nor iconv-lite at import', () => {
    const loaded = new Set([
      ...staticallyLoaded(path.join(root, 'packages/nodes/src/pool/partition-worker.ts')),
      ...staticallyLoaded(path.join(root, 'packages/nodes/src/partition/formats/text.ts')),
    ]);
    expect(['file-type', 'file-type/core', 'franc-min', 'franc-min/data.js', 'iconv-lite', 'jszip'].filter((m) => loaded.has(m))).toEqual([]);
    // The warm-up (a server's processes) is imported by URL when a warmed pool asks for it.
    expect(loaded.has(path.join(root, 'packages/nodes/src/pool/warm-up.ts'))).toBe(false);
    // file-type is imported when the first document's type is sniffed: its core entry, without Node streams.
    const detect = readFileSync(path.join(root, 'packages/nodes/src/partition/detect-filetype.ts'), 'utf8');
    expect(detect).toContain("await import('file-type/core')");
  });
});
