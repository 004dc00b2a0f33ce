import { describe, expect, it } from 'vitest';
import { formatHtml } from '../../../src/partition/vlm/format-html.js';
import { pageFeatures, routePage } from '../../../src/partition/vlm/auto-router.js';

describe('formatHtml', () => {
  const html = '<table>\n <tr> <td colspan="2">a &amp; b</td></tr>\n</table>';
  it('prettifies one row and cell per line', () => {
    expect(formatHtml(html, true)).toBe('<table>\n  <tr>\n    <td colspan="2">a &amp; b</td>\n  </tr>\n</table>');
  });
  it('compacts whitespace between tags when not prettifying', () => {
    expect(formatHtml(html, false)).toBe('<table><tr><td colspan="2">a &amp; b</td></tr></table>');
  });
});

describe('routePage', () => {
  const letter = { width: 612, height: 792 };
  const dyn = { dynamic: true, allowFast: true };
  it('sends a page without a text layer to vlm', () => {
    expect(routePage(pageFeatures(1, { ...letter, textChars: 0, badChars: 0 }, [], 0), dyn)).toMatchObject({ route: 'vlm', score: 1, reason: 'no_text_layer' });
  });
  it('sends a page of broken glyphs to vlm', () => {
    expect(routePage(pageFeatures(1, { ...letter, textChars: 100, badChars: 400 }, [], 0), dyn).route).toBe('vlm');
  });
  it('sends a text page with a table or a small image to hi_res, and plain text to fast only when allowed', () => {
    expect(routePage(pageFeatures(1, { ...letter, textChars: 2000, badChars: 0 }, [], 1), dyn).route).toBe('hi_res');
    expect(routePage(pageFeatures(1, { ...letter, textChars: 2000, badChars: 0 }, [{ x0: 0, y0: 0, x1: 100, y1: 100 }], 0), dyn).route).toBe('hi_res');
    expect(routePage(pageFeatures(1, { ...letter, textChars: 2000, badChars: 0 }, [], 0), dyn)).toMatchObject({ route: 'fast', score: 1 });
    expect(routePage(pageFeatures(1, { ...letter, textChars: 2000, badChars: 0 }, [], 0), { dynamic: true, allowFast: false }).route).toBe('hi_res');
    expect(routePage(pageFeatures(1, { ...letter, textChars: 2000, badChars: 0 }, [], 0), { dynamic: false, allowFast: false }).route).toBe('vlm');
  });
  it('sends a page dominated by a picture to vlm even with a text layer', () => {
    expect(routePage(pageFeatures(1, { ...letter, textChars: 2000, badChars: 0 }, [{ x0: 0, y0: 0, x1: 612, y1: 700 }], 0), dyn).route).toBe('vlm');
  });
});
