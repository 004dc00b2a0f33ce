import { createHash } from 'node:crypto';
import { chmod, mkdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSettings } from '@quarry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localSource } from '../../src/local/local-source.js';
import { testSourceConformance } from '@quarry/connectors/testing';
import { captureLogger, createSource, failureOf, listAll, makeTempDir, removeDir, writeTree } from '../support.js';

for (const version of ['content_hash', 'size_mtime'] as const) {
  testSourceConformance(`local (version: ${version})`, async (fixtures) => {
    const root = await makeTempDir();
    for (const f of fixtures) await writeTree(root, { [f.key]: f.content });
    return {
      source: await createSource(localSource, { path: root, version }),
      recordIdOf: (key) => key,
      update: (key, content) => writeFile(path.join(root, key), content),
      cleanup: () => removeDir(root),
    };
  });
}

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('localSource', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(async () => {
    await removeDir(root);
  });

  const ids = async (config: Record<string, unknown>): Promise<string[]> =>
    (await listAll(await createSource(localSource, { path: root, ...config }))).map((d) => d.record_id);

  describe('get (distributed runs)', () => {
    it('re-opens a record under the root, and the single file of a file root', async () => {
      await mkdir(path.join(root, 'sub'), { recursive: true });
      await writeFile(path.join(root, 'sub', 'a.txt'), 'alpha');
      const source = await createSource(localSource, { path: root });
      const [doc] = await listAll(source);
      const { read: _read, ...record } = doc!;
      expect(new TextDecoder().decode(await (await source.get!(record, new AbortController().signal)).read())).toBe('alpha');
      const single = await createSource(localSource, { path: path.join(root, 'sub', 'a.txt') });
      const [one] = await listAll(single);
      const { read: _r, ...oneRecord } = one!;
      expect(new TextDecoder().decode(await (await single.get!(oneRecord, new AbortController().signal)).read())).toBe('alpha');
      expect((await failureOf(single.get!({ ...oneRecord, record_id: 'other.txt' }, new AbortController().signal))).code).toBe('INVALID_ARGUMENT');
    });

    it('refuses a record that points outside the root, whoever sent it', async () => {
      const source = await createSource(localSource, { path: root });
      const record = { record_id: '../../etc/passwd', filename: 'passwd', data_source: {} };
      const e = await failureOf(source.get!(record, new AbortController().signal));
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.message).toContain('../../etc/passwd');
      expect((await failureOf(source.get!({ ...record, record_id: '' }, new AbortController().signal))).code).toBe('INVALID_ARGUMENT');
    });
  });

  describe('config', () => {
    it('applies the defaults: recursive, content hash, no symlinks', () => {
      const r = parseSettings(localSource.config, { path: '/data' });
      expect(r).toEqual({ ok: true, value: { path: '/data', recursive: true, version: 'content_hash', follow_symlinks: false } });
    });

    it('rejects an unknown key, an empty path and an unknown version mode', () => {
      const r = parseSettings(localSource.config, { path: '', versoin: 'x', version: 'mtime' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.problems.map((p) => p.path).sort()).toEqual(['', '/path', '/version']);
    });
  });

  describe('missing path', () => {
    it('throws SOURCE_NOT_FOUND naming the path when the source is created', async () => {
      const missing = path.join(root, 'no-such-dir');
      const e = await failureOf(createSource(localSource, { path: missing }));
      expect(e.code).toBe('SOURCE_NOT_FOUND');
      expect(e.message).toContain(missing);
      expect(e.details.path).toBe(missing);
    });

    it('throws SOURCE_NOT_FOUND from list() when the path went away after creation', async () => {
      const dir = path.join(root, 'inbox');
      await writeTree(dir, { 'a.txt': 'a' });
      const source = await createSource(localSource, { path: dir });
      await rm(dir, { recursive: true });
      const e = await failureOf(listAll(source));
      expect(e.code).toBe('SOURCE_NOT_FOUND');
      expect(e.message).toContain(dir);
    });
  });

  describe('walking', () => {
    it('lists depth-first in code-unit name order, so runs are deterministic', async () => {
      await writeTree(root, { 'b.txt': 'b', 'a/z.txt': 'z', 'a.txt': 'a', 'c/d/e.txt': 'e', 'B.txt': 'B', 'a/b/y.txt': 'y' });
      expect(await ids({})).toEqual(['B.txt', 'a/b/y.txt', 'a/z.txt', 'a.txt', 'b.txt', 'c/d/e.txt']);
    });

    it('stays in the top directory when recursive is false', async () => {
      await writeTree(root, { 'a.txt': 'a', 'sub/b.txt': 'b', 'sub/deeper/c.txt': 'c' });
      expect(await ids({ recursive: false })).toEqual(['a.txt']);
    });

    it('lists a single file given as the path, under its file name', async () => {
      await writeTree(root, { 'nested/report.pdf': '%PDF-1.4' });
      const file = path.join(root, 'nested', 'report.pdf');
      const [doc, ...rest] = await listAll(await createSource(localSource, { path: file, include: ['*.txt'] }));
      expect(rest).toEqual([]);
      expect(doc?.record_id).toBe('report.pdf');
      expect(doc?.filename).toBe('report.pdf');
      expect(doc?.file_directory).toBe(path.join(root, 'nested'));
    });

    it('opens sub-directories only when pulled: one removed mid-listing is skipped with a warning', async () => {
      await writeTree(root, { 'a.txt': 'a', 'b/inside.txt': 'x', 'c.txt': 'c' });
      const { logger, records } = captureLogger();
      const source = await createSource(localSource, { path: root }, logger);
      const seen: string[] = [];
      for await (const d of source.list(new AbortController().signal)) {
        seen.push(d.record_id);
        if (d.record_id === 'a.txt') await rm(path.join(root, 'b'), { recursive: true });
      }
      expect(seen).toEqual(['a.txt', 'c.txt']);
      const warning = records.find((r) => r.level === 'warn');
      expect(warning?.fields?.path).toBe(path.join(root, 'b'));
    });

    it.skipIf(process.getuid?.() === 0)('skips a sub-directory without read permission, with a warning', async () => {
      await writeTree(root, { 'a.txt': 'a', 'locked/secret.txt': 's', 'z.txt': 'z' });
      await chmod(path.join(root, 'locked'), 0o000);
      try {
        const { logger, records } = captureLogger();
        const docs = await listAll(await createSource(localSource, { path: root }, logger));
        expect(docs.map((d) => d.record_id)).toEqual(['a.txt', 'z.txt']);
        expect(records.some((r) => r.level === 'warn' && r.fields?.path === path.join(root, 'locked'))).toBe(true);
      } finally {
        await chmod(path.join(root, 'locked'), 0o755);
      }
    });

    it('stops with JOB_ABORTED when the signal aborts mid-listing', async () => {
      await writeTree(root, { 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' });
      const source = await createSource(localSource, { path: root });
      const ac = new AbortController();
      const seen: string[] = [];
      const e = await failureOf(
        (async () => {
          for await (const d of source.list(ac.signal)) {
            seen.push(d.record_id);
            ac.abort();
          }
        })(),
      );
      expect(e.code).toBe('JOB_ABORTED');
      expect(seen).toEqual(['a.txt']);
    });
  });

  describe('count', () => {
    it('counts what list() yields, for every filter, without repeating warnings', async () => {
      await writeTree(root, { 'a.md': 'a', 'b.txt': 'b', 'sub/c.md': 'c', '.env': 'e', 'drafts/d.md': 'd' });
      await symlink(path.join(root, 'missing'), path.join(root, 'broken'));
      for (const config of [{}, { include: ['*.md'] }, { exclude: ['drafts'] }, { include: ['.env'] }, { recursive: false }, { follow_symlinks: true }]) {
        const { logger, records } = captureLogger();
        const source = await createSource(localSource, { path: root, ...config }, logger);
        const counted = await source.count!(new AbortController().signal);
        expect(records.filter((r) => r.level === 'warn')).toEqual([]);
        expect(counted, JSON.stringify(config)).toBe((await listAll(source)).length);
      }
    });

    it('counts 1 for a single file, and fails like list() for a missing path', async () => {
      await writeTree(root, { 'one.pdf': 'x' });
      const source = await createSource(localSource, { path: path.join(root, 'one.pdf') });
      expect(await source.count!(new AbortController().signal)).toBe(1);
      await rm(path.join(root, 'one.pdf'));
      expect((await failureOf(source.count!(new AbortController().signal))).code).toBe('SOURCE_NOT_FOUND');
    });
  });

  describe('globs', () => {
    beforeEach(async () => {
      await writeTree(root, {
        'README.md': 'r',
        'docs/guide.md': 'g',
        'docs/api/ref.md': 'r',
        'docs/drafts/wip.md': 'w',
        'docs/img.png': 'p',
        'build/out.md': 'o',
        'src/build/keep.md': 'k',
        'logs/run.log': 'l',
      });
    });

    it('matches a pattern without a slash against the file name at any depth', async () => {
      expect(await ids({ include: ['*.md'] })).toEqual([
        'README.md',
        'build/out.md',
        'docs/api/ref.md',
        'docs/drafts/wip.md',
        'docs/guide.md',
        'src/build/keep.md',
      ]);
    });

    it('matches a pattern with a slash against the path from the root', async () => {
      expect(await ids({ include: ['docs/*.md'] })).toEqual(['docs/guide.md']);
      expect(await ids({ include: ['docs/**/*.md'] })).toEqual(['docs/api/ref.md', 'docs/drafts/wip.md', 'docs/guide.md']);
    });

    it('unions several include patterns', async () => {
      expect(await ids({ include: ['*.png', '*.log'] })).toEqual(['docs/img.png', 'logs/run.log']);
    });

    it('excludes whole directories by name, and exclude wins over include', async () => {
      expect(await ids({ include: ['*.md'], exclude: ['drafts', 'build'] })).toEqual(['README.md', 'docs/api/ref.md', 'docs/guide.md']);
    });

    it('anchors an exclude pattern with a leading slash at the root', async () => {
      expect(await ids({ include: ['*.md'], exclude: ['/build'] })).toEqual([
        'README.md',
        'docs/api/ref.md',
        'docs/drafts/wip.md',
        'docs/guide.md',
        'src/build/keep.md',
      ]);
    });

    it('excludes files by pattern', async () => {
      expect(await ids({ exclude: ['*.md'] })).toEqual(['docs/img.png', 'logs/run.log']);
    });

    it('treats an empty include list like no include list', async () => {
      expect(await ids({ include: [] })).toEqual(await ids({}));
    });
  });

  describe('hidden files', () => {
    beforeEach(async () => {
      await writeTree(root, {
        '.env': 'SECRET=1',
        'visible.txt': 'v',
        'sub/.env': 'SECRET=2',
        'sub/.notes.txt': 'n',
        '.git/config': '[core]',
        '.git/.env': 'x',
        '.github/workflows/ci.yml': 'on: push',
        'config.yml': 'a: 1',
      });
    });

    it('skips dot-files and dot-directories by default', async () => {
      expect(await ids({})).toEqual(['config.yml', 'visible.txt']);
    });

    it('lists a dot-file named explicitly, but not inside a dot-directory', async () => {
      expect(await ids({ include: ['.env'] })).toEqual(['.env', 'sub/.env']);
    });

    it('lists a dot-directory named by a path pattern', async () => {
      expect(await ids({ include: ['.github/**'] })).toEqual(['.github/workflows/ci.yml']);
      expect(await ids({ include: ['**/.github/**/*.yml'] })).toEqual(['.github/workflows/ci.yml']);
    });

    it('does not let a wildcard reach hidden entries', async () => {
      expect(await ids({ include: ['*.yml'] })).toEqual(['config.yml']);
      expect(await ids({ include: ['**/*.yml', '*.txt'] })).toEqual(['config.yml', 'visible.txt']);
    });
  });

  describe('documents', () => {
    it('fills record_id, names, size, dates, provenance and reads the bytes', async () => {
      await writeTree(root, { 'sub dir/Ünï.txt': 'hello, world' });
      const abs = path.join(root, 'sub dir', 'Ünï.txt');
      const when = new Date('2024-05-06T07:08:09.250Z');
      await utimes(abs, when, when);
      const [doc] = await listAll(await createSource(localSource, { path: root }));
      const st = await stat(abs, { bigint: true });
      expect(doc).toMatchObject({
        record_id: 'sub dir/Ünï.txt',
        filename: 'Ünï.txt',
        file_directory: path.join(root, 'sub dir'),
        // A partition process reads the file from here itself.
        localPath: abs,
        size: 12,
        last_modified: '2024-05-06T07:08:09.250Z',
        version: sha256('hello, world'),
        data_source: {
          url: pathToFileURL(abs).href,
          version: sha256('hello, world'),
          record_locator: { protocol: 'file', remote_file_path: abs },
          date_modified: '1714979289.25',
          permissions_data: [{ mode: Number(st.mode) }],
        },
      });
      expect(doc?.data_source.url).toMatch(/^file:\/\/.*sub%20dir\/%C3%9Cn%C3%AF\.txt$/);
      expect(new TextDecoder().decode(await doc!.read())).toBe('hello, world');
    });

    it('fails read() with DOCUMENT_READ_FAILED when the file is gone', async () => {
      await writeTree(root, { 'a.txt': 'a' });
      const [doc] = await listAll(await createSource(localSource, { path: root }));
      await rm(path.join(root, 'a.txt'));
      const e = await failureOf(doc!.read());
      expect(e.code).toBe('DOCUMENT_READ_FAILED');
      expect(e.details).toMatchObject({ record_id: 'a.txt', path: path.join(root, 'a.txt') });
    });
  });

  describe('versions', () => {
    const versionOf = async (mode: string): Promise<string | undefined> =>
      (await listAll(await createSource(localSource, { path: root, version: mode })))[0]?.version;

    it('content_hash: changes with the content, not with a touch', async () => {
      await writeTree(root, { 'a.txt': 'first' });
      const v1 = await versionOf('content_hash');
      expect(v1).toBe(sha256('first'));
      const later = new Date(Date.now() + 60_000);
      await utimes(path.join(root, 'a.txt'), later, later);
      expect(await versionOf('content_hash')).toBe(v1);
      await writeFile(path.join(root, 'a.txt'), 'other');
      expect(await versionOf('content_hash')).toBe(sha256('other'));
    });

    it('size_mtime: `<size>-<mtime ns>`, so a touch changes it', async () => {
      await writeTree(root, { 'a.txt': 'first' });
      const abs = path.join(root, 'a.txt');
      const v1 = await versionOf('size_mtime');
      const st = await stat(abs, { bigint: true });
      expect(v1).toBe(`5-${st.mtimeNs}`);
      const later = new Date('2030-01-01T00:00:00Z');
      await utimes(abs, later, later);
      expect(await versionOf('size_mtime')).toBe(`5-${BigInt(later.getTime()) * 1_000_000n}`);
    });

    it('content_hash: streams files larger than one read chunk', async () => {
      const big = 'quarry '.repeat(100_000);
      await writeTree(root, { 'big.txt': big });
      expect(await versionOf('content_hash')).toBe(sha256(big));
    });

    it.skipIf(process.getuid?.() === 0)('content_hash: lists an unreadable file without a version, with a warning', async () => {
      await writeTree(root, { 'locked.txt': 'x' });
      await chmod(path.join(root, 'locked.txt'), 0o000);
      const { logger, records } = captureLogger();
      const [doc] = await listAll(await createSource(localSource, { path: root }, logger));
      expect(doc?.record_id).toBe('locked.txt');
      expect(doc?.version).toBeUndefined();
      expect(records.some((r) => r.level === 'warn')).toBe(true);
    });
  });

  describe('symbolic links', () => {
    beforeEach(async () => {
      await writeTree(root, { 'real/a.txt': 'a', 'outside/b.txt': 'b' });
      await symlink(path.join(root, 'real', 'a.txt'), path.join(root, 'real', 'link-to-a.txt'));
      await symlink(path.join(root, 'outside'), path.join(root, 'real', 'linked-dir'));
      await symlink(path.join(root, 'real'), path.join(root, 'real', 'loop'));
      await symlink(path.join(root, 'nowhere'), path.join(root, 'real', 'broken'));
    });

    it('ignores links unless follow_symlinks is set', async () => {
      const docs = await listAll(await createSource(localSource, { path: path.join(root, 'real') }));
      expect(docs.map((d) => d.record_id)).toEqual(['a.txt']);
    });

    it('follows links to files and directories, and stops at a loop and a broken link with warnings', async () => {
      const { logger, records } = captureLogger();
      const docs = await listAll(await createSource(localSource, { path: path.join(root, 'real'), follow_symlinks: true }, logger));
      expect(docs.map((d) => d.record_id)).toEqual(['a.txt', 'link-to-a.txt', 'linked-dir/b.txt']);
      expect(docs[1]?.version).toBe(sha256('a'));
      const warned = records.filter((r) => r.level === 'warn').map((r) => r.fields?.path);
      expect(warned.sort()).toEqual([path.join(root, 'real', 'broken'), path.join(root, 'real', 'loop')]);
    });
  });

  it('reads an unchanged corpus identically on every run (no dependence on directory order)', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `f${(i * 7919) % 97}.txt`);
    await mkdir(path.join(root, 'many'));
    for (const n of names) await writeFile(path.join(root, 'many', n), n);
    const listed = await ids({});
    expect(listed).toEqual([...new Set(names)].map((n) => `many/${n}`).sort());
  });
});
