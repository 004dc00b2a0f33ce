import type { Element } from '@quarry/core';
import type { ImagePart, TextPart } from '../providers/types.js';
import { elementImage } from './element-image.js';

/**
 * What a model is shown of a table: its picture when stored, and its HTML (`text_as_html`) or,
 * lacking that, its text. Undefined when the table has none of them.
 */
export function tableContent(el: Element): { image?: ImagePart; body: string } | undefined {
  const image = elementImage(el);
  const html = typeof el.metadata.text_as_html === 'string' ? el.metadata.text_as_html.trim() : '';
  const text = el.text.trim();
  const body = html
    ? `The table as HTML (extracted automatically, may contain errors):\n${html}`
    : text
      ? `The table's text (extracted automatically, cell order may be lost):\n${text}`
      : '';
  if (!image && !body) return undefined;
  return { ...(image ? { image } : {}), body };
}

/** The user message parts for a table: the picture first (models read images better before the question), then text. */
export function tableParts(content: { image?: ImagePart; body: string }, instruction: string): Array<ImagePart | TextPart> {
  return [...(content.image ? [content.image] : []), { type: 'text', text: content.body ? `${content.body}\n\n${instruction}` : instruction }];
}
