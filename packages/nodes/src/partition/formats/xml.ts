import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';
import type { Element } from '@quarry/core';
import { quarryError } from '@quarry/core/errors';
import type { FormatPartitioner } from '../types.js';
import { decodeText } from './shared/decode-text.js';
import { elementFromText } from '../text-classify.js';
import { newElement } from './shared/new-element.js';

/**
 * Decodes an XML document: a byte-order mark, else the encoding named in the XML declaration, else
 * the partition's `encoding` setting.
 */
export function decodeXml(bytes: Uint8Array, fallbackEncoding: string): string {
  const hasBom = (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!hasBom) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
    const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
    if (declared && iconv.encodingExists(declared) && !/^utf-?8$/i.test(declared)) return iconv.decode(bytes, declared);
    if (declared) return decodeText(bytes, 'utf-8');
  }
  return decodeText(bytes, fallbackEncoding);
}

/** Entities declared in an internal DTD subset (`<!ENTITY name "value">`), which saxes does not read. */
function declaredEntities(doctype: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of doctype.matchAll(/<!ENTITY\s+([^\s%]+)\s+(?:"([^"]*)"|'([^']*)')\s*>/g)) out[m[1]!] = m[2] ?? m[3] ?? '';
  return out;
}

/**
 * The texts of an XML document in `unstructured`'s order: when an element closes, its own text
 * (the text directly inside it, not in child elements) is emitted if not blank. `unstructured`
 * keeps only the text before the first child; quarry also keeps text after child elements so
 * mixed content is not lost.
 */
export function xmlTexts(xml: string, filename: string): string[] {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: string[][] = [];
  const out: string[] = [];
  let failure: Error | undefined;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('doctype', (doctype) => {
    Object.assign(parser.ENTITIES, declaredEntities(doctype));
  });
  parser.on('opentag', () => {
    stack.push([]);
  });
  const onText = (t: string): void => {
    stack[stack.length - 1]?.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const own = (stack.pop() ?? []).join('').trim();
    if (own) out.push(own);
  });
  try {
    parser.write(xml).close();
  } catch (e) {
    failure ??= e as Error;
  }
  if (failure) {
    throw quarryError('FILE_UNREADABLE', `${filename}: not well-formed XML (${failure.message})`, { cause: failure, details: { filename } });
  }
  return out;
}

/**
 * XML: one element per element text (see {@link xmlTexts}), typed like a line of plain text
 * (Title, NarrativeText, ListItem, ...). With `xml_keep_tags` the whole document, tags included,
 * becomes a single `UncategorizedText` element, as in `unstructured` (after a well-formedness check).
 */
export const xmlPartitioner: FormatPartitioner = {
  partition(bytes, options) {
    const xml = decodeXml(bytes, options.encoding);
    const texts = xmlTexts(xml, options.filename);
    if (options.xml_keep_tags) return xml.trim() ? [newElement('UncategorizedText', xml.replace(/^\uFEFF/, ''))] : [];
    return texts.map((t): Element => elementFromText(t));
  },
};
