import type { PrompterSettings } from './prompter-settings.js';
import type { EnrichmentTask } from './enrichment-task.js';
import { tableHtmlOf } from './html-answer.js';
import { tableContent, tableParts } from './table-content.js';

/** System prompt of the table-to-HTML tasks. */
export const TABLE2HTML_SYSTEM = 'You convert tables from documents into clean, faithful HTML. You never invent or drop cells.';

/** The instruction that asks for a table's HTML (shared with twopass_table2html's first pass). */
export const TABLE2HTML_INSTRUCTION =
  'Write this table as one HTML <table> element: header rows in <thead> with <th> cells, data in <tbody> with <td> cells, merged cells with rowspan/colspan, cell text exactly as shown. Answer with the HTML only: no prose, no markdown fences, no <html> or <body>.';

/**
 * Table to HTML (the Unstructured workflow API's enrichment table): every `Table` element with a stored picture, HTML or
 * text gets `metadata.text_as_html` from the model (the picture is the better source; text is used
 * when it is all there is).
 */
export const table2htmlTask: EnrichmentTask<PrompterSettings> = {
  task: 'table2html',
  imagesOrTables: true,
  selector: () => (el) => el.type === 'Table' && tableContent(el) !== undefined,
  enrich: async (el, { llm, signal }) => {
    const answer = await llm.chat({
      system: TABLE2HTML_SYSTEM,
      messages: [{ role: 'user', content: tableParts(tableContent(el)!, TABLE2HTML_INSTRUCTION) }],
      maxTokens: 4096,
      temperature: 0,
      signal,
    });
    return { metadata: { text_as_html: tableHtmlOf(answer, `${llm.provider} table2html`) } };
  },
};
