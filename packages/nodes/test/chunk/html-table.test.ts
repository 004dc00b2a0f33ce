import { describe, expect, it } from 'vitest';
import { parseHtmlFragment, parseHtmlTable, serializeNode } from '../../src/chunk/html-table.js';

describe('parseHtmlTable', () => {
  it('compacts: drops sections, attributes (but colspan/rowspan), th and whitespace', () => {
    const table = parseHtmlTable(
      '\n <table border="1" class="dataframe">\n <thead>\n <tr><th rowspan="2"> a\n b  c </th><th/><th>def</th></tr></thead>\n' +
        ' <tbody><tr style="x"><td>gh \ti</td><td/><td>\n jk l </td></tr></tbody>\n</table>\n ',
    );
    expect(table?.html).toBe('<table><tr><td rowspan="2">a b c</td><td/><td>def</td></tr><tr><td>gh i</td><td/><td>jk l</td></tr></table>');
    expect(table?.rows.map((r) => r.cellTexts)).toEqual([
      ['a b c', 'def'],
      ['gh i', 'jk l'],
    ]);
    expect(table?.rows.map((r) => r.textLength)).toEqual(['a b c def'.length, 'gh i jk l'.length]);
  });

  it('marks rows from <thead> or holding a <th> as headers, keeping their source form', () => {
    const table = parseHtmlTable('<table><thead><tr><td class="h">H</td></tr></thead><tr><th>Row head</th><td>v</td></tr><tr><td>body</td></tr></table>');
    expect(table?.rows.map((r) => r.isHeader)).toEqual([true, true, false]);
    expect(table?.rows[0]?.headerHtml).toBe('<tr><th class="h">H</th></tr>');
  });

  it('serialises a whitespace-only cell as <td></td> and an empty one as <td/>, escaping text', () => {
    const table = parseHtmlTable('<table><tr><td>  </td><td></td><td>a &lt; b &amp; c</td></tr></table>');
    expect(table?.html).toBe('<table><tr><td></td><td/><td>a &lt; b &amp; c</td></tr></table>');
    expect(table?.rows[0]?.cells.map((c) => c.html)).toEqual(['<td/>', '<td/>', '<td>a &lt; b &amp; c</td>']);
  });

  it('finds a table wrapped in other elements and uses the first one', () => {
    expect(parseHtmlTable('<div><p>x</p><table><tr><td>one</td></tr></table><table><tr><td>two</td></tr></table></div>')?.html).toBe(
      '<table><tr><td>one</td></tr></table>',
    );
  });

  it('treats HTML that is not one fragment, or has no table, as no table', () => {
    expect(parseHtmlTable('<table><tr><td>a</td></tr></table><p>b</p>')).toBeUndefined();
    expect(parseHtmlTable('lead <table></table>')).toBeUndefined();
    expect(parseHtmlTable('<div><tr><td>a</td></tr></div>')).toBeUndefined();
    expect(parseHtmlTable('   ')).toBeUndefined();
    expect(parseHtmlTable('<table/>')?.html).toBe('<table/>');
  });
});

describe('serializeNode', () => {
  it('writes lxml-style XML with escaped attributes and tails', () => {
    const node = parseHtmlFragment('<p title="a &quot;b&quot;">x<br>y</p>');
    expect(node && serializeNode(node)).toBe('<p title="a &quot;b&quot;">x<br/>y</p>');
  });
});
