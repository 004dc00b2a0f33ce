import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { partitionAndChunk } from './readme-example.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('./readme-example.ts', import.meta.url)), 'utf8');

describe('nodes README', () => {
  it('quotes the tested example verbatim', () => {
    expect(readme).toContain(example);
  });

  it('the example partitions and chunks a document', async () => {
    const { elements, chunks } = await partitionAndChunk(fileURLToPath(new URL('../../../examples/docs/field-guide.md', import.meta.url)));
    expect(elements[0]).toMatchObject({ type: 'Title', text: 'Quarry Field Guide', metadata: { filetype: 'text/markdown', filename: 'field-guide.md' } });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => ['CompositeElement', 'Table', 'TableChunk'].includes(c.type) && c.text.length <= 300)).toBe(true);
    expect(chunks[0]!.text.startsWith('Quarry Field Guide\n\n')).toBe(true);
  });
});
