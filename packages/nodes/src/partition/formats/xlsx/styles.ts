import { builtinFormat, isDateFormat } from './cell-text.js';
import { attr, childElements, firstChild, type XmlNode } from '../shared/xml-tree.js';

/**
 * Which cell formats (`<cellXfs>` of `xl/styles.xml`, indexed by a cell's `s`) show numbers as
 * dates: those whose number format, custom (`<numFmts>`) or built-in, holds date or time parts.
 * Without a styles part no cell is a date.
 */
export function readDateStyles(styleSheet: XmlNode | undefined): boolean[] {
  const cellXfs = firstChild(styleSheet, 'cellXfs');
  if (!cellXfs) return [];
  const custom = new Map<number, string>();
  const numFmts = firstChild(styleSheet, 'numFmts');
  for (const f of numFmts ? childElements(numFmts, 'numFmt') : []) {
    const id = Number.parseInt(attr(f, 'numFmtId') ?? '', 10);
    const code = attr(f, 'formatCode');
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code);
  }
  return childElements(cellXfs, 'xf').map((xf) => {
    const id = Number.parseInt(attr(xf, 'numFmtId') ?? '0', 10);
    const code = custom.get(id) ?? builtinFormat(id);
    return code !== undefined && isDateFormat(code);
  });
}
