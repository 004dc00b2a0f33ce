import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiKeyRing, loadApiKeys, parseApiKeys } from '../src/index.js';
import { tempDir } from './support.js';

const tmp = tempDir('quarry-keys-');
afterAll(() => tmp.remove());

describe('API keys', () => {
  it('parses key=workspace lists from the environment or a file', () => {
    expect(parseApiKeys('k1-aaaaaaaa=acme, k2-bbbbbbbb=beta', 'env')).toEqual([
      ['k1-aaaaaaaa', 'acme'],
      ['k2-bbbbbbbb', 'beta'],
    ]);
    expect(parseApiKeys('# keys\nk1-aaaaaaaa=acme\n\nbase64key+/==beta # trailing comment\n', 'file')).toEqual([
      ['k1-aaaaaaaa', 'acme'],
      ['base64key+/=', 'beta'],
    ]);
  });

  it('rejects malformed entries without repeating the key', () => {
    const cases: Array<[string, RegExp]> = [
      ['secret-key-1', /entry 1 must be key=workspace/],
      ['secret-key-1=acme,secret-key-1=beta', /entry 2 repeats a key/],
      ['secret-key-1=bad workspace', /workspace "bad workspace"/],
      ['short=acme', /at least 8 characters/],
    ];
    for (const [text, message] of cases) {
      let err: Error | undefined;
      try {
        parseApiKeys(text, 'QUARRY_API_KEYS');
      } catch (e) {
        err = e as Error;
      }
      expect(err?.message).toMatch(message);
      expect(err?.message).not.toContain('secret-key-1');
    }
  });

  it('maps each key to exactly one workspace', () => {
    const ring = new ApiKeyRing([
      ['key-one-11111', 'acme'],
      ['key-two-22222', 'beta'],
      ['key-three-333', 'acme'],
    ]);
    expect(ring.workspaceOf('key-one-11111')).toBe('acme');
    expect(ring.workspaceOf('key-two-22222')).toBe('beta');
    expect(ring.workspaceOf('key-two-2222')).toBeUndefined();
    expect(ring.workspaces()).toEqual(['acme', 'beta']);
    expect(ring.size).toBe(3);
  });

  it('loads from a keys file, then QUARRY_API_KEYS, else generates a private file once', async () => {
    const file = path.join(tmp.dir, 'keys.txt');
    await writeFile(file, 'file-key-123456=acme\n');
    expect(
      (await loadApiKeys({ keysFile: file, env: { QUARRY_API_KEYS: 'env-key-1234567=beta' }, dataDir: tmp.dir })).keys.workspaceOf('file-key-123456'),
    ).toBe('acme');
    const fromEnv = await loadApiKeys({ env: { QUARRY_API_KEYS: 'env-key-1234567=beta' }, dataDir: tmp.dir });
    expect(fromEnv.source).toBe('QUARRY_API_KEYS');
    expect(fromEnv.keys.workspaceOf('env-key-1234567')).toBe('beta');
    const dataDir = path.join(tmp.dir, 'data');
    const generated = await loadApiKeys({ env: {}, dataDir });
    expect(generated.source).toBe(`generated ${path.join(dataDir, 'api-keys')}`);
    const text = await readFile(path.join(dataDir, 'api-keys'), 'utf8');
    const key = text
      .split('\n')
      .find((l) => l.endsWith('=default'))!
      .replace(/=default$/, '');
    expect(generated.keys.workspaceOf(key)).toBe('default');
    expect((await stat(path.join(dataDir, 'api-keys'))).mode & 0o777).toBe(0o600);
    const again = await loadApiKeys({ env: {}, dataDir });
    expect(again.source).toBe(`file ${path.join(dataDir, 'api-keys')}`);
    expect(again.keys.workspaceOf(key)).toBe('default');
  });
});
