import type { PrompterSettings } from './prompter-settings.js';
import type { EnrichmentTask } from './enrichment-task.js';
import { tableContent, tableParts } from './table-content.js';

const SYSTEM = 'You write summaries of tables taken from documents. The summaries are indexed for search.';

const INSTRUCTION =
  'Describe this table in one concise paragraph: its subject, its columns and rows, the notable values, totals and trends. Answer with the description only, no preamble.';

/**
 * Table description (the Unstructured workflow API's enrichment table): every `Table` element with a stored picture, HTML
 * or text gets the model's summary as its `text`; `text_as_html` keeps the table's content.
 */
export const tableDescriptionTask: EnrichmentTask<PrompterSettings> = {
  task: 'table_description',
  imagesOrTables: true,
  selector: () => (el) => el.type === 'Table' && tableContent(el) !== undefined,
  enrich: async (el, { llm, signal }) => {
    const text = await llm.chat({
      system: SYSTEM,
      messages: [{ role: 'user', content: tableParts(tableContent(el)!, INSTRUCTION) }],
      maxTokens: 1024,
      temperature: 0,
      signal,
    });
    const description = text.trim();
    return description ? { text: description } : undefined;
  },
};
