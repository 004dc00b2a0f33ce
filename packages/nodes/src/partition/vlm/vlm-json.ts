/**
 * A vision model's JSON answer (`output_format: application/json`) -> elements. The answer is an
 * object `{"elements": [...]}` (or a bare array) of `{type, text, text_as_html?}` entries, element
 * JSON's `metadata.text_as_html` also accepted.
 */
import type { Element } from '@quarry/core';
import { QuarryError } from '@quarry/core/errors';
import { collapseWhitespace } from '../../chunk/python-text.js';
import { newElement } from '../formats/shared/new-element.js';
import { formatHtml } from './format-html.js';
import { elementTypeOf, htmlText, stripFence } from './vlm-html.js';

/** Options of {@link elementsFromVlmJson}. */
export interface VlmJsonOptions {
  formatHtml: boolean;
  /** For messages. */
  where: string;
}

function invalid(where: string, why: string, answer: string): Error {
  return new QuarryError('VLM_RESPONSE_INVALID', `${where}: the model's JSON answer ${why}`, { details: { answer_start: answer.slice(0, 200) } });
}

/** Parses a JSON answer into elements (temporary ids); throws VLM_RESPONSE_INVALID when it is not element JSON. */
export function elementsFromVlmJson(answer: string, options: VlmJsonOptions): Element[] {
  const body = stripFence(answer);
  if (body === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw invalid(options.where, `is not JSON (${e instanceof Error ? e.message : String(e)})`, body);
  }
  const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).elements : undefined;
  if (!Array.isArray(list)) throw invalid(options.where, 'has no "elements" array', body);
  const out: Element[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') throw invalid(options.where, 'lists an element that is not an object', body);
    const rec = item as Record<string, unknown>;
    const meta = rec.metadata && typeof rec.metadata === 'object' ? (rec.metadata as Record<string, unknown>) : {};
    const rawType = typeof rec.type === 'string' ? rec.type : typeof rec.category === 'string' ? rec.category : '';
    const type = elementTypeOf(rawType);
    const html = typeof rec.text_as_html === 'string' ? rec.text_as_html : typeof meta.text_as_html === 'string' ? meta.text_as_html : undefined;
    let text = typeof rec.text === 'string' ? collapseWhitespace(rec.text).trim() : '';
    if (!text && html) text = htmlText(html);
    if (!text && type !== 'Image' && type !== 'Table') continue;
    const el = newElement(type, text);
    if (type === 'Table' && html) {
      el.metadata.text_as_html = formatHtml(html, options.formatHtml);
      el.metadata.table_extraction_method = 'vlm';
    }
    out.push(el);
  }
  return out;
}
