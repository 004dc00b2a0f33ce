import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, MemoryStateStore, type Element, type Flow } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { writeTinyBert } from '../../packages/nodes/test/support/tiny-bert.js';
import { embedWorkflow } from '../embed-workflow.mjs';

const docs = resolve(fileURLToPath(new URL('../docs', import.meta.url)));
let dir: string;
afterAll(async () => dir && rm(dir, { recursive: true, force: true }));

describe('examples/workflows/local-embed.json (npm run demo -- --embed-model DIR)', () => {
  it('partitions, chunks by title and embeds every chunk with the local model', async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-embed-demo-'));
    const model = join(dir, 'model');
    writeTinyBert(model, { hidden: 32 });
    const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
    const plan = engine.build(embedWorkflow(model));
    const written = new Map<string, Element[]>();
    const summary = await engine.run(plan, {
      source: { type: 'local', config: { path: docs, exclude: ['generated/**'] } },
      destination: {
        async write(flow: Flow) {
          written.set(flow.document.record_id, flow.elements);
        },
      },
      state: new MemoryStateStore(),
    }).done;
    expect(summary.failures).toEqual([]);
    expect(summary.counts.written).toBe(6);
    const chunks = [...written.values()].flat();
    expect(chunks.length).toBeGreaterThan(6);
    for (const c of chunks) {
      expect(['CompositeElement', 'Table', 'TableChunk']).toContain(c.type);
      expect(c.embeddings).toHaveLength(32);
      expect(c.text.length).toBeLessThanOrEqual(800);
    }
  });
});
