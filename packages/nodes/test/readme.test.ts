import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine, Services, validateWorkflow } from '@quarry/core';
import { nodesPlugin, PARTITION_POOL_SERVICE, PartitionPool } from '../src/index.js';
import { partitionAndChunk } from './readme-example.js';
import { inspectDocument } from './readme-inspect-example.js';
import { vcardPlugin } from './readme-format-example.js';
import { partitionThenChunk } from './readme-helpers-example.js';
import { redactPlugin } from './readme-node-example.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('./readme-example.ts', import.meta.url)), 'utf8');
const formatExample = readFileSync(fileURLToPath(new URL('./readme-format-example.ts', import.meta.url)), 'utf8');
const helpersExample = readFileSync(fileURLToPath(new URL('./readme-helpers-example.ts', import.meta.url)), 'utf8');
const rootReadme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
const nodeExample = readFileSync(fileURLToPath(new URL('./readme-node-example.ts', import.meta.url)), 'utf8');
const inspectExample = readFileSync(fileURLToPath(new URL('./readme-inspect-example.ts', import.meta.url)), 'utf8');
const columnsPdf = fileURLToPath(new URL('../../../../shared/corpus/docs/multi-column-2p.pdf', import.meta.url));

describe('nodes README', () => {
  it('quotes the tested example verbatim', () => {
    expect(readme).toContain(example);
    expect(readme).toContain(formatExample);
    expect(readme).toContain(helpersExample);
    expect(readme).toContain(inspectExample);
    expect(rootReadme).toContain(helpersExample);
    expect(readme).toContain(nodeExample);
  });

  it('the helpers example partitions a path and bytes, and chunks by title', async () => {
    const { elements, fromBytes, chunks } = await partitionThenChunk(fileURLToPath(new URL('../../../examples/docs/field-guide.md', import.meta.url)));
    expect(elements[0]).toMatchObject({ type: 'Title', text: 'Quarry Field Guide', metadata: { filename: 'field-guide.md' } });
    expect(fromBytes[0]).toMatchObject({ type: 'Title', text: 'Quarry Field Guide', metadata: { filename: 'guide.md', filetype: 'text/markdown' } });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.text.length <= 300)).toBe(true);
  });

  it('the node example declares its own rule, which workflow validation runs', async () => {
    const engine = createEngine().use(nodesPlugin).use(redactPlugin);
    const body = (partition: Record<string, unknown>) => ({
      name: 'w',
      workflow_type: 'custom',
      workflow_nodes: [
        { name: 'P', type: 'partition', ...partition },
        { name: 'Redact', type: 'prompter', subtype: 'redact', settings: { words: ['secret'] } },
      ],
    });
    const vlm = validateWorkflow(body({ subtype: 'vlm', settings: { is_dynamic: false } }), { registry: engine.registry });
    expect(vlm.problems).toEqual([
      {
        code: 'enrichment.not_allowed_with_vlm',
        path: '/workflow_nodes/1',
        message: '"Redact" (workflow_nodes/1) cannot redact the HTML of a VLM partitioner',
      },
    ]);
    const plan = engine.build(body({ subtype: 'unstructured_api', settings: { strategy: 'fast' } }));
    const texts: string[] = [];
    const job = engine.run(plan, {
      source: {
        async *list() {
          yield { record_id: 'a.txt', filename: 'a.txt', data_source: {}, read: async () => new TextEncoder().encode('the secret plan') };
        },
      },
      destination: { write: async ({ elements }) => void texts.push(...elements.map((e) => e.text)) },
    });
    expect((await job.done).counts).toMatchObject({ written: 1, failed: 0 });
    expect(texts).toEqual(['the ███ plan']);
  });

  it('the format example partitions vCards in a child process, through the engine', async () => {
    const engine = createEngine().use(nodesPlugin).use(vcardPlugin);
    const plan = engine.build({
      name: 'cards',
      nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });
    const vcf = 'BEGIN:VCARD\nFN:Ada Lovelace\nEMAIL:ada@example.org\nEND:VCARD\nBEGIN:VCARD\nFN:Alan Turing\nEND:VCARD\n';
    const texts: string[] = [];
    const pool = new PartitionPool({ size: 1 });
    try {
      const job = engine.run(plan, {
        source: {
          async *list() {
            yield { record_id: 'team.vcf', filename: 'team.vcf', data_source: {}, read: async () => new TextEncoder().encode(vcf) };
          },
        },
        destination: { write: async ({ elements }) => void texts.push(...elements.map((e) => e.text)) },
        services: new Services().set(PARTITION_POOL_SERVICE, pool),
      });
      expect((await job.done).counts).toMatchObject({ written: 1, failed: 0 });
    } finally {
      await pool.close();
    }
    expect(texts).toEqual(['Ada Lovelace <ada@example.org>', 'Alan Turing']);
  }, 60_000);

  it('the example partitions and chunks a document', async () => {
    const { elements, chunks } = await partitionAndChunk(fileURLToPath(new URL('../../../examples/docs/field-guide.md', import.meta.url)));
    expect(elements[0]).toMatchObject({ type: 'Title', text: 'Quarry Field Guide', metadata: { filetype: 'text/markdown', filename: 'field-guide.md' } });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => ['CompositeElement', 'Table', 'TableChunk'].includes(c.type) && c.text.length <= 300)).toBe(true);
    expect(chunks[0]!.text.startsWith('Quarry Field Guide\n\n')).toBe(true);
  });

  it('the inspection example writes an outline report for a Markdown file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-readme-inspect-'));
    try {
      const report = path.join(dir, 'guide.html');
      const elements = await inspectDocument(fileURLToPath(new URL('../../../examples/docs/field-guide.md', import.meta.url)), report);
      const html = readFileSync(report, 'utf8');
      expect(html.match(/<li data-i=/g)).toHaveLength(elements.length);
      expect(html).toContain('shown as an outline of their parent_id hierarchy');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync(columnsPdf))('the inspection example draws a box per element of a PDF (skipped without ../shared/corpus)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-readme-inspect-'));
    try {
      const report = path.join(dir, 'paper.html');
      const elements = await inspectDocument(columnsPdf, report);
      const html = readFileSync(report, 'utf8');
      expect(html.match(/<img src="data:image\/jpeg;base64,/g)).toHaveLength(2);
      expect(html.match(/<div class="box" /g)).toHaveLength(elements.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
