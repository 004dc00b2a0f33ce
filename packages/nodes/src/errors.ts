import type { ErrorCodeTable } from '@quarry/core';

/**
 * The error codes @quarry/nodes throws (partitioners, chunkers, embedders, enrichment nodes and the
 * provider layer), each with a one-line description. The README's table is checked against it and
 * `nodesPlugin` declares it at registration. Codes core raises (`JOB_ABORTED`, `INVALID_ARGUMENT`,
 * ...) are core's; a package that depends on this one may throw these too.
 */
export const NODES_ERROR_CODES = {
  ARCHIVE_TOO_LARGE: 'a ZIP-based document (DOCX, PPTX, XLSX, ODT, EPUB) inflates beyond the size limits (decompression bomb guard)',
  CHUNKING_OPTIONS_INVALID: 'invalid chunking options (with the messages of the Python library unstructured)',
  DOCUMENT_TOO_COMPLEX: 'a document is past a structural limit (pages, nesting depth); the message names the limit and the variable that raises it',
  EMBED_DIMENSIONS_MISMATCH: 'an embedding provider returned vectors whose length differs from the model registry',
  EMBED_INPUT_TOO_LONG: 'a chunk has more tokens than the embedding model accepts (nothing is truncated)',
  EMBED_MODEL_UNAVAILABLE: 'a local embedding model directory is missing, incomplete or cannot be loaded',
  ENRICHMENT_RESPONSE_INVALID: 'a model answer cannot be used (no JSON object for NER, no <table> for table-to-HTML)',
  FILETYPE_UNSUPPORTED: 'no partitioner handles the detected file type',
  FILE_EMPTY: 'a document has no bytes',
  FILE_TOO_LARGE: 'a document or a part of it is past a size limit (image pixels, line length); the message names the limit and the variable that raises it',
  FILE_UNREADABLE: 'a document exists but cannot be parsed',
  LIBREOFFICE_MISSING:
    'a legacy Office document (.doc, .xls, .ppt) needs LibreOffice to be read, and its soffice program cannot be started; the message says how to install it',
  OCR_LANGUAGE_UNAVAILABLE: 'none of the requested OCR languages has data installed',
  OPTIONAL_DEPENDENCY_MISSING:
    'a feature needs an optional package that is not installed (OCR, page rendering, image decoding, a provider SDK, local embeddings, token counting); the message gives the npm install command, details name the packages',
  PDF_PASSWORD_REQUIRED: 'a PDF needs a user password to open',
  PROVIDER_AUTH: 'a provider rejected the credentials (HTTP 401/403)',
  PROVIDER_BAD_REQUEST: 'a provider rejected the request as invalid (HTTP 400/404/413/422)',
  PROVIDER_ERROR: 'a provider call failed for another reason, or answered with an unexpected shape',
  PROVIDER_NOT_CONFIGURED: 'a provider lacks a required setting (API key, endpoint, region, project)',
  PROVIDER_RATE_LIMITED: 'a provider kept answering HTTP 429 after every retry',
  PROVIDER_TIMEOUT: 'a provider call timed out on every attempt',
  PROVIDER_UNAVAILABLE: 'a provider kept answering HTTP 5xx, or could not be reached, after every retry',
  VLM_RESPONSE_INVALID: 'a vision model answer is not usable element JSON or HTML',
} as const satisfies ErrorCodeTable;

type NodesErrorCodes = typeof NODES_ERROR_CODES;

// Declares these codes to the type checker wherever @quarry/nodes is imported.
declare module '@quarry/core' {
  interface QuarryErrorCodes extends NodesErrorCodes {}
}
