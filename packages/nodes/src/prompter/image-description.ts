import type { PrompterSettings } from './prompter-settings.js';
import { elementImage } from './element-image.js';
import type { EnrichmentTask } from './enrichment-task.js';

const SYSTEM = 'You write descriptions of images taken from documents. The descriptions are indexed for search and read by people who cannot see the image.';

const INSTRUCTION =
  'Describe this image from a document in one concise paragraph: what it shows, every label, number or text visible in it, and what it conveys (the trend of a chart, the steps of a diagram). Answer with the description only, no preamble.';

/**
 * Image description (the Unstructured workflow API's enrichment table): every `Image` element that carries its picture
 * (`metadata.image_base64`, stored by a High Res partitioner for `extract_image_block_types`)
 * gets the model's description as its `text`, replacing any OCR text. Images without stored
 * pixels are left alone.
 */
export const imageDescriptionTask: EnrichmentTask<PrompterSettings> = {
  task: 'image_description',
  imagesOrTables: true,
  selector: () => (el) => el.type === 'Image' && elementImage(el) !== undefined,
  enrich: async (el, { llm, signal }) => {
    const image = elementImage(el)!;
    const context = el.text.trim() ? `\n\nText found in the image by OCR (may be wrong or partial):\n${el.text.trim()}` : '';
    const text = await llm.chat({
      system: SYSTEM,
      messages: [{ role: 'user', content: [image, { type: 'text', text: INSTRUCTION + context }] }],
      maxTokens: 1024,
      temperature: 0,
      signal,
    });
    const description = text.trim();
    return description ? { text: description } : undefined;
  },
};
