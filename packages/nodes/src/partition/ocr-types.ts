/** What OCR gives back: boxes, words, lines, paragraphs and blocks in image pixels. */

/** A rectangle in image pixels, origin at the top-left. */
export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One recognized word. `confidence` is 0-100. */
export interface OcrWord {
  text: string;
  confidence: number;
  bbox: OcrBox;
}

/** One line of words. */
export interface OcrLine {
  text: string;
  confidence: number;
  bbox: OcrBox;
  /** Y of the baseline in the middle of the line. */
  baseline: number;
  /**
   * Tesseract's row height estimate (ascender top to descender bottom), steadier than the box,
   * whose height depends on which letters the line happens to contain.
   */
  rowHeight: number;
  /** Depth of descenders below the baseline. */
  descent: number;
  words: OcrWord[];
  /** Set in bold, as the page image tells (`ocr-weight.ts`); absent when not judged or not bold. */
  bold?: boolean;
}

/** One paragraph of lines. */
export interface OcrParagraph {
  text: string;
  confidence: number;
  bbox: OcrBox;
  lines: OcrLine[];
}

/** One block (a region of text) of paragraphs. */
export interface OcrBlock {
  text: string;
  confidence: number;
  bbox: OcrBox;
  paragraphs: OcrParagraph[];
}

/** What `ocrImage` found: the block tree, plus every line and word in reading order. */
export interface OcrResult {
  text: string;
  confidence: number;
  blocks: OcrBlock[];
  lines: OcrLine[];
  words: OcrWord[];
  /** The Tesseract languages the image was read with, e.g. `['kor']`. */
  languages: string[];
  /** The script OSD detected (`Latin`, `Korean`, ...); null when it found none; absent without detection. */
  script?: string | null;
  /**
   * What the user should know about how the image was read: a requested language without data, a
   * detected script without data (read as English instead). Each names the package to install.
   */
  warnings: string[];
}
