import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage, type Plugin } from '@quarry/core';
import { UserError } from './user-error.js';

/**
 * Imports `--plugin` modules: a path (relative to the working directory) or a package name
 * installed beside the project. Each module's default export is a plugin (`definePlugin(...)`) or
 * a list of them, registered beside the built-in ones.
 */
export async function loadPlugins(specs: readonly string[]): Promise<Plugin[]> {
  const out: Plugin[] = [];
  for (const spec of specs) {
    let module: { default?: unknown };
    try {
      module = (await import(moduleUrl(spec))) as { default?: unknown };
    } catch (e) {
      throw new UserError(`--plugin ${spec} cannot be imported: ${errorMessage(e)}`);
    }
    const exported = Array.isArray(module.default) ? (module.default as unknown[]) : [module.default];
    if (exported.length === 0 || !exported.every(isPlugin)) {
      throw new UserError(`--plugin ${spec} must have a plugin as its default export (export default definePlugin({ name, engine, nodes }))`);
    }
    out.push(...exported);
  }
  return out;
}

function moduleUrl(spec: string): string {
  if (spec.startsWith('.') || isAbsolute(spec)) return pathToFileURL(resolve(spec)).href;
  // A package name resolves from the working directory (the user's project), not from the CLI's own folder.
  return pathToFileURL(createRequire(join(process.cwd(), 'package.json')).resolve(spec)).href;
}

function isPlugin(v: unknown): v is Plugin {
  return typeof v === 'object' && v !== null && typeof (v as Plugin).name === 'string' && typeof (v as Plugin).engine === 'string';
}
