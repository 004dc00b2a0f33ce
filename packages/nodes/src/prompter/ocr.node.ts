import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';
import { ocrTask } from './ocr.js';

/** Generative OCR nodes: anthropic, bedrock, openai (`<provider>_ocr`, settings `provider_type` and `model`). */
export const ocrNodes = taskNodes<PrompterSettings>('ocr', ocrTask, prompterSettings as unknown as () => ZodType<PrompterSettings>);
