import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

// A font that ships inside pdfjs-dist (Latin and Cyrillic), so test images do not depend on system fonts.
const require = createRequire(import.meta.url);
const fontFile = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');
let registered = false;

/** A white PNG with black lines of text, 48 px high, starting at (40, 40): a scan for OCR tests. */
export async function textImage(lines: readonly string[], width = 1400): Promise<Uint8Array> {
  if (!registered) registered = !!GlobalFonts.registerFromPath(fontFile, 'QuarryTestSans');
  const canvas = createCanvas(width, 80 + lines.length * 70);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000';
  ctx.font = '48px QuarryTestSans';
  lines.forEach((l, i) => ctx.fillText(l, 40, 90 + i * 70));
  return canvas.encode('png');
}
