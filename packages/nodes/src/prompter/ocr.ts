import type { PrompterSettings } from './prompter-settings.js';
import { elementImage } from './element-image.js';
import type { EnrichmentTask } from './enrichment-task.js';

const SYSTEM = 'You are an OCR engine. You transcribe the text of images exactly.';

const INSTRUCTION =
  'Transcribe all the text in this image exactly as written, in reading order, keeping line breaks between lines and paragraphs. Do not describe the image, translate, correct or summarise. Answer with the transcribed text only; answer with nothing if the image holds no text.';

/**
 * Generative OCR (the Unstructured workflow API's `ocr`): re-reads the text of the elements whose picture the High Res
 * partitioner stored, and only for the element types listed in its `extract_image_block_types`
 * (condition 5). `Image` and `Table` elements are skipped when an image or table description node
 * of the same plan handles them. The transcription becomes the element text; an empty answer
 * keeps the text the partitioner found.
 */
export const ocrTask: EnrichmentTask<PrompterSettings> = {
  task: 'ocr',
  imagesOrTables: true,
  selector: (plan) => (el) => {
    if (!plan.imageBlockTypes.has(el.type)) return false;
    if (el.type === 'Image' && plan.describesImages) return false;
    if (el.type === 'Table' && plan.describesTables) return false;
    return elementImage(el) !== undefined;
  },
  enrich: async (el, { llm, signal }) => {
    const text = await llm.chat({
      system: SYSTEM,
      messages: [{ role: 'user', content: [elementImage(el)!, { type: 'text', text: INSTRUCTION }] }],
      maxTokens: 4096,
      temperature: 0,
      signal,
    });
    const transcribed = text.trim();
    return transcribed ? { text: transcribed } : undefined;
  },
};
