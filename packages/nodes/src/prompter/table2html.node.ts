import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';
import { table2htmlTask } from './table2html.js';

/** Table-to-HTML nodes: anthropic, openai (`<provider>_table2html`, settings `provider_type` and `model`). */
export const table2htmlNodes = taskNodes<PrompterSettings>('table2html', table2htmlTask, prompterSettings as unknown as () => ZodType<PrompterSettings>);
