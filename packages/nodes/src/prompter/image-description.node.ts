import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';
import { imageDescriptionTask } from './image-description.js';

/** Image description nodes: anthropic, bedrock, openai, vertexai (`<provider>_image_description`, settings `provider_type` and `model`). */
export const imageDescriptionNodes = taskNodes<PrompterSettings>(
  'image_description',
  imageDescriptionTask,
  prompterSettings as unknown as () => ZodType<PrompterSettings>,
);
