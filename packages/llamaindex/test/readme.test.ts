import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TextNode } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { retrieve } from './readme-example.js';
import { WordEmbedding } from './support/word-embedding.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('./readme-example.ts', import.meta.url)), 'utf8');
const docs = fileURLToPath(new URL('../../../examples/docs/', import.meta.url));
const guide = `${docs}field-guide.md`;

describe('llamaindex README', () => {
  it('quotes the tested example verbatim', () => {
    expect(readme).toContain(example);
  });

  it('the retrieval example finds the table that answers the question, with its metadata', async () => {
    const { hits, failures } = await retrieve(docs, 'which chunking strategy splits on pages?', new WordEmbedding());
    expect(failures).toEqual([]);
    expect(hits).toHaveLength(2);
    const top = hits[0]!.node as TextNode;
    expect(top).toBeInstanceOf(TextNode);
    expect(top.text).toContain('chunk_by_page no yes');
    expect(top.metadata).toMatchObject({
      filename: 'field-guide.md',
      filetype: 'text/markdown',
      type: 'Table',
      source: guide,
      file_path: guide,
      file_name: 'field-guide.md',
    });
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score!);
  });
});
