import picomatch from 'picomatch';

/** Include and exclude globs of the local source. */
export interface PathFilterOptions {
  /** A file is listed only when one of these matches; absent or empty means every visible file. */
  include?: readonly string[];
  /** A file or directory matching one of these is skipped (a directory with everything under it). */
  exclude?: readonly string[];
}

/** Decides which files a directory walk lists and which directories it enters. */
export interface PathFilter {
  /** True when the file at `rel` (relative to the root, POSIX separators) is listed. */
  includesFile(rel: string): boolean;
  /** True when the walk should enter the directory at `rel`. */
  entersDirectory(rel: string): boolean;
}

type Matcher = (s: string) => boolean;

interface CompiledPattern {
  /** Patterns without a slash match a name at any depth, as in `.gitignore`. */
  basename: boolean;
  test: Matcher;
  /** Path segments of a path pattern, used to ask whether a hidden directory can hold a match. */
  segments: string[];
}

const isHidden = (segment: string): boolean => segment.startsWith('.');

function compile(pattern: string, dot: boolean): CompiledPattern {
  let p = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  // A leading slash anchors the pattern at the root instead of letting it match a basename anywhere.
  const anchored = p.startsWith('/');
  if (anchored) p = p.replace(/^\/+/, '');
  const basename = !anchored && !p.includes('/');
  return { basename, test: picomatch(p, { dot }), segments: p.split('/') };
}

function matches(patterns: readonly CompiledPattern[], rel: string, segments: readonly string[]): boolean {
  const base = segments[segments.length - 1] ?? rel;
  return patterns.some((p) => (p.basename ? p.test(base) : p.test(rel)));
}

const segmentMatchers = new Map<string, Matcher>();
function segmentMatches(patternSegment: string, segment: string): boolean {
  let m = segmentMatchers.get(patternSegment);
  if (!m) {
    m = picomatch(patternSegment, { dot: false });
    segmentMatchers.set(patternSegment, m);
  }
  return m(segment);
}

/**
 * True when a path pattern could match something at or below the directory `dir`: the pattern's
 * leading segments match the directory's. `**` never crosses a hidden segment, as in picomatch
 * with `dot: false`, so only a pattern that names a dot directory reaches inside one.
 */
function reaches(pattern: readonly string[], dir: readonly string[], pi = 0, di = 0): boolean {
  if (di === dir.length) return true;
  if (pi === pattern.length) return false;
  const ps = pattern[pi] as string;
  const ds = dir[di] as string;
  if (ps === '**') {
    return reaches(pattern, dir, pi + 1, di) || (!isHidden(ds) && reaches(pattern, dir, pi, di + 1));
  }
  return segmentMatches(ps, ds) && reaches(pattern, dir, pi + 1, di + 1);
}

/**
 * Builds the filter of the local source. Globs are picomatch globs matched against paths relative to
 * the root with POSIX separators. A pattern without a slash matches a file or directory name at any
 * depth (`*.pdf`, `node_modules`); a leading `/` anchors a pattern at the root. Hidden entries (a
 * name starting with `.`) are skipped unless an include pattern names them explicitly (`.env`,
 * `.github/**`). Exclude wins over include, and also matches hidden entries.
 *
 * @example
 * ```ts
 * const f = createPathFilter({ include: ['*.md'], exclude: ['drafts'] });
 * f.includesFile('docs/a.md'); // true
 * f.includesFile('docs/.notes.md'); // false: hidden, and `*` does not name it
 * f.entersDirectory('docs/drafts'); // false
 * ```
 */
export function createPathFilter(options: PathFilterOptions = {}): PathFilter {
  const include = (options.include ?? []).map((p) => compile(p, false));
  const exclude = (options.exclude ?? []).map((p) => compile(p, true));
  const includePaths = include.filter((p) => !p.basename);

  return {
    includesFile(rel) {
      const segments = rel.split('/');
      if (matches(exclude, rel, segments)) return false;
      const dirHidden = segments.slice(0, -1).some(isHidden);
      if (include.length === 0) return !segments.some(isHidden);
      // Basename patterns do not reach into hidden directories: only a path pattern names those.
      const eligible = dirHidden ? includePaths : include;
      return matches(eligible, rel, segments);
    },
    entersDirectory(rel) {
      const segments = rel.split('/');
      if (matches(exclude, rel, segments)) return false;
      if (!segments.some(isHidden)) return true;
      return includePaths.some((p) => reaches(p.segments, segments));
    },
  };
}
