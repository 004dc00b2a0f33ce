import type { Element, ElementMetadata } from '@quarry/core';
import type { FormatPartitioner } from '../types.js';
import { isEmailAddress, isPossibleNarrativeText, isPossibleTitle } from '../text-classify.js';
import { newElement } from './shared/new-element.js';
import { mainPartPath, OoxmlPackage } from './shared/ooxml-package.js';
import { collapseKeyedMatrix, htmlifySpannedMatrix, matrixText } from './shared/table-html.js';
import { attr, childElements, findAll, firstChild, path, type XmlNode } from './shared/xml-tree.js';

const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A shape of a slide with its position (EMU), as python-pptx reports it. */
interface PlacedShape {
  node: XmlNode;
  top: number;
  left: number;
}

/** Layout and master placeholders a slide's placeholders inherit their position from. */
interface Inheritance {
  layout?: XmlNode;
  master?: XmlNode;
}

/**
 * PPTX, mapped as `unstructured`'s python-pptx partitioner does. Slides in presentation order,
 * `page_number` = slide number; the slide notes first (one `NarrativeText`), then the shapes sorted
 * top-to-bottom, left-to-right (groups flattened; placeholders without a position inherit it from
 * the layout, then the master). The title placeholder (placeholder index 0) gives one `Title` per
 * paragraph with increasing `category_depth`; in other shapes a bulleted paragraph is a `ListItem`
 * (`category_depth` = indent level), otherwise the text decides: e-mail address, narrative text,
 * title (depth level + 1) or uncategorized text. A table gives one `Table` with `text_as_html`.
 * Pictures, charts and slide-master decoration give nothing. Shapes placed off the slide are
 * skipped. Differences from `unstructured`, kept on purpose: numbered paragraphs (`a:buAutoNum`)
 * count as list items, and e-mail elements keep the slide's metadata.
 */
export const pptxPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const pkg = await OoxmlPackage.open(bytes, options.filename, 'PPTX', { logger: options.logger });
    const mainPath = (await mainPartPath(pkg)) ?? 'ppt/presentation.xml';
    const presentation = await pkg.requireXml(mainPath);
    const rels = await pkg.relationships(mainPath);
    const out: Element[] = [];
    const slideIds = childElements(firstChild(presentation, 'sldIdLst') ?? presentation, 'sldId');
    let page = 0;
    for (const sldId of slideIds) {
      options.signal.throwIfAborted();
      const rel = rels.get(attr(sldId, 'id', R_NS) ?? '');
      if (!rel || rel.external) continue;
      const slide = await pkg.xml(rel.target);
      if (!slide) continue;
      page++;
      if (page > 1 && options.include_page_breaks) out.push(newElement('PageBreak', '', { page_number: page - 1 }));
      const slideRels = await pkg.relationships(rel.target);
      const meta = (depth?: number): ElementMetadata => (depth === undefined ? { page_number: page } : { page_number: page, category_depth: depth });

      const notesRel = [...slideRels.values()].find((r) => r.type === 'notesSlide' && !r.external);
      const notes = notesRel ? await pkg.xml(notesRel.target) : undefined;
      const notesText = notes ? notesBodyText(notes) : '';
      if (notesText) out.push(newElement('NarrativeText', notesText, meta(0)));

      const layoutRel = [...slideRels.values()].find((r) => r.type === 'slideLayout' && !r.external);
      const inherit: Inheritance = {};
      if (layoutRel) {
        inherit.layout = await pkg.xml(layoutRel.target);
        const masterRel = [...(await pkg.relationships(layoutRel.target)).values()].find((r) => r.type === 'slideMaster' && !r.external);
        if (masterRel) inherit.master = await pkg.xml(masterRel.target);
      }
      const tree = path(slide, 'cSld', 'spTree');
      if (!tree) continue;
      const titleShape = findTitleShape(tree);
      for (const shape of orderedShapes(tree, inherit)) {
        const table = findTable(shape.node);
        if (table) {
          const cells = collapseKeyedMatrix(tableGrid(table));
          // Text from the collapsed grid, so a merged cell's text counts once.
          const text = matrixText(cells.map((r) => r.map((c) => c.text)));
          if (text) out.push(newElement('Table', text, { page_number: page, text_as_html: htmlifySpannedMatrix(cells) }));
          continue;
        }
        const txBody = firstChild(shape.node, 'txBody');
        if (shape.node.name !== 'sp' || !txBody) continue;
        // `unstructured` skips text placed off the slide, but only when both coordinates are set.
        if (shape.top !== 0 && shape.left !== 0 && (shape.top < 0 || shape.left < 0)) continue;
        if (shape.node === titleShape) {
          let depth = 0;
          for (const p of childElements(txBody, 'p')) {
            const text = paragraphText(p);
            if (!text.trim()) continue;
            if (isBulleted(p)) out.push(newElement('ListItem', text, meta(level(p))));
            else if (isEmailAddress(text)) out.push(newElement('EmailAddress', text, meta()));
            else out.push(newElement('Title', text, meta(depth++)));
          }
          continue;
        }
        for (const p of childElements(txBody, 'p')) {
          const text = paragraphText(p);
          if (!text.trim()) continue;
          const lvl = level(p);
          if (isBulleted(p)) out.push(newElement('ListItem', text, meta(lvl)));
          else if (isEmailAddress(text)) out.push(newElement('EmailAddress', text, meta()));
          else if (isPossibleNarrativeText(text)) out.push(newElement('NarrativeText', text, meta(lvl)));
          else if (isPossibleTitle(text)) out.push(newElement('Title', text, meta(lvl + 1)));
          else out.push(newElement('UncategorizedText', text, meta(lvl)));
        }
      }
    }
    if (page === 0 && slideIds.length > 0) throw pkg.unreadable('no slide part could be read');
    return out;
  },
};

/** python-pptx's `shapes.title`: the first placeholder whose index is 0 (an absent idx is 0). */
function findTitleShape(tree: XmlNode): XmlNode | undefined {
  for (const shape of flattenShapes(tree)) {
    const ph = placeholder(shape);
    if (ph && Number(attr(ph, 'idx') ?? 0) === 0) return shape;
  }
  return undefined;
}

function placeholder(shape: XmlNode): XmlNode | undefined {
  const nv = childElements(shape).find((c) => c.name.startsWith('nv'));
  return path(nv, 'nvPr', 'ph');
}

function flattenShapes(tree: XmlNode): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of childElements(tree)) {
    if (c.name === 'grpSp') out.push(...flattenShapes(c));
    else if (['sp', 'pic', 'graphicFrame', 'cxnSp', 'contentPart'].includes(c.name)) out.push(c);
    else if (c.name === 'AlternateContent') {
      const choice = firstChild(c, 'Choice') ?? firstChild(c, 'Fallback');
      if (choice) out.push(...flattenShapes(choice));
    }
  }
  return out;
}

function offset(shape: XmlNode): XmlNode | undefined {
  return shape.name === 'graphicFrame' ? path(shape, 'xfrm', 'off') : path(shape, 'spPr', 'xfrm', 'off');
}

/** A placeholder's position from the layout (same idx), else the master (same type). */
function inheritedOffset(ph: XmlNode, inherit: Inheritance): XmlNode | undefined {
  const idx = attr(ph, 'idx') ?? '0';
  const type = attr(ph, 'type') ?? 'obj';
  const find = (root: XmlNode | undefined, match: (p: XmlNode) => boolean): XmlNode | undefined => {
    const tree = path(root, 'cSld', 'spTree');
    if (!tree) return undefined;
    for (const s of flattenShapes(tree)) {
      const p = placeholder(s);
      if (p && match(p)) return offset(s);
    }
    return undefined;
  };
  const masterType = (t: string): string => (t === 'ctrTitle' ? 'title' : t === 'subTitle' || t === 'obj' ? 'body' : t);
  return find(inherit.layout, (p) => (attr(p, 'idx') ?? '0') === idx) ?? find(inherit.master, (p) => masterType(attr(p, 'type') ?? 'obj') === masterType(type));
}

function orderedShapes(tree: XmlNode, inherit: Inheritance): PlacedShape[] {
  const placed = flattenShapes(tree).map((node) => {
    let off = offset(node);
    const ph = placeholder(node);
    if (!off && ph) off = inheritedOffset(ph, inherit);
    return { node, top: Number(attr(off, 'y') ?? 0) || 0, left: Number(attr(off, 'x') ?? 0) || 0 };
  });
  // Array.prototype.sort is stable, so equal positions keep document order as in Python.
  return placed.sort((a, b) => a.top - b.top || a.left - b.left);
}

function findTable(shape: XmlNode): XmlNode | undefined {
  if (shape.name !== 'graphicFrame') return undefined;
  return findAll(shape, 'tbl')[0];
}

function isBulleted(p: XmlNode): boolean {
  const pPr = firstChild(p, 'pPr');
  return firstChild(pPr, 'buChar') !== undefined || firstChild(pPr, 'buAutoNum') !== undefined;
}

function level(p: XmlNode): number {
  return Number(attr(firstChild(p, 'pPr'), 'lvl') ?? 0) || 0;
}

/** A paragraph's text: runs, fields and line breaks (as `\n`). */
function paragraphText(p: XmlNode): string {
  let s = '';
  for (const c of childElements(p)) {
    if (c.name === 'r' || c.name === 'fld') {
      const t = firstChild(c, 't');
      if (t) s += t.children.filter((x): x is string => typeof x === 'string').join('');
    } else if (c.name === 'br') s += '\n';
  }
  return s;
}

function textFrameText(txBody: XmlNode): string {
  return childElements(txBody, 'p').map(paragraphText).join('\n');
}

/** The text of the notes slide's body placeholder (python-pptx `notes_text_frame`). */
function notesBodyText(notes: XmlNode): string {
  const tree = path(notes, 'cSld', 'spTree');
  if (!tree) return '';
  for (const shape of flattenShapes(tree)) {
    const ph = placeholder(shape);
    const txBody = firstChild(shape, 'txBody');
    if (ph && attr(ph, 'type') === 'body' && txBody) return textFrameText(txBody).trim();
  }
  return '';
}

/** A table as a full grid of `[text, mergeKey]`; merged continuation cells take the origin's key. */
function tableGrid(tbl: XmlNode): Array<Array<[string, unknown]>> {
  const grid: Array<Array<[string, unknown]>> = [];
  for (const tr of childElements(tbl, 'tr')) {
    const row: Array<[string, unknown]> = [];
    for (const tc of childElements(tr, 'tc')) {
      const col = row.length;
      const left = row[col - 1];
      const above = grid[grid.length - 1]?.[col];
      if (attr(tc, 'hMerge') === '1' && left) row.push(left);
      else if (attr(tc, 'vMerge') === '1' && above) row.push(above);
      else {
        const txBody = firstChild(tc, 'txBody');
        row.push([txBody ? textFrameText(txBody) : '', tc]);
      }
    }
    grid.push(row);
  }
  return grid;
}
