import type { ZodType } from 'zod';
import { prompterSettings, type PrompterSettings } from './prompter-settings.js';
import { taskNodes } from './prompter-node.js';

/** Image description nodes: anthropic, bedrock, openai, vertexai (`<provider>_image_description`, settings `provider_type` and `model`). */
export const imageDescriptionNodes = taskNodes<PrompterSettings>(
  'image_description',
  {
    description: 'describes each Image element that carries its picture; the description becomes the element text',
    load: async () => (await import('./image-description.js')).imageDescriptionTask,
  },
  prompterSettings as unknown as () => ZodType<PrompterSettings>,
);
