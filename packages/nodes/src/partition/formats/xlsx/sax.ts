import { SaxesParser } from 'saxes';

/** What a streaming walk over an XML part is told: elements by local name, and text. */
export interface SaxHandlers {
  open(local: string, attributes: Readonly<Record<string, string>>): void;
  close(local: string): void;
  /** Character data, CDATA included, entities decoded. */
  text(text: string): void;
}

const localName = (name: string): string => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Walks an XML part element by element without building a tree: a worksheet's cells cost what
 * quarry keeps of them, not a node per element. Names are local (`x:c` and `c` alike: some writers
 * prefix SpreadsheetML). Throws the parser's error for malformed XML; callers word it.
 */
export function walkXml(xml: string, handlers: SaxHandlers): void {
  // Namespace resolution off: saxes would walk every open element per name; the walkers here
  // track the few elements they read by local name.
  const parser = new SaxesParser({ xmlns: false, position: false });
  // Stop at the first error: the rest of a malformed part is not worth walking.
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => handlers.open(localName(tag.name), tag.attributes as Record<string, string>));
  parser.on('closetag', (tag) => handlers.close(localName(tag.name)));
  parser.on('text', handlers.text);
  parser.on('cdata', handlers.text);
  parser.write(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml).close();
}
