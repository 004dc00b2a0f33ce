/**
 * PDFium's font styles for text read with pdf.js. A page with right-to-left text is read with
 * pdf.js (PDFium gives such characters in drawing order), whose text layer does not tell bold from
 * regular; PDFium, reading the same page, does. Each pdf.js fragment takes the font of the PDFium
 * text drawn where it is, so headings are told by weight on these pages too.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */
import type { PageText, TextFragment } from '../layout-types.js';

/** `text` (pdf.js) with the fonts and font styles of `styled` (PDFium's reading of the same page). */
export function withFontsOf(text: PageText, styled: PageText): PageText {
  if (!styled.fonts) return text;
  const fragments = text.fragments.map((f) => {
    const font = fontAt(f, styled.fragments);
    return font ? { ...f, font } : f;
  });
  return { ...text, fragments, fonts: styled.fonts };
}

/** The font of most of the characters PDFium drew inside fragment `f` (same direction), if any. */
function fontAt(f: TextFragment, styled: readonly TextFragment[]): string | undefined {
  const chars = new Map<string, number>();
  for (const s of styled) {
    if (s.dir !== f.dir) continue;
    const cx = (s.x0 + s.x1) / 2;
    const cy = (s.top + s.bottom) / 2;
    if (cx < f.x0 || cx > f.x1 || cy < f.top || cy > f.bottom) continue;
    chars.set(s.font, (chars.get(s.font) ?? 0) + s.text.length);
  }
  let best: string | undefined;
  let most = 0;
  for (const [font, n] of chars) {
    if (n > most) {
      best = font;
      most = n;
    }
  }
  return best;
}
