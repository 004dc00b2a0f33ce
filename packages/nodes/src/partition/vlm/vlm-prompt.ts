/**
 * The instructions sent with each page image. The categories are the element types a page can hold;
 * the model labels every block with one so no guessing is needed when its answer becomes elements.
 */

/** The answer format: semantic HTML or element JSON (the Unstructured workflow API's `output_format`). */
export type VlmOutputFormat = 'text/html' | 'application/json';

/** Element categories the model may use. */
export const VLM_CATEGORIES = [
  'Title',
  'NarrativeText',
  'ListItem',
  'Table',
  'Image',
  'FigureCaption',
  'Header',
  'Footer',
  'PageNumber',
  'Formula',
  'Address',
  'EmailAddress',
  'CodeSnippet',
  'Form',
  'CheckBox',
  'UncategorizedText',
] as const;

const COMMON = `You convert one page of a document, given as an image, into structured content.
Transcribe every piece of text exactly as printed, in reading order (a multi-column page column by column). Do not summarize, translate, correct or invent text.
Each block gets one category: ${VLM_CATEGORIES.join(', ')}.
Title is a heading of any level; Header and Footer are running page furniture; PageNumber is a printed page number; Image is a picture, chart or diagram (describe it briefly); Table is any tabular data.`;

const HTML = `${COMMON}
Answer with the page as semantic HTML and nothing else: no prose, no markdown code fences, no <html>, <head> or <body>.
Use <h1>-<h6> for titles (by level), <p> for paragraphs, <ul>/<ol> with <li> for lists, <table> with <thead>, <tbody>, <tr>, <th>, <td> (rowspan/colspan where cells span) for tables, <img alt="description"> for pictures, <figcaption> for captions, <header>/<footer> for page furniture, <pre> for code, <math> text for formulas.
Put a data-category attribute with the block's category on every top-level block, for example <h1 data-category="Title">, <li data-category="ListItem">, <table data-category="Table">.`;

const JSON_FORMAT = `${COMMON}
Answer with one JSON object: {"elements": [{"type": <category>, "text": <the block's text>}]}, blocks in reading order.
A list item is one element of type ListItem. For a Table, "text" holds the cell texts separated by spaces and "text_as_html" holds the table as HTML (<table> with <tr>, <th>, <td>, rowspan/colspan). For an Image, "text" is a short description.`;

/** The system prompt for `format`. */
export function vlmSystemPrompt(format: VlmOutputFormat): string {
  return format === 'application/json' ? JSON_FORMAT : HTML;
}

/** The user turn's text that goes with the page image. */
export function vlmUserPrompt(pageNumber: number | undefined, format: VlmOutputFormat): string {
  const what = format === 'application/json' ? 'element JSON' : 'semantic HTML with data-category attributes';
  return `${pageNumber === undefined ? 'This image' : `Page ${pageNumber}`}: convert it to ${what}.`;
}
