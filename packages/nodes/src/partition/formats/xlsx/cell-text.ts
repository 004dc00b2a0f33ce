/**
 * The text a spreadsheet cell shows, from its stored value and type (`<c t="...">`): numbers
 * without binary floating point noise, booleans as `TRUE`/`FALSE`, error codes as written, and
 * numbers under a date or time format as ISO dates (`2023-06-30`, `2023-06-30 14:05:00`).
 */

/**
 * Built-in number formats (ECMA-376 §18.8.30) that a style names by id alone. Only the
 * locale-independent ones: ids 27-36 and 50-81 mean different formats in different locales, so
 * their cells are read as plain numbers.
 */
const BUILTIN_FORMATS: Readonly<Record<number, string>> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/** The format code of a built-in number format id, if it is one quarry knows. */
export function builtinFormat(id: number): string | undefined {
  return BUILTIN_FORMATS[id];
}

/**
 * True when a number format shows a date or time: once bracketed parts (colours, locales, elapsed
 * time) and quoted literals are removed, it still holds a date or time letter.
 */
export function isDateFormat(code: string): boolean {
  return /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** Days from Excel's epoch (1899-12-30 in the 1900 system) to the Unix epoch. */
const UNIX_EPOCH_SERIAL = 25569;
/** Days between the 1900 and the 1904 date systems. */
const DATE_1904_OFFSET = 1462;
const DAY_MS = 86_400_000;

/** The text of a date serial number: the date alone at midnight, else date and time (UTC, seconds). */
export function serialDateText(serial: number, date1904: boolean): string {
  const d = new Date(Math.round((serial - UNIX_EPOCH_SERIAL + (date1904 ? DATE_1904_OFFSET : 0)) * DAY_MS));
  return dateText(d);
}

function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}

/** The text of a number as a spreadsheet shows it under the General format. */
export function numberText(n: number): string {
  // Binary floating point noise such as 0.30000000000000004 is not what a spreadsheet shows.
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

/** What a cell holds, as read from its XML: the type attribute and the raw value. */
export interface RawCell {
  /** The `t` attribute: `s`, `str`, `inlineStr`, `b`, `e`, `d`, `n` or absent (a number). */
  type: string | undefined;
  /** The text of `<v>` (or of `<is>` for inline strings); `undefined` when the cell has none. */
  value: string | undefined;
  /** Whether the cell's style shows numbers as dates. */
  dateStyle: boolean;
}

/** How cells refer to the workbook's shared parts. */
export interface CellContext {
  sharedStrings: readonly string[];
  /** The workbook counts dates from 1904 (`<workbookPr date1904="1"/>`). */
  date1904: boolean;
}

/** The text a cell shows (formulas show their cached result, which `value` holds). */
export function cellText(cell: RawCell, context: CellContext): string {
  const { type, value } = cell;
  if (value === undefined) return '';
  switch (type) {
    case 's':
      return context.sharedStrings[Number.parseInt(value, 10)] ?? '';
    case 'str':
    case 'inlineStr':
    case 'e':
      return value;
    case 'b':
      return /^\s*(0|false)\s*$/i.test(value) ? 'FALSE' : 'TRUE';
    case 'd': {
      // An ISO 8601 date (Strict OOXML); without a zone it is the sheet's own clock, kept as is.
      const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
      return Number.isNaN(d.getTime()) ? value.trim() : dateText(d);
    }
    default: {
      const n = Number.parseFloat(value);
      if (Number.isNaN(n)) return value.trim();
      return cell.dateStyle ? serialDateText(n, context.date1904) : numberText(n);
    }
  }
}

/**
 * Decodes the `_xHHHH_` escapes OOXML uses for characters XML cannot carry (`_x000D_` for a carriage
 * return); a literal `_x` sequence is written `_x005F_x...`, which decodes to itself.
 */
export function decodeXString(text: string): string {
  return text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : text;
}
