import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';
import { tableDescriptionTask } from './table-description.js';

/** Table description nodes: anthropic, bedrock, openai, vertexai (`<provider>_table_description`, settings `provider_type` and `model`). */
export const tableDescriptionNodes = taskNodes<PrompterSettings>(
  'table_description',
  tableDescriptionTask,
  prompterSettings as unknown as () => ZodType<PrompterSettings>,
);
