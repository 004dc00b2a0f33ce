import type { Element, ElementMetadata } from '@quarry/core';
import { isQuarryError } from '@quarry/core/errors';
import { LIMIT_ENV, limitWarning, partitionLimits } from '../../limits.js';
import type { FormatPartitionOptions } from '../../types.js';

/** A message's parts as the e-mail formats (EML, Outlook MSG) hand them over. */
export interface MessageParts {
  /** The plain-text body, preferred when it has text. */
  text?: string | undefined;
  /** The HTML body, used when there is no plain-text one. */
  html?: string | undefined;
  /** Sender, recipients, subject, ...: written on every body element. */
  metadata: ElementMetadata;
  /** Attached files, in order. */
  attachments: ReadonlyArray<{ name: string; content: Uint8Array }>;
}

/** UTF-8 with a byte-order mark, so the nested partitioner decodes it whatever `encoding` says. */
function utf8WithBom(text: string): Uint8Array {
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}

// Body elements belong to the message itself, so the embedded-file markers the nested call adds go.
async function bodyElements(parts: MessageParts, options: FormatPartitionOptions): Promise<Element[]> {
  let elements: Element[] = [];
  if (parts.text?.trim()) elements = await options.partitionEmbedded(utf8WithBom(parts.text), `${options.filename}.body.txt`);
  else if (parts.html?.trim()) elements = await options.partitionEmbedded(utf8WithBom(parts.html), `${options.filename}.body.html`);
  for (const el of elements) {
    delete el.metadata.attached_to_filename;
    delete el.metadata.filename;
    delete el.metadata.filetype;
    delete el.metadata.file_directory;
  }
  return elements;
}

/**
 * A message's elements: the body through the text (or HTML) partitioner, each body element with
 * the message's metadata; then each attachment through `partitionEmbedded` (its elements carry
 * `attached_to_filename` and the message's `last_modified`). An attachment of a type no
 * partitioner handles is skipped, as in the Python library `unstructured`; one that fails is left
 * out with a warning; attachments past `QUARRY_MAX_EMBEDDING_DEPTH` levels are left out with a warning.
 */
export async function messageElements(parts: MessageParts, options: FormatPartitionOptions): Promise<Element[]> {
  const meta = parts.metadata;
  const out: Element[] = [];
  for (const el of await bodyElements(parts, options)) {
    el.metadata = { ...el.metadata, ...meta };
    out.push(el);
  }
  // An e-mail attached to an e-mail attached to ... : attachments past the limit are left out.
  const tooDeep = (options.embeddingDepth ?? 0) >= partitionLimits().maxEmbeddingDepth;
  for (const { name, content } of parts.attachments) {
    options.signal.throwIfAborted();
    if (tooDeep) {
      options.logger.warn(limitWarning('maxEmbeddingDepth', options.filename, `attachment ${name}, nested ${(options.embeddingDepth ?? 0) + 1} levels deep,`), {
        filename: options.filename,
        attachment: name,
        limit: LIMIT_ENV.maxEmbeddingDepth,
      });
      continue;
    }
    let elements: Element[];
    try {
      elements = await options.partitionEmbedded(content, name);
    } catch (e) {
      if (options.signal.aborted) throw e;
      if (isQuarryError(e) && (e.code === 'FILETYPE_UNSUPPORTED' || e.code === 'FILE_EMPTY')) {
        options.logger.debug(`${options.filename}: attachment ${name} skipped: ${e.message}`);
        continue;
      }
      // One unreadable attachment should not lose the message and its other attachments.
      options.logger.warn(`${options.filename}: attachment ${name} could not be partitioned: ${(e as Error).message}`, {
        code: isQuarryError(e) ? e.code : undefined,
      });
      continue;
    }
    for (const el of elements) {
      if (meta.last_modified) el.metadata.last_modified = meta.last_modified;
      out.push(el);
    }
  }
  return out;
}
