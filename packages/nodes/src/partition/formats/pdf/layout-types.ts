/**
 * Plain-data shapes shared by the PDF layout stages. Everything here is structured-clone safe: page
 * layouts travel from the page worker thread to the main thread as is.
 *
 * Coordinates are PDF points with the origin at the top-left of the displayed page (the page
 * `/Rotate` applied), y growing downwards.
 */
import type { ElementType } from '@quarry/core';

/** An axis-aligned rectangle. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * One run of text from the text layer (or one OCR word), in its *local* frame: the frame rotated so
 * that the text runs towards +x. For ordinary horizontal text the local frame is the page frame.
 */
export interface TextFragment {
  text: string;
  x0: number;
  x1: number;
  /** Top of the glyph box (ascent). */
  top: number;
  /** Bottom of the glyph box (descent). */
  bottom: number;
  baseline: number;
  /** Font size in points. */
  size: number;
  /** A font identity (pdf.js loaded-font id); only compared for equality. */
  font: string;
  /** Text direction on the page in degrees, one of 0, 90, 180, 270. */
  dir: number;
}

/** What the engine knows of a font's style (PDFium reads it; pdf.js's text layer does not give it). */
export interface FontStyle {
  /** Bold, black or semibold (font weight 600 and up, or such a name). */
  bold: boolean;
  /** Fixed pitch: a code font. */
  mono: boolean;
}

/** A page's text fragments and size, before layout. */
export interface PageText {
  width: number;
  height: number;
  fragments: TextFragment[];
  textChars: number;
  badChars: number;
  /**
   * Straight lines and rectangle edges painted on the page, as zero-thickness boxes in the page
   * frame (see `rulings.ts`); absent when the engine did not read the page's drawing.
   */
  rulings?: Box[];
  /** Style of the fonts named by the fragments' `font`, where the engine knows it. */
  fonts?: Record<string, FontStyle>;
}

/** Fragments that share a baseline and touch, in reading order, in the local frame. */
export interface TextLine {
  fragments: TextFragment[];
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Dominant font size (by characters). */
  size: number;
  /** Dominant font. */
  font: string;
  dir: number;
  text: string;
}

/** One cell of a table, at the grid position where it starts. */
export interface TableCell {
  text: string;
  colspan: number;
  rowspan: number;
}

/**
 * A table found on the page: row by row, the cells that start in that row (a position covered by
 * a spanning cell from the left or above has no entry of its own, as in HTML).
 */
export interface TableCells {
  rows: TableCell[][];
}

/** A paragraph-like group of lines, a table or an embedded image, ready to be classified. */
export interface TextBlock {
  kind: 'text' | 'table' | 'image';
  text: string;
  /** Bounding box in the page frame. */
  box: Box;
  /** Number of text lines. */
  lineCount: number;
  /** Dominant font size. */
  size: number;
  /** Dominant font. */
  font: string;
  /** Set when `kind` is `table`. */
  table?: TableCells;
  /** The type its text suggests, computed with the layout (see `classify.ts`). */
  textClass?: BlockTextClass;
}

/** The element type a block's text suggests, before page furniture and font size are considered. */
export interface BlockTextClass {
  type: ElementType;
  /** The element text (a list item's bullet removed). */
  text: string;
  /** Short enough and worded like a title (decides when the block is set in a larger font). */
  possibleTitle: boolean;
}

/** What the layout stage yields for one page. */
export interface PageLayout {
  /** 1-based page number. */
  pageNumber: number;
  /** Displayed page width and height in points. */
  width: number;
  height: number;
  /** Blocks in reading order. */
  blocks: TextBlock[];
  /** Count of letters and digits in the text layer, to tell empty or garbage text layers apart. */
  textChars: number;
  /** Count of characters that look like a broken text layer (U+FFFD, controls, private use). */
  badChars: number;
  /** Style of the blocks' fonts, where the engine knows it ({@link PageText.fonts}). */
  fonts?: Record<string, FontStyle>;
}
