import { decodeXString } from './cell-text.js';
import { walkXml } from './sax.js';

/**
 * The shared string table (`xl/sharedStrings.xml`) that cells of type `s` index: each `<si>` is
 * plain (`<t>`) or rich text (runs `<r><t>`), joined without formatting. Phonetic guides
 * (`<rPh>`, furigana over Japanese text) are not part of the text and are left out.
 */
export function readSharedStrings(xml: string): string[] {
  const strings: string[] = [];
  let inItem = false;
  let phonetic = 0;
  let inText = false;
  let item = '';
  let run = '';
  walkXml(xml, {
    open(name) {
      if (name === 'si') {
        inItem = true;
        item = '';
      } else if (name === 'rPh') phonetic++;
      else if (name === 't' && inItem && phonetic === 0) {
        inText = true;
        run = '';
      }
    },
    close(name) {
      if (name === 't' && inText) {
        inText = false;
        item += decodeXString(run);
      } else if (name === 'rPh') phonetic--;
      else if (name === 'si' && inItem) {
        inItem = false;
        strings.push(item);
      }
    },
    text(text) {
      if (inText) run += text;
    },
  });
  return strings;
}
