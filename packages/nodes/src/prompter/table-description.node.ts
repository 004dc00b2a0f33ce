import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';

/** Table description nodes: anthropic, bedrock, openai, vertexai (`<provider>_table_description`, settings `provider_type` and `model`). */
export const tableDescriptionNodes = taskNodes<PrompterSettings>(
  'table_description',
  {
    description: 'summarises each Table element; the summary becomes the element text',
    load: async () => (await import('./table-description.js')).tableDescriptionTask,
  },
  prompterSettings as unknown as () => ZodType<PrompterSettings>,
);
