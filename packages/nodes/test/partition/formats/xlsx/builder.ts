/**
 * Builds small XLSX packages from SpreadsheetML written out by hand, so that a test states the
 * exact XML a reader meets (shared and inline strings, formulas' cached results, styles, merges,
 * prefixes, missing references) rather than what one writer happens to emit.
 */
import JSZip from 'jszip';

export const SML_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** One sheet of a built workbook. */
export interface BuiltSheet {
  name: string;
  /** The `<sheetData>` content (rows), or the whole part when `part` is set. */
  rows?: string;
  /** XML after `<sheetData>`, e.g. `<mergeCells>`. */
  after?: string;
  /** The whole worksheet part, replacing `rows` and `after`. */
  part?: string;
  /** `hidden` or `veryHidden`. */
  state?: string;
  /** Relationship type (last segment); default `worksheet`. */
  kind?: string;
  /** Leave the part out of the package (the workbook still lists it). */
  missing?: boolean;
}

/** What a built workbook holds besides its sheets. */
export interface BuiltWorkbook {
  sheets: BuiltSheet[];
  /** The `<si>` items of the shared string table, as XML. */
  sharedStrings?: string[];
  /** The whole styles part. */
  styles?: string;
  date1904?: boolean;
}

/** Escapes text for an XML text node. */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A plain shared string item. */
export const si = (text: string): string => `<si><t xml:space="preserve">${esc(text)}</t></si>`;

/** A styles part whose `cellXfs` use the given number format ids, with custom formats `id → code`. */
export function stylesXml(xfNumFmtIds: number[], custom: Record<number, string> = {}): string {
  const fmts = Object.entries(custom).map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"/>`);
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="${SML_NS}">` +
    (fmts.length ? `<numFmts count="${fmts.length}">${fmts.join('')}</numFmts>` : '') +
    '<fonts count="1"><font><sz val="11"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfNumFmtIds.length}">${xfNumFmtIds.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('')}</cellXfs>` +
    '</styleSheet>'
  );
}

/** The bytes of an XLSX package holding `book`. */
export async function buildXlsx(book: BuiltWorkbook): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  const rels: string[] = [];
  const sheets: string[] = [];
  book.sheets.forEach((s, i) => {
    const kind = s.kind ?? 'worksheet';
    const file = `${kind === 'worksheet' ? 'worksheets' : `${kind}s`}/sheet${i + 1}.xml`;
    rels.push(`<Relationship Id="rId${i + 1}" Type="${REL_NS}/${kind}" Target="${file}"/>`);
    sheets.push(`<sheet name="${esc(s.name)}" sheetId="${i + 1}"${s.state ? ` state="${s.state}"` : ''} r:id="rId${i + 1}"/>`);
    if (!s.missing)
      zip.file(
        `xl/${file}`,
        s.part ?? `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${SML_NS}"><sheetData>${s.rows ?? ''}</sheetData>${s.after ?? ''}</worksheet>`,
      );
  });
  if (book.sharedStrings) {
    rels.push(`<Relationship Id="rIdS" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>`);
    zip.file(
      'xl/sharedStrings.xml',
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${SML_NS}" count="${book.sharedStrings.length}">${book.sharedStrings.join('')}</sst>`,
    );
  }
  if (book.styles) {
    rels.push(`<Relationship Id="rIdT" Type="${REL_NS}/styles" Target="styles.xml"/>`);
    zip.file('xl/styles.xml', book.styles);
  }
  zip.file('xl/_rels/workbook.xml.rels', `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG_REL_NS}">${rels.join('')}</Relationships>`);
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${SML_NS}" xmlns:r="${REL_NS}">${book.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets>${sheets.join('')}</sheets></workbook>`,
  );
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
