import type { EnrichmentTask } from './enrichment-task.js';
import { tableHtmlOf } from './html-answer.js';
import { TABLE2HTML_INSTRUCTION, TABLE2HTML_SYSTEM } from './table2html.js';
import { tableContent, tableParts } from './table-content.js';
import { TWOPASS_DEFAULT } from './prompter-tasks.js';

const VERIFY_INSTRUCTION = (draft: string): string =>
  `A first pass wrote this HTML for the table:\n${draft}\n\nCheck it cell by cell against the table: missing or extra rows and columns, merged cells (rowspan/colspan), header rows, misread numbers, cells shifted into the wrong column. Answer with the corrected HTML <table> only (the same HTML if it is already right): no prose, no markdown fences.`;

/**
 * Table to HTML, agentic (`twopass_table2html`). Two calls per `Table` element, both to
 * {@link TWOPASS_DEFAULT}: the first extracts the structure as HTML from the table's picture (or
 * its text), the second is shown the same table with that draft and returns a verified,
 * corrected table, which becomes `metadata.text_as_html`. The second pass catches the errors a
 * single pass makes most (merged cells, shifted columns, dropped rows).
 */
export const twopassTable2htmlTask: EnrichmentTask<Record<string, never>> = {
  task: 'twopass_table2html',
  imagesOrTables: true,
  selector: () => (el) => el.type === 'Table' && tableContent(el) !== undefined,
  enrich: async (el, { llm, signal }) => {
    const content = tableContent(el)!;
    const first = await llm.chat({
      system: TABLE2HTML_SYSTEM,
      messages: [{ role: 'user', content: tableParts(content, TABLE2HTML_INSTRUCTION) }],
      maxTokens: 4096,
      temperature: 0,
      signal,
    });
    const draft = tableHtmlOf(first, 'twopass_table2html (extraction pass)');
    const second = await llm.chat({
      system: TABLE2HTML_SYSTEM,
      messages: [{ role: 'user', content: tableParts(content, VERIFY_INSTRUCTION(draft)) }],
      maxTokens: 4096,
      temperature: 0,
      signal,
    });
    return { metadata: { text_as_html: tableHtmlOf(second, 'twopass_table2html (verification pass)') } };
  },
};
