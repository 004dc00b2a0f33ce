import { describe, expect, it } from 'vitest';
import { safeTableHtml } from '../../src/inspect/table-markup.js';

describe('safeTableHtml', () => {
  it('keeps table structure, numeric spans and escaped text', () => {
    expect(
      safeTableHtml(
        '<table><thead><tr><th colspan="2" class="x">A &amp; B</th></tr></thead><tbody><tr><td rowspan=3>1 &lt; 2</td><td>x</td></tr></tbody></table>',
      ),
    ).toBe('<table><thead><tr><th colspan="2">A &amp; B</th></tr></thead><tbody><tr><td rowspan="3">1 &lt; 2</td><td>x</td></tr></tbody></table>');
  });

  it('drops scripts, styles, handlers, links and non-numeric spans, and closes what was left open', () => {
    expect(
      safeTableHtml(
        '<table><tr><td colspan="2 onclick=x" onmouseover="alert(1)"><script>alert(2)</script><style>td{}</style><a href="javascript:x">link</a><img src=x onerror=alert(3)>',
      ),
    ).toBe('<table><tr><td>link</td></tr></table>');
  });

  it('ignores closing tags of elements that were never opened', () => {
    expect(safeTableHtml('</td></table><table><tr><td>a</td></tr></table></div>')).toBe('<table><tr><td>a</td></tr></table>');
  });
});
