import { describe, expect, it } from 'vitest';
import { orgBlocks } from '../../../src/partition/formats/org.js';
import { rstBlocks } from '../../../src/partition/formats/rst.js';
import { partitionFixture, typesAndTexts } from './fixtures.js';

// unstructured's README.rst and README.org hold the same document.
const README: Array<[string, string]> = [
  ['Title', 'Example Docs'],
  ['NarrativeText', 'The sample docs directory contains the following files:'],
  ['ListItem', 'example-10k.html - A 10-K SEC filing in HTML format'],
  ['ListItem', 'layout-parser-paper.pdf - A PDF copy of the layout parser paper'],
  ['ListItem', 'factbook.xml/factbook.xsl - Example XML/XLS files that you can use to test stylesheets'],
  [
    'NarrativeText',
    'These documents can be used to test out the parsers in the library. In addition, here are instructions for pulling in some sample docs that are too big to store in the repo.',
  ],
  ['Title', 'XBRL 10-K'],
  [
    'NarrativeText',
    'You can get an example 10-K in inline XBRL format using the following curl. Note, you need to have the user agent set in the header or the SEC site will reject your request.',
  ],
];

describe('rst partitioner', () => {
  it("reads the Python library unstructured's README.rst into Titles, NarrativeText, ListItems and the code block", async () => {
    const elements = await partitionFixture('unstructured-readme.rst');
    expect(typesAndTexts(elements).slice(0, README.length)).toEqual(README);
    expect(elements[README.length]!.text).toMatch(/^curl -O \\\n {2}-A/u);
    expect(elements.at(-1)!.text).toBe('You can parse this document using the HTML parser.');
    expect(elements[6]!.metadata.parent_id).toBe(elements[0]!.element_id);
    for (const el of elements) expect(el.metadata.filetype).toBe('text/x-rst');
  });

  it('reads overlined titles, enumerated lists, grid and simple tables, and skips comments', () => {
    const rst = [
      '=====',
      'Guide',
      '=====',
      '',
      '.. a comment',
      '',
      '1. cut',
      '2. split',
      '',
      '+------+-----+',
      '| rock | t   |',
      '+======+=====+',
      '| slate| 3   |',
      '+------+-----+',
      '',
      '====  ===',
      'a     b',
      '====  ===',
      '1     2',
      '====  ===',
      '',
    ].join('\n');
    expect(rstBlocks(rst)).toEqual([
      { kind: 'heading', level: 1, text: 'Guide' },
      { kind: 'list', ordered: true, items: ['cut', 'split'] },
      {
        kind: 'table',
        rows: [
          ['rock', 't'],
          ['slate', '3'],
        ],
        header: true,
      },
      {
        kind: 'table',
        rows: [
          ['a', 'b'],
          ['1', '2'],
        ],
        header: true,
      },
    ]);
  });
});

describe('org partitioner', () => {
  it("reads the Python library unstructured's README.org like the same document in reStructuredText", async () => {
    const elements = await partitionFixture('unstructured-readme.org');
    expect(typesAndTexts(elements).slice(0, README.length)).toEqual(
      README.map(([t, s]) => [t, s.replace('factbook.xml/factbook.xsl', 'factbook.xml / factbook.xsl')]),
    );
    expect(elements.at(-1)!.text).toBe('You can parse this document using the HTML parser.');
    for (const el of elements) expect(el.metadata.filetype).toBe('text/org');
  });

  it('takes TODO keywords and tags off headlines, skips drawers and settings, and reads tables with a header', () => {
    const org = [
      '#+TITLE: Site log',
      '* TODO Cut the north face :work:',
      ':PROPERTIES:',
      ':ID: 42',
      ':END:',
      '| rock | t |',
      '|------+---|',
      '| slate | 3 |',
      '- [X] drill',
      '- split',
    ].join('\n');
    expect(orgBlocks(org)).toEqual([
      { kind: 'heading', level: 1, text: 'Site log' },
      { kind: 'heading', level: 1, text: 'Cut the north face' },
      {
        kind: 'table',
        rows: [
          ['rock', 't'],
          ['slate', '3'],
        ],
        header: true,
      },
      { kind: 'list', ordered: false, items: ['drill', 'split'] },
    ]);
  });
});
