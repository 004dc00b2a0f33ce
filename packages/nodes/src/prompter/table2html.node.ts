import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';

/** Table-to-HTML nodes: anthropic, openai (`<provider>_table2html`, settings `provider_type` and `model`). */
export const table2htmlNodes = taskNodes<PrompterSettings>(
  'table2html',
  {
    description: 'writes metadata.text_as_html of each Table element from its picture or text',
    load: async () => (await import('./table2html.js')).table2htmlTask,
  },
  prompterSettings as unknown as () => ZodType<PrompterSettings>,
);
