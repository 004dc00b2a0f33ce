/** One page image -> the vision model -> elements. */
import type { Element } from '@quarry/core';
import { isQuarryError, QuarryError } from '@quarry/core/errors';
import type { ImagePart, Provider } from '../../providers/types.js';
import { elementsFromVlmHtml } from './vlm-html.js';
import { elementsFromVlmJson } from './vlm-json.js';
import { vlmSystemPrompt, vlmUserPrompt, type VlmOutputFormat } from './vlm-prompt.js';

/** Generous: a dense page of HTML with tables runs to a few thousand tokens. */
export const VLM_MAX_TOKENS = 8192;

/** How to read one page. */
export interface VlmPageRequest {
  provider: Provider;
  model: string;
  outputFormat: VlmOutputFormat;
  formatHtml: boolean;
  /** 1-based page number, absent for a single image. */
  pageNumber?: number;
  filename: string;
  signal?: AbortSignal;
}

/**
 * Sends one page image to the model with the partitioning prompt and turns its answer into
 * elements (temporary ids; `page_number` set when given). Provider failures arrive as the provider
 * layer's coded errors (PROVIDER_AUTH, PROVIDER_RATE_LIMITED, ...) and are re-thrown with the file
 * and page named; the message never holds a key (the provider layer redacts them).
 */
export async function readPageWithVlm(image: ImagePart, req: VlmPageRequest): Promise<Element[]> {
  const where = `${req.filename}${req.pageNumber === undefined ? '' : ` page ${req.pageNumber}`}`;
  if (!req.provider.chat)
    throw new QuarryError('PROVIDER_NOT_CONFIGURED', `${where}: provider ${req.provider.name} has no chat API`, { details: { provider: req.provider.name } });
  let text: string;
  try {
    const res = await req.provider.chat({
      model: req.model,
      system: vlmSystemPrompt(req.outputFormat),
      messages: [{ role: 'user', content: [image, { type: 'text', text: vlmUserPrompt(req.pageNumber, req.outputFormat) }] }],
      maxTokens: VLM_MAX_TOKENS,
      temperature: 0,
      json: req.outputFormat === 'application/json',
      ...(req.signal ? { signal: req.signal } : {}),
    });
    text = res.text;
  } catch (e) {
    if (isQuarryError(e)) {
      throw QuarryError.from(e.code, `${where}: ${e.message}`, {
        cause: e,
        details: { ...e.details, filename: req.filename, ...(req.pageNumber === undefined ? {} : { page_number: req.pageNumber }) },
      });
    }
    throw e;
  }
  const elements =
    req.outputFormat === 'application/json'
      ? elementsFromVlmJson(text, { formatHtml: req.formatHtml, where })
      : elementsFromVlmHtml(text, { formatHtml: req.formatHtml });
  if (req.pageNumber !== undefined) for (const el of elements) el.metadata.page_number = req.pageNumber;
  return elements;
}
