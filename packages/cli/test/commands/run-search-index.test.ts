import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, definePlugin, ENGINE_VERSION, MemoryStateStore, silentLogger, type Engine, type WorkflowNodeRef } from '@quarry/core';
import { connectorsPlugin, createSearchIndexDestination, localDestination, searchIndexConfig } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCommand, STATE_DIR_ENV } from '../../src/commands/run.js';
import { FakeElasticsearch } from '../../../connectors/test/support/fake-elasticsearch.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const tinyBertScript = path.resolve(repoRoot, '..', 'shared', 'tools', 'tiny-bert', 'make-tiny-bert.mjs');
const API_KEY = Buffer.from('run-id:run-key-secret').toString('base64');

let es: FakeElasticsearch;
let dir: string;
beforeAll(async () => {
  es = await new FakeElasticsearch({ credentials: { apiKeys: [API_KEY] } }).start();
});
afterAll(async () => es.stop());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-run-es-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

function docText(name: string, sections: number, tag = ''): string {
  const parts = [`# ${name} handbook${tag}`];
  for (let s = 1; s <= sections; s++) {
    parts.push(`## Section ${s} of ${name}`);
    parts.push(
      `This paragraph explains part ${s} of the ${name} process${tag}. It is long enough that several of them do not fit one chunk, so the chunker closes chunks at section titles and at the size limit.`,
    );
    parts.push(`- checklist item ${s}a\n- checklist item ${s}b`);
  }
  return `${parts.join('\n\n')}\n`;
}

async function writeInputs(input: string): Promise<void> {
  await mkdir(join(input, 'team'), { recursive: true });
  await writeFile(join(input, 'onboarding.md'), docText('onboarding', 4));
  await writeFile(join(input, 'release.md'), docText('release', 3));
  await writeFile(join(input, 'team', 'oncall.md'), docText('oncall', 5));
  await writeFile(join(input, 'notes.txt'), 'Plain notes.\n\nA second paragraph of plain text notes.\n');
}

/** Rows of the fake index by record_id, as stored (live state). */
function rowsByRecord(index: string): Map<string, Array<Record<string, unknown>>> {
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const { source } of es.indices.get(index)?.live.values() ?? []) {
    const id = String(source.record_id);
    out.set(id, [...(out.get(id) ?? []), source]);
  }
  return out;
}

/** The engine with the local embedder: registered by @quarry/nodes, or taken from its sources while it is not yet. */
async function engineWithEmbedder(): Promise<{ engine: Engine; embed: boolean }> {
  const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
  if (engine.registry.findNode('embed', 'local')) return { engine, embed: true };
  try {
    const { localEmbedNode } = (await import('../../../nodes/src/embed/index.js')) as {
      localEmbedNode: Parameters<typeof definePlugin>[0]['nodes'] extends Array<infer N> | undefined ? N : never;
    };
    engine.use(definePlugin({ name: 'test-local-embedder', engine: `^${ENGINE_VERSION}`, nodes: [localEmbedNode] }));
    return { engine, embed: true };
  } catch (e) {
    console.info(`search-index pipeline test runs without embed: the local embedder is not available (${(e as Error).message})`);
    return { engine, embed: false };
  }
}

describe('local files -> partition -> chunk_by_title -> embed(local) -> search_index', () => {
  it('writes every chunk with the SPEC mapping; re-runs keep the count; an edit replaces one record; a 429 loses nothing', async () => {
    const { engine, embed: hasEmbedder } = await engineWithEmbedder();
    const modelDir = join(dir, 'tiny-bert');
    const embed = hasEmbedder && existsSync(tinyBertScript);
    if (hasEmbedder && !embed) console.info(`search-index pipeline test runs without embed: ${tinyBertScript} is absent`);
    if (embed) execFileSync(process.execPath, [tinyBertScript, modelDir], { stdio: 'ignore' });
    const nodes: WorkflowNodeRef[] = [
      { name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } },
      { name: 'chunk', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 300 } },
      ...(embed ? [{ name: 'embed', type: 'embed' as const, subtype: 'local', settings: { model_path: modelDir } }] : []),
    ];
    const plan = engine.build({ name: 'to-search-index', nodes });
    const input = join(dir, 'in');
    await writeInputs(input);
    const index = 'handbook-chunks';
    const config = searchIndexConfig.parse({ hosts: [es.url], index_name: index, search_api_key: API_KEY, retry_initial_ms: 10 });

    /** One run to the index and, in the same job, to a local directory: the reference of what was written. */
    const state = new MemoryStateStore();
    async function run(tag: string, incremental = false): Promise<Map<string, Array<Record<string, unknown>>>> {
      const ctx = { logger: silentLogger, signal: new AbortController().signal };
      const out = join(dir, `local-${tag}`);
      const job = engine.run(plan, {
        source: { type: 'local', config: { path: input } },
        destination: [await createSearchIndexDestination(config, ctx), await localDestination.create({ path: out, format: 'json', indent: 0 }, ctx)],
        logger: silentLogger,
        state,
        reprocessAll: !incremental,
      });
      const summary = await job.done;
      expect(summary.status).toBe('COMPLETED');
      expect(summary.counts).toMatchObject(incremental ? { total: 4, written: 1, skipped: 3, failed: 0 } : { total: 4, written: 4, failed: 0 });
      const local = new Map<string, Array<Record<string, unknown>>>();
      for (const f of await readdir(out, { recursive: true })) {
        if (!f.endsWith('.json')) continue;
        local.set(f.slice(0, -'.json'.length).split(path.sep).join('/'), JSON.parse(await readFile(join(out, f), 'utf8')) as Array<Record<string, unknown>>);
      }
      return local;
    }

    function expectIndexHolds(local: Map<string, Array<Record<string, unknown>>>): void {
      const stored = rowsByRecord(index);
      expect([...stored.keys()].sort()).toEqual([...local.keys()].sort());
      for (const [recordId, chunks] of local) {
        const rows = stored.get(recordId)!;
        const view = (list: Array<Record<string, unknown>>) =>
          list.map((e) => [e.element_id, e.type, e.text, e.embeddings ?? null]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
        expect(view(rows)).toEqual(view(chunks));
        for (const row of rows) expect(Object.keys(row.metadata as object)).toEqual(expect.arrayContaining(['filename', 'filetype']));
      }
    }

    const first = await run('1');
    const total = [...first.values()].reduce((n, l) => n + l.length, 0);
    expect(total).toBeGreaterThan(8);
    expect(es.indices.get(index)!.live.size).toBe(total);
    expectIndexHolds(first);
    const mapping = es.indices.get(index)!.mappings.properties;
    expect(mapping.record_id).toMatchObject({ type: 'text', fields: { keyword: { type: 'keyword' } } });
    expect(mapping.type).toMatchObject({ type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } });
    if (embed) {
      expect(mapping.embeddings).toMatchObject({ type: 'dense_vector', index: true, similarity: 'cosine', dims: 32 });
      for (const chunks of first.values()) for (const c of chunks) expect((c.embeddings as number[]).length).toBe(32);
    } else {
      expect(mapping.embeddings).toBeUndefined();
    }

    const second = await run('2');
    expect(es.indices.get(index)!.live.size).toBe(total);
    expectIndexHolds(second);

    // An incremental run: only the edited file is processed, and only its records change.
    const before = rowsByRecord(index);
    await writeFile(join(input, 'release.md'), docText('release', 1, ' (revised)'));
    const third = await run('3', true);
    expect([...third.keys()]).toEqual(['release.md']);
    expectIndexHolds(new Map([...second, ...third]));
    const after = rowsByRecord(index);
    expect(after.get('release.md')!.length).toBeLessThan(before.get('release.md')!.length);
    expect(after.get('release.md')!.every((r) => String(r.text).includes('revised') || String(r.text).includes('checklist'))).toBe(true);
    for (const id of ['onboarding.md', 'team/oncall.md', 'notes.txt']) expect(after.get(id)).toEqual(before.get(id));

    // A whole bulk answered 429, then some items of the retried request: nothing is lost.
    es.failBulkRequest(es.bulkCount + 1, 429);
    es.rejectBulkItems(es.bulkCount + 2, [0, 2, 3], 429);
    const fourth = await run('4');
    expectIndexHolds(fourth);
    expect(es.indices.get(index)!.live.size).toBe([...fourth.values()].reduce((n, l) => n + l.length, 0));
  });
});

describe('quarry run --destination / --source CONNECTOR.json', () => {
  const workflow = {
    name: 'cli-es',
    workflow_type: 'custom',
    workflow_nodes: [
      { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } },
      { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 300 } },
    ],
  };

  async function cli(args: { wf: string } & Parameters<typeof runCommand>[1]) {
    const out: string[] = [];
    // The command sets the exit code; the test worker's own is put back after.
    const exitCodeBefore = process.exitCode;
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      out.push(String(s));
      return true;
    });
    process.env[STATE_DIR_ENV] = join(dir, 'state');
    try {
      const { wf, ...opts } = args;
      await runCommand(wf, opts);
      return { stdout: out.join(''), code: process.exitCode };
    } finally {
      spy.mockRestore();
      delete process.env[STATE_DIR_ENV];
      process.exitCode = exitCodeBefore;
    }
  }

  async function files(): Promise<{ wf: string; connector: string; input: string }> {
    const wf = join(dir, 'wf.json');
    await writeFile(wf, JSON.stringify(workflow));
    const connector = join(dir, 'connector.json');
    await writeFile(
      connector,
      JSON.stringify({ name: 'my-index', type: 'search_index', config: { hosts: [es.url], index_name: 'cli-run', search_api_key: API_KEY } }),
    );
    const input = join(dir, 'in');
    await writeInputs(input);
    return { wf, connector, input };
  }

  it('runs a workflow from a directory into the search index of a connector create body', async () => {
    const { wf, connector, input } = await files();
    const r = await cli({ wf, input, destination: connector, concurrency: 2, progress: false });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^COMPLETED: 4 written, 0 failed, 0 unchanged, 0 stopped of 4 documents; (\\d+) elements in .* -> search_index index "cli-run" at ${es.url}`),
    );
    const elements = Number(/; (\d+) elements/.exec(r.stdout)![1]);
    expect(es.indices.get('cli-run')!.live.size).toBe(elements);
    const again = await cli({ wf, input, destination: connector, concurrency: 2, progress: false });
    expect(again.code).toBe(0);
    expect(es.indices.get('cli-run')!.live.size).toBe(elements);
  });

  it('reads a search index (--source) and writes local outputs', async () => {
    const { wf } = await files();
    const headers = { authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/x-ndjson' };
    const body = [
      [{ index: { _id: 'n1' } }, { title: 'Incident review', body: 'The outage lasted ten minutes.' }],
      [{ index: { _id: 'n2' } }, { title: 'Design notes', body: 'We keep one index per tenant.' }],
    ]
      .map(([a, d]) => `${JSON.stringify(a)}\n${JSON.stringify(d)}\n`)
      .join('');
    await fetch(`${es.url}/articles/_bulk?refresh=true`, { method: 'POST', headers, body });
    const src = join(dir, 'source.json');
    await writeFile(
      src,
      JSON.stringify({ name: 'articles', type: 'search_index', config: { hosts: [es.url], index_name: 'articles', search_api_key: API_KEY } }),
    );
    const out = join(dir, 'out');
    const r = await cli({ wf, source: src, output: out, concurrency: 2, progress: false });
    expect(r.code).toBe(0);
    expect((await readdir(out)).filter((f) => f.endsWith('.json')).sort()).toEqual(['articles-n1.json', 'articles-n2.json']);
    const n1 = JSON.parse(await readFile(join(out, 'articles-n1.json'), 'utf8')) as Array<{
      text: string;
      metadata: { filename: string; data_source: { record_locator: unknown } };
    }>;
    expect(n1.map((e) => e.text).join('\n')).toContain('The outage lasted ten minutes.');
    expect(n1[0]!.metadata.filename).toBe('articles-n1.txt');
    expect(n1[0]!.metadata.data_source.record_locator).toEqual({ hosts: [es.url], index_name: 'articles', document_id: 'n1' });
  });

  it('reports every problem of a connector file in one line', async () => {
    const { wf, input } = await files();
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ name: '', type: 'warehouse', config: { hosts: [], search_api_key: 'k' } }));
    const e = await cli({ wf, input, destination: bad, concurrency: 1, progress: false }).catch((x: unknown) => x as Error);
    expect((e as Error).message).toBe(
      `${bad}: /name: a non-empty string is required; /type: expected "search_index", got "warehouse"; /config/hosts: Too small: expected array to have >=1 items; /config/index_name: Invalid input: expected string, received undefined`,
    );
    expect((e as Error).message.split('\n')).toHaveLength(1);
  });

  it('needs exactly one source and one destination', async () => {
    const { wf, connector, input } = await files();
    await expect(cli({ wf, input, source: connector, destination: connector, concurrency: 1, progress: false })).rejects.toThrow(
      'run: give one of --input DIR or --source CONNECTOR.json',
    );
    await expect(cli({ wf, input, concurrency: 1, progress: false })).rejects.toThrow('run: give one of --output DIR or --destination CONNECTOR.json');
  });
});
