import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';

/** Generative OCR nodes: anthropic, bedrock, openai (`<provider>_ocr`, settings `provider_type` and `model`). */
export const ocrNodes = taskNodes<PrompterSettings>(
  'ocr',
  {
    description: "re-reads the text of the element types in the partitioner's extract_image_block_types from their pictures",
    load: async () => (await import('./ocr.js')).ocrTask,
  },
  prompterSettings as unknown as () => ZodType<PrompterSettings>,
);
