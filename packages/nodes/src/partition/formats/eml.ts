import type { AddressObject, Attachment, EmailAddress, ParsedMail } from 'mailparser';
import type { ElementMetadata } from '@quarry/core';
import { errorMessage, quarryError } from '@quarry/core/errors';
import { isSignedData } from '../detect-filetype.js';
import { EXTENSION_MIME_TYPES, canonicalMimeType } from './index.js';
import type { FormatPartitioner } from '../types.js';
import { messageElements, type MessageParts } from './shared/message.js';
import { SMIME_CONTAINER_TYPES, SMIME_SIGNATURE_TYPES, signedContent } from './shared/smime.js';

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

/** `2022-12-23T18:08:48+00:00`: `unstructured`'s ISO form of the sent date, in UTC, to the second. */
function isoUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** The e-mail metadata `unstructured` writes on every body element. */
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

function attachmentName(att: Attachment, index: number): string {
  if (att.filename) return att.filename;
  // The type's first extension in the formats' table, so that detection knows the attachment.
  const type = canonicalMimeType(att.contentType);
  const extension = Object.keys(EXTENSION_MIME_TYPES).find((ext) => EXTENSION_MIME_TYPES[ext] === type);
  return `attachment-${index + 1}${extension ?? ''}`;
}

/**
 * EML (RFC 822 messages, any charset). The body is partitioned as plain text when the message has
 * a text part, else as HTML; every body element carries `sent_from`, `sent_to`, `cc_recipient`,
 * `bcc_recipient`, `subject`, `email_message_id` and `last_modified` (the Date header, UTC). Then
 * each attachment is partitioned with `partitionEmbedded` (its elements carry
 * `attached_to_filename` and the message's `last_modified`); an attachment of a type no
 * partitioner handles is skipped, as in `unstructured`. Attachments nested more than
 * `QUARRY_MAX_EMBEDDING_DEPTH` levels deep (an e-mail attached to an e-mail attached to ...) are
 * left out with a warning on the partition logger.
 *
 * Signed mail (`.p7s`, S/MIME) reads as the message it signs: a clear-signed one without its
 * signature attachment, an opaque-signed one (`application/pkcs7-mime`, or the DER structure saved
 * alone) unwrapped to the enclosed MIME entity. The signature is not verified.
 *
 * `unstructured` prefers the HTML body by default (`content_source="text/html"`); quarry prefers
 * the text part because mail HTML is mostly layout tables and styling, which partition into worse
 * elements than the sender's own plain-text version.
 */
export const emlPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    // A signed message saved as DER (a binary `.p7s`) is its signed MIME entity.
    let message = bytes;
    if (isSignedData(bytes)) {
      const signed = signedContent(bytes);
      if (!signed)
        throw quarryError('FILE_UNREADABLE', `${options.filename}: damaged S/MIME signed data (its DER structure is cut short or malformed)`, {
          details: { filename: options.filename },
        });
      message = signed;
    }
    const mail = await parseMail(message, options.filename);
    return messageElements(await unwrapSigned(mail, options.filename), options);
  },
};

async function parseMail(bytes: Uint8Array, filename: string): Promise<ParsedMail> {
  const { simpleParser } = await import('mailparser');
  try {
    return await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch (e) {
    // mailparser's messages describe its own state; the user learns the message's structure is broken.
    throw quarryError('FILE_UNREADABLE', `${filename}: not a readable e-mail message (its MIME structure is damaged)`, {
      cause: e,
      details: { filename, reason: errorMessage(e) },
    });
  }
}

/**
 * The message's parts, S/MIME signing taken off: a clear-signed (`multipart/signed`) message loses
 * its signature attachment; an opaque-signed one (`application/pkcs7-mime`, signed data) is
 * replaced by the MIME entity it signs, under the outer message's sender, recipients and subject.
 */
async function unwrapSigned(mail: ParsedMail, filename: string, depth = 0): Promise<MessageParts> {
  const attachments = mail.attachments.filter((att) => !SMIME_SIGNATURE_TYPES.has(att.contentType));
  const only = attachments.length === 1 && !mail.text?.trim() ? attachments[0]! : undefined;
  const inner = only && SMIME_CONTAINER_TYPES.has(only.contentType) && depth < 4 ? signedContent(new Uint8Array(only.content)) : undefined;
  if (inner) {
    const parts = await unwrapSigned(await parseMail(inner, filename), filename, depth + 1);
    return { ...parts, metadata: { ...parts.metadata, ...emailMetadata(mail) } };
  }
  return {
    text: mail.text,
    html: typeof mail.html === 'string' ? mail.html : undefined,
    metadata: emailMetadata(mail),
    attachments: attachments.map((att, i) => ({ name: attachmentName(att, i), content: new Uint8Array(att.content) })),
  };
}
