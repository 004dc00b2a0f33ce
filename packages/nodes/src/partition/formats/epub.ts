import type { Element } from '@quarry/core';
import type { FormatPartitioner } from '../types.js';
import { decodeHtml, partitionHtmlString } from './html/index.js';
import { OoxmlPackage, resolvePartPath } from './shared/ooxml-package.js';
import { attr, childElements, firstChild, type XmlNode } from './shared/xml-tree.js';

const XHTML_TYPES = new Set(['application/xhtml+xml', 'text/html']);

/**
 * EPUB: the reading-order documents of the package (the OPF spine) are partitioned with the HTML
 * partitioner, one after the other, which is what `unstructured` gets from converting the book to
 * a single HTML document. Navigation documents outside the spine, images and styles give nothing.
 */
export const epubPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const pkg = await OoxmlPackage.open(bytes, options.filename, 'EPUB', { logger: options.logger });
    const container = await pkg.requireXml('META-INF/container.xml');
    const rootfile = childElements(firstChild(container, 'rootfiles') ?? container, 'rootfile').find(
      (r) => (attr(r, 'media-type') ?? 'application/oebps-package+xml') === 'application/oebps-package+xml',
    );
    const opfPath = attr(rootfile, 'full-path');
    if (!opfPath) throw pkg.unreadable('META-INF/container.xml names no package document');
    const opf = await pkg.requireXml(opfPath);
    const dir = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/')) : '';
    const manifest = new Map<string, XmlNode>();
    for (const item of childElements(firstChild(opf, 'manifest') ?? opf, 'item')) {
      const id = attr(item, 'id');
      if (id) manifest.set(id, item);
    }
    const out: Element[] = [];
    // One warning per book, not per spine document.
    let warned = false;
    const warn = (message: string): void => {
      if (!warned) options.logger.warn(message);
      warned = true;
    };
    for (const ref of childElements(firstChild(opf, 'spine') ?? opf, 'itemref')) {
      options.signal.throwIfAborted();
      const item = manifest.get(attr(ref, 'idref') ?? '');
      const href = attr(item, 'href');
      if (!item || !href || !XHTML_TYPES.has(attr(item, 'media-type') ?? '')) continue;
      const partPath = resolvePartPath(dir, decodeURIComponent(href.split('#')[0]!));
      const doc = await pkg.bytes(partPath);
      if (!doc) {
        options.logger.warn(`${options.filename}: spine document ${partPath} is missing`);
        continue;
      }
      for (const el of partitionHtmlString(decodeHtml(doc, options.encoding), { filename: options.filename, warn })) out.push(el);
    }
    return out;
  },
};
