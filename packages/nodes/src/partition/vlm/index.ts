/** The Auto and VLM partitioners: page routing, vision-model reading of pages, their answers as elements. */
export { MAX_BAD_GLYPH_SHARE, MIN_TEXT_CHARS, PICTURE_PAGE_SHARE, pageFeatures, routePage, type PageFeatures, type PageRoute, type RouteDecision, type RouteOptions } from './auto-router.js';
export { formatHtml } from './format-html.js';
export { DEFAULT_PAGE_CONCURRENCY, partitionWithVlm, vlmProvider, vlmProviderName, type VlmPartitionRequest } from './partition-vlm.js';
export { elementTypeOf, elementsFromVlmHtml, stripFence, type VlmHtmlOptions } from './vlm-html.js';
export { elementsFromVlmJson, type VlmJsonOptions } from './vlm-json.js';
export { VLM_MAX_TOKENS, readPageWithVlm, type VlmPageRequest } from './vlm-page.js';
export { VLM_CATEGORIES, vlmSystemPrompt, vlmUserPrompt, type VlmOutputFormat } from './vlm-prompt.js';
