/**
 * Optional peer dependencies: the packages only some features need (OCR, page rendering, image
 * decoding, each embedding or LLM provider, local embeddings, token counting) are not installed with
 * @quarry/nodes. Each is imported where it is first needed; a missing one fails with a coded error
 * that names what to install.
 */
import { QuarryError } from '@quarry/core/errors';

/** Options of {@link importOptional}. */
export interface ImportOptionalOptions {
  /**
   * Every package the feature needs, in the install command of the message (default: the imported
   * package alone). OCR, say, needs its language data as well as the engine.
   */
  install?: readonly string[];
}

/**
 * Imports an optional peer dependency of @quarry/nodes.
 *
 * @param packageName - the package to import, as a bare specifier.
 * @param purpose - what needs it, for the message: `"OCR"`, `"the openai embedder"`.
 * @throws OPTIONAL_DEPENDENCY_MISSING when the package is not installed (details: `package`, `packages`,
 * `purpose`); a package that is installed but fails to load throws its own error.
 *
 * @example
 * ```ts
 * const { default: OpenAI } = await importOptional<typeof import('openai')>('openai', 'the openai embedder');
 * ```
 */
export async function importOptional<T>(packageName: string, purpose: string, options: ImportOptionalOptions = {}): Promise<T> {
  try {
    return (await import(packageName)) as T;
  } catch (e) {
    if (!isMissing(e, packageName)) throw e;
    throw optionalDependencyMissing(packageName, purpose, options.install ?? [packageName], e);
  }
}

/**
 * Imports each of `modules` (the importable packages among `install`), so that a feature needing
 * several optional packages names them all in one message before it starts.
 *
 * @throws OPTIONAL_DEPENDENCY_MISSING for the first of `modules` that is not installed.
 */
export async function requireOptional(modules: readonly string[], purpose: string, install: readonly string[]): Promise<void> {
  for (const name of modules) await importOptional(name, purpose, { install });
}

/**
 * The OPTIONAL_DEPENDENCY_MISSING error for `packageName`, needed for `purpose`, with the command that
 * installs `install`.
 */
function optionalDependencyMissing(packageName: string, purpose: string, install: readonly string[], cause?: unknown): QuarryError {
  const names = install.length > 1 ? `${install.slice(0, -1).join(', ')} and ${install.at(-1)}` : install[0];
  const missing = install.length > 1 ? `${names}; ${packageName} is not installed` : `${names}, which is not installed`;
  return new QuarryError('OPTIONAL_DEPENDENCY_MISSING', `${purpose} needs ${missing}: npm install ${install.join(' ')}`, {
    cause,
    details: { package: packageName, packages: [...install], purpose },
  });
}

// Only the package itself being absent counts: a dependency of it that is missing, or a broken
// install, is that package's own error and says more than ours would.
function isMissing(e: unknown, packageName: string): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err || typeof err.message !== 'string') return false;
  if (err.code !== 'ERR_MODULE_NOT_FOUND' && err.code !== 'MODULE_NOT_FOUND' && err.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') return false;
  return err.message.includes(`'${packageName}'`) || err.message.includes(`"${packageName}"`) || err.message.includes(`'${packageName}/`);
}
