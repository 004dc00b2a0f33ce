import { quarryError } from '@quarry/core';
import { canonicalMimeType } from '../detect-filetype.js';
import type { FormatPartitioner } from '../types.js';
import { csvPartitioner, tsvPartitioner } from './csv.js';
import { docxPartitioner } from './docx.js';
import { emlPartitioner } from './eml.js';
import { epubPartitioner } from './epub.js';
import { htmlPartitioner } from './html.js';
import { imagePartitioner } from './image.js';
import { jsonPartitioner, ndjsonPartitioner } from './json.js';
import { markdownPartitioner } from './markdown.js';
import { odtPartitioner } from './odt.js';
import { pdfPartitioner } from './pdf.js';
import { pptxPartitioner } from './pptx.js';
import { textPartitioner } from './text.js';
import { xlsxPartitioner } from './xlsx.js';
import { xmlPartitioner } from './xml.js';

/**
 * Every format partitioner the partition node knows, in lookup order (the first whose
 * `mimeTypes` include a document's type partitions it). Add built-in formats here.
 */
export const FORMAT_PARTITIONERS: FormatPartitioner[] = [
  textPartitioner,
  markdownPartitioner,
  htmlPartitioner,
  csvPartitioner,
  tsvPartitioner,
  docxPartitioner,
  pptxPartitioner,
  xlsxPartitioner,
  emlPartitioner,
  xmlPartitioner,
  jsonPartitioner,
  ndjsonPartitioner,
  odtPartitioner,
  epubPartitioner,
  pdfPartitioner,
  imagePartitioner,
];

/**
 * Adds a format partitioner, for hosts that support more formats. A partitioner with the same
 * `name` is replaced in place; a new one goes first, so it wins over built-in partitioners for
 * the MIME types they share.
 */
export function registerFormatPartitioner(partitioner: FormatPartitioner): void {
  if (!partitioner || typeof partitioner.name !== 'string' || !partitioner.name || !Array.isArray(partitioner.mimeTypes) || typeof partitioner.partition !== 'function') {
    throw quarryError('INVALID_ARGUMENT', 'a format partitioner needs a name, a mimeTypes array and a partition function');
  }
  const i = FORMAT_PARTITIONERS.findIndex((p) => p.name === partitioner.name);
  if (i >= 0) FORMAT_PARTITIONERS[i] = partitioner;
  else FORMAT_PARTITIONERS.unshift(partitioner);
}

/**
 * The partitioner for a MIME type (aliases such as `text/x-markdown` match their canonical form).
 * For `application/octet-stream` the file extension decides.
 */
export function findFormatPartitioner(mime: string, extension: string): FormatPartitioner | undefined {
  const wanted = canonicalMimeType(mime);
  const byMime = FORMAT_PARTITIONERS.find((p) => p.mimeTypes.some((m) => canonicalMimeType(m) === wanted));
  if (byMime || wanted !== 'application/octet-stream') return byMime;
  const ext = extension.toLowerCase();
  return FORMAT_PARTITIONERS.find((p) => p.extensions.includes(ext));
}
