import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR_CODES } from '@quarry/core/service';
import { STATUS_BY_CODE } from '../src/index.js';
import path from 'node:path';
import { writeTinyBert } from '../../nodes/test/support/tiny-bert.js';
import { partitionAndChunk } from './readme-example.js';
import { similarityChunks } from './readme-sdk-example.js';
import { KEYS, startServer, tempDir, type TestServer } from './support.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('./readme-example.ts', import.meta.url)), 'utf8');
const sdkExample = readFileSync(fileURLToPath(new URL('./readme-sdk-example.ts', import.meta.url)), 'utf8');

describe('server README', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('quotes the tested example verbatim, and the example works', async () => {
    expect(readme).toContain(example);
    const r = await partitionAndChunk(t.base, KEYS.acme, { name: 'notes.md', text: '# Field notes\n\nThe river was high.\n\n# Camp\n\nWe stayed two nights.' });
    expect(r.status).toBe('COMPLETED');
    expect(r.nodeStats.map((s: { node_name: string; success: number }) => [s.node_name, s.success])).toEqual([
      ['Partitioner', 1],
      ['Chunker', 1],
      ['Destination', 1],
    ]);
    expect(r.chunks.map((c: { text: string }) => c.text)).toEqual(['Field notes\n\nThe river was high.\n\nCamp\n\nWe stayed two nights.']);
  });

  it('documents the status of every service error code', () => {
    for (const code of Object.keys(SERVICE_ERROR_CODES)) {
      expect(readme).toContain(`| \`${code}\` | ${STATUS_BY_CODE[code]} |`);
    }
  });

  it('quotes the SDK example verbatim, and it chunks by similarity on a server with an embedder', async () => {
    expect(readme).toContain(sdkExample);
    const dir = tempDir('quarry-readme-sdk-');
    const model = writeTinyBert(path.join(dir.dir, 'model'));
    const served = await startServer({ dataDir: path.join(dir.dir, 'data'), legacy: { similarityEmbedder: { subtype: 'local', model_path: model.dir } } });
    try {
      const text = 'Cats purr softly.\n\nKittens purr too.\n\nThe stock market fell today.\n\nShares lost value.';
      const chunks = await similarityChunks(served.origin, KEYS.acme, { name: 'notes.txt', content: new TextEncoder().encode(text) });
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks.every((c) => c.type === 'CompositeElement' && /^[0-9a-f]{32}$/.test(c.element_id))).toBe(true);
      expect(chunks.map((c) => c.text).join('\n\n')).toBe(text);
    } finally {
      await served.close();
      dir.remove();
    }
  });
});
