import type { AddressObject, Attachment, EmailAddress, ParsedMail } from 'mailparser';
import type { Element, ElementMetadata } from '@quarry/core';
import { errorMessage, isQuarryError, quarryError } from '@quarry/core/errors';
import { LIMIT_ENV, limitWarning, partitionLimits } from '../limits.js';
import type { FormatPartitionOptions, FormatPartitioner } from '../types.js';

const SPECIALS = /[()<>@,:;".[\]\\]/;

/** Python's `email.utils.formataddr`: `Name <addr>`, the name quoted when it holds specials. */
export function formatAddress(name: string, address: string): string {
  if (!name) return address;
  const quoted = SPECIALS.test(name) ? `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"` : name;
  return address ? `${quoted} <${address}>` : quoted;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const out: string[] = [];
  const visit = (a: EmailAddress): void => {
    if (a.group) a.group.forEach(visit);
    else if (a.address || a.name) out.push(formatAddress(a.name, a.address ?? ''));
  };
  for (const obj of Array.isArray(field) ? field : field ? [field] : []) obj.value.forEach(visit);
  return out;
}

/** `2022-12-23T18:08:48+00:00`: the reference's ISO form of the sent date, in UTC, to the second. */
function isoUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** The e-mail metadata the reference writes on every body element. */
export function emailMetadata(mail: ParsedMail): ElementMetadata {
  const meta: ElementMetadata = {};
  const from = addresses(mail.from);
  if (from.length) meta.sent_from = [from[0]!];
  const to = addresses(mail.to);
  if (to.length) meta.sent_to = to;
  const cc = addresses(mail.cc);
  if (cc.length) meta.cc_recipient = cc;
  const bcc = addresses(mail.bcc);
  if (bcc.length) meta.bcc_recipient = bcc;
  if (mail.subject) meta.subject = mail.subject;
  if (mail.messageId) meta.email_message_id = mail.messageId.trim().replace(/^<|>$/g, '');
  if (mail.date && !Number.isNaN(mail.date.getTime())) meta.last_modified = isoUtc(mail.date);
  return meta;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'text/plain': '.txt',
  'text/html': '.html',
  'text/csv': '.csv',
  'text/markdown': '.md',
  'application/pdf': '.pdf',
  'application/json': '.json',
  'message/rfc822': '.eml',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/tiff': '.tiff',
};

function attachmentName(att: Attachment, index: number): string {
  if (att.filename) return att.filename;
  return `attachment-${index + 1}${EXTENSIONS[att.contentType] ?? ''}`;
}

/**
 * Partitions the message body through the text or HTML partitioner. Body elements belong to the
 * e-mail itself, so the embedded-file markers the nested call adds are removed.
 */
/** UTF-8 with a byte-order mark, so the nested partitioner decodes it whatever `encoding` says. */
function utf8WithBom(text: string): Uint8Array {
  const body = new TextEncoder().encode(text);
  const out = new Uint8Array(body.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(body, 3);
  return out;
}

async function bodyElements(mail: ParsedMail, options: FormatPartitionOptions): Promise<Element[]> {
  let elements: Element[] = [];
  if (mail.text?.trim()) elements = await options.partitionEmbedded(utf8WithBom(mail.text), `${options.filename}.body.txt`);
  else if (typeof mail.html === 'string' && mail.html.trim()) {
    elements = await options.partitionEmbedded(utf8WithBom(mail.html), `${options.filename}.body.html`);
  }
  for (const el of elements) {
    delete el.metadata.attached_to_filename;
    delete el.metadata.filename;
    delete el.metadata.filetype;
    delete el.metadata.file_directory;
  }
  return elements;
}

/**
 * EML (RFC 822 messages, any charset). The body is partitioned as plain text when the message has
 * a text part, else as HTML; every body element carries `sent_from`, `sent_to`, `cc_recipient`,
 * `bcc_recipient`, `subject`, `email_message_id` and `last_modified` (the Date header, UTC). Then
 * each attachment is partitioned with `partitionEmbedded` (its elements carry
 * `attached_to_filename` and the message's `last_modified`); an attachment of a type no
 * partitioner handles is skipped, as in the reference. Attachments nested more than
 * `QUARRY_MAX_EMBEDDING_DEPTH` levels deep (an e-mail attached to an e-mail attached to ...) are
 * left out with a warning on the partition logger.
 *
 * The reference prefers the HTML body by default (`content_source="text/html"`); quarry prefers
 * the text part because mail HTML is mostly layout tables and styling, which partition into worse
 * elements than the sender's own plain-text version.
 */
export const emlPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const { simpleParser } = await import('mailparser');
    let mail: ParsedMail;
    try {
      mail = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipTextLinks: true,
        skipImageLinks: true,
      });
    } catch (e) {
      // mailparser's messages describe its own state; the user learns the message's structure is broken.
      throw quarryError('FILE_UNREADABLE', `${options.filename}: not a readable e-mail message (its MIME structure is damaged)`, {
        cause: e,
        details: { filename: options.filename, reason: errorMessage(e) },
      });
    }
    const meta = emailMetadata(mail);
    const out: Element[] = [];
    for (const el of await bodyElements(mail, options)) {
      el.metadata = { ...el.metadata, ...meta };
      out.push(el);
    }
    // An e-mail attached to an e-mail attached to ... : attachments past the limit are left out.
    const tooDeep = (options.embeddingDepth ?? 0) >= partitionLimits().maxEmbeddingDepth;
    for (const [i, att] of mail.attachments.entries()) {
      options.signal.throwIfAborted();
      const name = attachmentName(att, i);
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
        elements = await options.partitionEmbedded(new Uint8Array(att.content), name);
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
  },
};
