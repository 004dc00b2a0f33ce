import { describe, expect, it } from 'vitest';
import { collapseKeyedMatrix, escapeHtml, htmlifyMatrix, htmlifySpannedMatrix, matrixText } from '../../../../src/partition/formats/shared/table-html.js';

describe('table-html', () => {
  it('renders a compact table with escaped text, <br/> for line feeds and <td/> for empty cells', () => {
    expect(
      htmlifyMatrix([
        ['a <b>', ''],
        ['x\ny', '  spaced   out '],
      ]),
    ).toBe('<table><tr><td>a &lt;b&gt;</td><td/></tr><tr><td>x<br/>y</td><td>spaced out</td></tr></table>');
  });

  it('skips rows without cells and gives an empty string for an empty matrix', () => {
    expect(htmlifyMatrix([[], ['a']])).toBe('<table><tr><td>a</td></tr></table>');
    expect(htmlifyMatrix([])).toBe('');
  });

  it('escapes quotes like Python html.escape', () => {
    expect(escapeHtml(`"it's" & more`)).toBe('&quot;it&#x27;s&quot; &amp; more');
  });

  it('collapses merged regions into colspan/rowspan and keeps fully covered rows', () => {
    const a = {};
    const m = collapseKeyedMatrix([
      [
        ['a', a],
        ['a', a],
      ],
      [
        ['a', a],
        ['a', a],
      ],
      [
        ['c', 1],
        ['d', 2],
      ],
    ]);
    expect(m).toEqual([
      [{ text: 'a', colspan: 2, rowspan: 2 }],
      [],
      [
        { text: 'c', colspan: 1, rowspan: 1 },
        { text: 'd', colspan: 1, rowspan: 1 },
      ],
    ]);
    expect(htmlifySpannedMatrix(m)).toBe('<table><tr><td colspan="2" rowspan="2">a</td></tr><tr></tr><tr><td>c</td><td>d</td></tr></table>');
  });

  it('joins non-empty cell texts with single spaces', () => {
    expect(
      matrixText([
        ['a', ''],
        ['b  c', '\n'],
      ]),
    ).toBe('a b c');
  });
});
