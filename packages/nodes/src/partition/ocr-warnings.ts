import type { Element, Logger } from '@quarry/core';

/**
 * The OCR warnings of one document, by page. A warning the user must see (a language without
 * data) reaches them twice: in `metadata.ocr_warnings` of the elements of the pages it concerns,
 * which travel with the output, and once per document on the logger (the CLI's stderr, the job's
 * events), not once per page.
 */
export class OcrWarnings {
  private readonly byPage = new Map<number, string[]>();

  /** Records the warnings of one OCR'd page. */
  add(page: number, warnings: readonly string[]): void {
    if (warnings.length > 0) this.byPage.set(page, [...warnings]);
  }

  /** Sets `metadata.ocr_warnings` on the elements of the pages that have warnings. */
  stamp(elements: readonly Element[]): void {
    for (const el of elements) {
      const warnings = el.metadata.page_number === undefined ? undefined : this.byPage.get(el.metadata.page_number);
      if (warnings) el.metadata.ocr_warnings = [...warnings];
    }
  }

  /** Logs each distinct warning once, with the pages it concerns. */
  log(logger: Logger, filename: string): void {
    const pages = new Map<string, number[]>();
    // Pages are OCR'd concurrently and finish in any order.
    const sorted = [...this.byPage].sort(([a], [b]) => a - b);
    for (const [page, warnings] of sorted) for (const w of warnings) pages.set(w, [...(pages.get(w) ?? []), page]);
    for (const [warning, on] of pages) logger.warn(warning, { filename, pages: on });
  }
}
