/**
 * When a PDF page needs OCR: hi_res reads these, and so does auto, which decides between the fast
 * path and hi_res without loading hi_res (OCR, pdf.js) for a document that has a text layer.
 */
// A text layer with fewer letters and digits than this, on a page with a picture, is a scan.
export const MIN_TEXT_CHARS = 32;
// Share of U+FFFD/control/private-use characters above which a text layer is garbage.
export const MAX_BAD_CHAR_SHARE = 0.3;
// A picture covering this share of a page with little text makes the page a scan.
export const MIN_SCAN_COVER = 0.25;
