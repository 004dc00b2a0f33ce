import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { retrieve } from './readme-example.js';
import { WordEmbeddings } from './support/word-embeddings.js';

const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
const example = readFileSync(fileURLToPath(new URL('./readme-example.ts', import.meta.url)), 'utf8');
const docs = fileURLToPath(new URL('../../../examples/docs/', import.meta.url));
const guide = `${docs}field-guide.md`;

describe('langchain README', () => {
  it('quotes the tested example verbatim', () => {
    expect(readme).toContain(example);
  });

  it('the retrieval example finds the section that answers the question, with its metadata', async () => {
    const { hits, failures } = await retrieve(docs, 'which chunking strategy splits on pages?', new WordEmbeddings());
    expect(failures).toEqual([]);
    expect(hits).toHaveLength(2);
    // The table that answers it, kept apart from the text around it.
    expect(hits[0]!.pageContent).toContain('chunk_by_page no yes');
    expect(hits[0]!.metadata).toMatchObject({ filename: 'field-guide.md', filetype: 'text/markdown', type: 'Table', source: guide });
    expect(hits[0]!.metadata.text_as_html).toContain('<table>');
  });
});
