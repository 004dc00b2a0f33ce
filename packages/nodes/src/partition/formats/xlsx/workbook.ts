import type { Logger } from '@quarry/core';
import type { CellContext } from './cell-text.js';
import { readSharedStrings } from './shared-strings.js';
import { readSheet, type SheetGrid } from './sheet.js';
import { readDateStyles } from './styles.js';
import { mainPartPath, OoxmlPackage, type OoxmlRelationship } from '../shared/ooxml-package.js';
import { attr, childElements, firstChild, isOn } from '../shared/xml-tree.js';

/** A worksheet listed by the workbook, in tab order (hidden ones included). */
export interface WorkbookSheet {
  name: string;
  /** Package path of its part, e.g. `xl/worksheets/sheet1.xml`. */
  part: string;
}

/**
 * An XLSX workbook opened for reading, within the package's inflation and XML size limits. Chart,
 * dialog and macro sheets are not listed: they hold no cells.
 */
export class XlsxWorkbook {
  private constructor(
    private readonly pkg: OoxmlPackage,
    /** The worksheets in tab order. */
    readonly sheets: readonly WorkbookSheet[],
    private readonly context: CellContext,
    private readonly dateStyles: readonly boolean[],
  ) {}

  /** Opens `bytes`; `FILE_UNREADABLE` naming `filename` when it is not a readable workbook. */
  static async open(bytes: Uint8Array, filename: string, logger: Logger): Promise<XlsxWorkbook> {
    const pkg = await OoxmlPackage.open(bytes, filename, 'XLSX', { logger });
    const mainPath = (await mainPartPath(pkg)) ?? 'xl/workbook.xml';
    const workbook = await pkg.requireXml(mainPath);
    const rels = await pkg.relationships(mainPath);
    const dir = mainPath.includes('/') ? mainPath.slice(0, mainPath.lastIndexOf('/') + 1) : '';
    const partOf = (type: string, fallback: string): string => [...rels.values()].find((r) => r.type === type && !r.external)?.target ?? `${dir}${fallback}`;

    const sheets: WorkbookSheet[] = [];
    for (const sheet of childElements(firstChild(workbook, 'sheets') ?? workbook, 'sheet')) {
      const rel: OoxmlRelationship | undefined = rels.get(attr(sheet, 'id', RELATIONSHIPS_NS) ?? attr(sheet, 'id', STRICT_RELATIONSHIPS_NS) ?? '');
      if (rel?.type === 'worksheet' && !rel.external) sheets.push({ name: attr(sheet, 'name') ?? '', part: rel.target });
    }
    const date1904Attr = attr(firstChild(workbook, 'workbookPr'), 'date1904');
    const date1904 = date1904Attr !== undefined && isOn(date1904Attr, true);

    const stringsPart = partOf('sharedStrings', 'sharedStrings.xml');
    const stringsXml = await pkg.xmlText(stringsPart);
    const sharedStrings = stringsXml === undefined ? [] : wellFormed(pkg, stringsPart, () => readSharedStrings(stringsXml));
    const dateStyles = readDateStyles(await pkg.xml(partOf('styles', 'styles.xml')));
    return new XlsxWorkbook(pkg, sheets, { sharedStrings, date1904 }, dateStyles);
  }

  /** The cells and merges of a listed sheet; `undefined` when the package lacks its part. */
  async read(sheet: WorkbookSheet): Promise<SheetGrid | undefined> {
    const xml = await this.pkg.xmlText(sheet.part);
    if (xml === undefined) return undefined;
    return wellFormed(this.pkg, sheet.part, () => readSheet(xml, this.context, this.dateStyles));
  }
}

const RELATIONSHIPS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const STRICT_RELATIONSHIPS_NS = 'http://purl.oclc.org/ooxml/officeDocument/relationships';

/** Runs a streaming read of `part`; the XML parser's error becomes `FILE_UNREADABLE` naming the part. */
function wellFormed<T>(pkg: OoxmlPackage, part: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw pkg.unreadable(`part ${part} is not well-formed XML`, e);
  }
}
