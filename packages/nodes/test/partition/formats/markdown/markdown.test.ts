import { describe, expect, it } from 'vitest';
import { markdownPartitioner, partitionMarkdownString } from '../../../../src/partition/formats/markdown/index.js';
import { partitionFile } from '../../../../src/partition/partition-file.js';
import { formatOptions, utf8 } from '../../format-options.js';
import { corpusBytes, expectedElements, hasCorpus, tokenF1, typeAgreement } from '../../reference-metrics.js';

describe('partitionMarkdownString', () => {
  it('maps headings, paragraphs, nested lists and fenced code', () => {
    const md = [
      '# Project Guide',
      '',
      'This guide explains how the project is built and tested.',
      '',
      '## Steps',
      '',
      '- Install the *dependencies*',
      '  1. Run the installer',
      '- Build the **project**',
      '',
      '```bash',
      'npm install',
      'npm test',
      '```',
      '',
      '> Quoted text is read like any other paragraph of the document.',
    ].join('\n');
    const out = partitionMarkdownString(md);
    expect(out.map((e) => [e.type, e.text, e.metadata.category_depth])).toEqual([
      ['Title', 'Project Guide', 0],
      ['NarrativeText', 'This guide explains how the project is built and tested.', undefined],
      ['Title', 'Steps', 1],
      ['ListItem', 'Install the dependencies', 1],
      ['ListItem', 'Run the installer', 2],
      ['ListItem', 'Build the project', 1],
      ['CodeSnippet', 'npm install\nnpm test', undefined],
      ['NarrativeText', 'Quoted text is read like any other paragraph of the document.', undefined],
    ]);
    expect(out[3]!.metadata.emphasized_text_contents).toEqual(['dependencies']);
    expect(out[3]!.metadata.emphasized_text_tags).toEqual(['i']);
  });

  it('keeps the items of a loose list (blank lines between items) as list items', () => {
    const out = partitionMarkdownString('- The first item is a sentence.\n\n- The second item is another one.\n');
    expect(out.map((e) => [e.type, e.text, e.metadata.category_depth])).toEqual([
      ['ListItem', 'The first item is a sentence.', 1],
      ['ListItem', 'The second item is another one.', 1],
    ]);
  });

  it('turns a pipe table into a Table with text_as_html', () => {
    const out = partitionMarkdownString('| Team | Cups |\n|------|-----:|\n| Blues | 1 |\n| Leafs | 13 |\n');
    expect(out).toHaveLength(1);
    expect(out[0]!.type).toBe('Table');
    expect(out[0]!.text).toBe('Team Cups Blues 1 Leafs 13');
    expect(out[0]!.metadata.text_as_html).toBe(
      '<table><tr><td>Team</td><td>Cups</td></tr><tr><td>Blues</td><td>1</td></tr><tr><td>Leafs</td><td>13</td></tr></table>',
    );
  });

  it('keeps link annotations', () => {
    const [el] = partitionMarkdownString('See [the docs](https://example.com/docs) for the details of the setup.');
    expect(el!.metadata.link_texts).toEqual(['the docs']);
    expect(el!.metadata.link_urls).toEqual(['https://example.com/docs']);
  });

  it('returns nothing for blank input', async () => {
    expect(await markdownPartitioner.partition(utf8('\n  \n'), formatOptions({ filetype: 'text/markdown' }))).toEqual([]);
  });
});

describe.skipIf(!hasCorpus)('Markdown corpus documents (skipped without /work/shared/corpus)', () => {
  it('README.md reaches token F1 >= 0.95 and type agreement >= 0.9', async () => {
    const expected = expectedElements('README.md');
    const got = await partitionFile(corpusBytes('README.md'), { filename: 'README.md' });
    const f1 = tokenF1(got, expected);
    const agreement = typeAgreement(got, expected);
    console.log(`README.md: F1 ${f1.toFixed(4)}, type agreement ${agreement.toFixed(4)} (${got.length}/${expected.length} elements)`);
    expect(f1).toBeGreaterThanOrEqual(0.95);
    expect(agreement).toBeGreaterThanOrEqual(0.9);
    expect(got.every((e) => e.metadata.filetype === 'text/markdown')).toBe(true);
  });

  it('codeblock.md yields its headings and three code snippets', async () => {
    const got = await partitionFile(corpusBytes('codeblock.md'), { filename: 'codeblock.md' });
    expect(got.map((e) => e.type)).toEqual(['Title', 'CodeSnippet', 'Title', 'CodeSnippet', 'CodeSnippet']);
    expect(got[1]!.text).toContain('<h1>Hello, World!</h1>');
  });
});
