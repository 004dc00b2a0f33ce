import { describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { rtfBlocks } from '../../../src/partition/formats/rtf.js';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { partitionFixture, typesAndTexts } from './fixtures.js';

describe('rtf partitioner', () => {
  it("reads the Python library unstructured's fake-doc.rtf: an outline-level heading, paragraphs and a table", async () => {
    const elements = await partitionFixture('unstructured-fake-doc.rtf');
    expect(elements[0]).toMatchObject({ type: 'Title', text: 'My First Heading' });
    expect(elements.map((e) => e.text)).toContain('My first paragraph.');
    const table = elements.find((e) => e.type === 'Table')!;
    expect(table.text).toBe('Column 1 Column 2 Row 1, Cell 1 Row 1, Cell 2 Row 2, Cell 1 Row 2, Cell 2');
    expect(table.metadata.text_as_html).toBe(
      '<table><tr><td>Column 1</td><td>Column 2</td></tr><tr><td>Row 1, Cell 1</td><td>Row 1, Cell 2</td></tr><tr><td>Row 2, Cell 1</td><td>Row 2, Cell 2</td></tr></table>',
    );
    for (const el of elements) expect(el.metadata.filetype).toBe('text/rtf');
  });

  it('reads an RTF written by LibreOffice: heading styles, list items, a table and paragraphs in order', async () => {
    const elements = await partitionFixture('quarry-report.rtf');
    expect(typesAndTexts(elements)).toEqual([
      ['Title', 'North Face Quarry Report'],
      ['NarrativeText', 'The north face was cut in spring, and the granite blocks were graded before shipping.'],
      ['Title', 'Equipment'],
      ['ListItem', 'Wire saw for the primary cuts'],
      ['ListItem', 'Hydraulic splitter for the secondary blocks'],
      ['Title', 'Output by stone'],
      ['Table', 'Stone Tonnes Granite 120 Marble 75'],
      ['NarrativeText', 'Shipments leave the yard every Monday morning, weather permitting.'],
    ]);
    // Sections nest under the document title.
    expect(elements[2]!.metadata.parent_id).toBe(elements[0]!.element_id);
  });

  it('decodes code-page bytes and \\u escapes, and leaves fonts, styles and field codes out', () => {
    const rtf =
      String.raw`{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}{\stylesheet{\s0 Normal;}{\s1 heading 1;}}` +
      String.raw`\pard\s1 Caf\'e9 notes\par\pard\s0 Price \u8364? 12 {\field{\*\fldinst HYPERLINK "x"}{\fldrslt site}}\par}`;
    expect(rtfBlocks(rtf, 'n.rtf')).toEqual([
      { kind: 'heading', level: 1, text: 'Café notes' },
      { kind: 'paragraph', text: 'Price € 12 site' },
    ]);
  });

  it('takes only numbered or bulleted paragraphs for list items, not every paragraph marked list level 0', () => {
    const rtf = String.raw`{\rtf1\ansi\pard\ilvl0 A plain paragraph.\par\pard\ls1\ilvl0{\listtext\'95\tab}An item.\par\pard{\pntext 1.\tab}Another item.\par}`;
    expect(rtfBlocks(rtf, 'l.rtf')).toEqual([
      { kind: 'paragraph', text: 'A plain paragraph.' },
      { kind: 'list', ordered: false, items: ['An item.', 'Another item.'] },
    ]);
  });

  it('fails alone with a coded error naming the file for bytes that are not RTF', async () => {
    const err = await partitionFile(new TextEncoder().encode('just words, no RTF header'), { filename: 'broken.rtf' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({ code: 'FILE_UNREADABLE' });
    expect((err as Error).message).toContain('broken.rtf');
  });
});
