import type { FormatDefinition } from '@quarry/core';
import { QuarryError, errorMessage } from '@quarry/core/errors';
import type { FormatPartitioner } from '../types.js';
import { moduleUrl } from './index.js';

// Each built-in format's module by its path beside this file, imported literally so that a bundler
// follows the imports: the package's entries bundle (scripts/bundle-package-entries.mjs at the repository root) makes each one a
// chunk loaded with the first document of its format, sharing one copy of what it imports (the
// classifiers, the tagger) with the rest of the bundle. The partition worker's bundle
// (scripts/bundle-worker.mjs) carries the text partitioner, the document its start-up is timed on,
// and loads the other formats from their own files.
const BUILTIN_MODULES: Readonly<Record<string, () => Promise<object>>> = {
  text: () => import('./text.js'),
  'markdown/index': () => import('./markdown/index.js'),
  'html/index': () => import('./html/index.js'),
  csv: () => import('./csv.js'),
  docx: () => import('./docx.js'),
  pptx: () => import('./pptx.js'),
  'xlsx/index': () => import('./xlsx/index.js'),
  eml: () => import('./eml.js'),
  xml: () => import('./xml.js'),
  json: () => import('./json.js'),
  odt: () => import('./odt.js'),
  epub: () => import('./epub.js'),
  'pdf/index': () => import('./pdf/index.js'),
  'image/index': () => import('./image/index.js'),
  heic: () => import('./heic.js'),
  msg: () => import('./msg.js'),
  rtf: () => import('./rtf.js'),
  rst: () => import('./rst.js'),
  org: () => import('./org.js'),
  'legacy-office': () => import('./legacy-office.js'),
};

/** The literal import of each built-in format's module, by the module's URL (its format's `module`). */
export const BUILTIN_IMPORTS: ReadonlyMap<string, () => Promise<object>> = new Map(
  Object.entries(BUILTIN_MODULES).map(([file, load]) => [moduleUrl(file), load]),
);

const loaded = new Map<string, Promise<FormatPartitioner>>();

/**
 * Imports a format's partitioner (once per process): a built-in one through its literal import, a
 * plugin's by its module URL. Throws `INVALID_PLUGIN` naming the module when it cannot be imported
 * or its export has no `partition` function.
 */
export function loadFormat(format: FormatDefinition): Promise<FormatPartitioner> {
  const key = `${format.module}#${format.exportName}`;
  let hit = loaded.get(key);
  if (!hit) {
    const load = BUILTIN_IMPORTS.get(format.module) ?? ((): Promise<object> => import(format.module));
    hit = load().then(
      (mod: object) => {
        const partitioner = (mod as Record<string, unknown>)[format.exportName] as Partial<FormatPartitioner> | undefined;
        if (typeof partitioner?.partition !== 'function') throw invalid(format, `has no export "${format.exportName}" with a partition function`);
        return partitioner as FormatPartitioner;
      },
      (e: unknown) => {
        throw invalid(format, `cannot be imported (${errorMessage(e)})`);
      },
    );
    // A failed import is not cached: the module may be installed later.
    hit.catch(() => loaded.delete(key));
    loaded.set(key, hit);
  }
  return hit;
}

function invalid(format: FormatDefinition, what: string): QuarryError {
  return new QuarryError('INVALID_PLUGIN', `format "${format.name}": module ${format.module} ${what}`, {
    details: { format: format.name, module: format.module },
  });
}
