/** Bytes in a megabyte as `du -m` counts them. */
export const MB: number;
/** The install footprint `@quarry/core @quarry/nodes` must stay within, in MB. */
export const FOOTPRINT_LIMIT_MB: number;
/** Packs `packages/<name>` for each name with `pnpm pack` into `dest`; returns name -> tarball path. */
export function packPackages<N extends string>(names: readonly N[], dest: string): Record<N, string>;
/** Makes `dir` a plain npm project (ES modules), outside any workspace. */
export function newNpmProject(dir: string): void;
/** `npm install` of `specs` (tarball paths, `name@version`) in `dir`; returns the seconds it took. */
export function npmInstall(dir: string, specs: readonly string[]): number;
/** The packages of an npm project's lockfile that have an install script. */
export function installScripts(dir: string): string[];
/**
 * What a `node_modules` folder weighs: the bytes of its files, the disk space they take here (as
 * `du`), and each top-level package's bytes, largest first.
 */
export function footprint(nodeModules: string): { bytes: number; diskBytes: number; packages: { name: string; bytes: number }[] };
/** The exact versions the monorepo pins for `names` in `packages/<pkg>/package.json`, as `name@version`. */
export function pinnedVersions(pkg: string, names: readonly string[]): string[];
