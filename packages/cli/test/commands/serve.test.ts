import { readFile, writeFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveCommand, similarityEmbedderOption } from '../../src/commands/serve.js';
import { writeTinyBert } from '../../../nodes/test/support/tiny-bert.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('quarry serve', () => {
  it('serves the API with keys from a keys file, and keeps data across restarts', async () => {
    const keysFile = path.join(dir, 'keys');
    await writeFile(keysFile, 'serve-test-key-1=acme\n');
    const dataDir = path.join(dir, 'data');
    const first = await serveCommand({ port: 0, host: '127.0.0.1', dataDir, keysFile, logLevel: 'warn' });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const headers = { 'service-api-key': 'serve-test-key-1', 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/workflows`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'served',
        workflow_type: 'custom',
        workflow_nodes: [{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      }),
    });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${first.url}/workflows`)).status).toBe(401);
    await first.close();
    await first.closed;

    const second = await serveCommand({ port: 0, host: '127.0.0.1', dataDir, keysFile, logLevel: 'warn' });
    const got = await fetch(`${second.url}/workflows/${id}`, { headers });
    expect(((await got.json()) as { name: string }).name).toBe('served');
    await second.close();
  });

  it('generates a private keys file in the data directory when no keys are configured', async () => {
    const saved = process.env.QUARRY_API_KEYS;
    delete process.env.QUARRY_API_KEYS;
    try {
      const dataDir = path.join(dir, 'fresh');
      const h = await serveCommand({ port: 0, dataDir, logLevel: 'warn' });
      const line = (await readFile(path.join(dataDir, 'api-keys'), 'utf8')).split('\n').find((l) => l.endsWith('=default'))!;
      const key = line.slice(0, -'=default'.length);
      const res = await fetch(`${h.url}/templates`, { headers: { 'service-api-key': key } });
      expect(res.status).toBe(200);
      await h.close();
    } finally {
      if (saved !== undefined) process.env.QUARRY_API_KEYS = saved;
    }
  });

  it('serves by_similarity on the legacy endpoint with --similarity-embedder, and checks the model flags', async () => {
    const keysFile = path.join(dir, 'keys-sim');
    await writeFile(keysFile, 'serve-test-key-2=acme\n');
    const model = writeTinyBert(path.join(dir, 'tiny-bert'));
    const h = await serveCommand({ port: 0, dataDir: path.join(dir, 'sim'), keysFile, logLevel: 'warn', similarityEmbedder: model.dir });
    try {
      const form = new FormData();
      form.append('files', new Blob(['Cats purr.\n\nKittens purr too.\n\nMarkets fell.']), 'notes.txt');
      form.append('chunking_strategy', 'by_similarity');
      const res = await fetch(h.url.replace('/api/v1', '/general/v0/general'), {
        method: 'POST',
        headers: { 'unstructured-api-key': 'serve-test-key-2' },
        body: form,
      });
      expect(res.status).toBe(200);
      const chunks = (await res.json()) as Array<{ type: string; element_id: string }>;
      expect(chunks.every((c) => c.type === 'CompositeElement' && /^[0-9a-f]{32}$/.test(c.element_id))).toBe(true);
    } finally {
      await h.close();
    }
    expect(similarityEmbedderOption('{"subtype": "openai", "model_name": "text-embedding-3-small"}')).toEqual({
      subtype: 'openai',
      model_name: 'text-embedding-3-small',
    });
    expect(similarityEmbedderOption('models/mini')).toEqual({ subtype: 'local', model_path: path.resolve('models/mini') });
    expect(() => similarityEmbedderOption('{"model_name": "x"}')).toThrow(/needs a "subtype"/);
    await expect(serveCommand({ port: 0, dataDir: path.join(dir, 'bad-vlm'), vlmProvider: 'acme' })).rejects.toThrow(/--vlm-provider must be/);
    await expect(serveCommand({ port: 0, dataDir: path.join(dir, 'bad-vlm'), vlmModel: 'gpt-4o' })).rejects.toThrow(/need --vlm-provider/);
    await expect(serveCommand({ port: 0, dataDir: path.join(dir, 'bad-sim'), similarityEmbedder: path.join(dir, 'no-such-model') })).rejects.toThrow(
      /no such directory/,
    );
  });

  it('rejects an invalid port', async () => {
    await expect(serveCommand({ port: 'eighty', dataDir: path.join(dir, 'bad') })).rejects.toThrow(/--port must be an integer/);
  });
});
