import type { AttachmentData, FieldsData } from '@kenjiuno/msgreader';
import type { ElementMetadata } from '@quarry/core';
import { errorMessage, quarryError } from '@quarry/core/errors';
import type { FormatPartitioner } from '../types.js';
import { formatAddress } from './eml.js';
import { messageElements } from './shared/message.js';

/** The part of msgreader's class used here. */
type MsgReaderClass = new (data: ArrayBuffer) => { getFileData(): FieldsData; getAttachment(attach: FieldsData): AttachmentData };

function recipients(fields: FieldsData, type: 'to' | 'cc' | 'bcc'): string[] {
  return (fields.recipients ?? []).filter((r) => (r.recipType ?? 'to') === type).map((r) => formatAddress(r.name ?? '', r.smtpAddress || r.email || ''));
}

// The same fields, named the same way, as the EML partitioner writes from a message's headers.
function msgMetadata(fields: FieldsData): ElementMetadata {
  const meta: ElementMetadata = {};
  const sender = formatAddress(fields.senderName ?? '', fields.senderSmtpAddress || fields.senderEmail || '');
  if (sender) meta.sent_from = [sender];
  const to = recipients(fields, 'to');
  if (to.length) meta.sent_to = to;
  const cc = recipients(fields, 'cc');
  if (cc.length) meta.cc_recipient = cc;
  const bcc = recipients(fields, 'bcc');
  if (bcc.length) meta.bcc_recipient = bcc;
  if (fields.subject) meta.subject = fields.subject;
  if (fields.messageId) meta.email_message_id = fields.messageId.trim().replace(/^<|>$/g, '');
  const sent = new Date(fields.messageDeliveryTime ?? fields.clientSubmitTime ?? '');
  if (!Number.isNaN(sent.getTime())) meta.last_modified = `${sent.toISOString().slice(0, 19)}+00:00`;
  return meta;
}

/**
 * Outlook messages (`.msg`, read with `@kenjiuno/msgreader`): the body as plain text (or its HTML
 * version when it has none), with the same e-mail metadata as an `.eml` (`sent_from`, `sent_to`,
 * `cc_recipient`, `bcc_recipient`, `subject`, `email_message_id`, `last_modified` from the delivery
 * time), then each attachment partitioned as the EML partitioner does, an attached `.msg` included.
 */
export const msgPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    // A CommonJS module compiled from ES modules: under Node its class is `default.default`.
    const mod = (await import('@kenjiuno/msgreader')) as unknown as { default: MsgReaderClass | { default: MsgReaderClass } };
    const MsgReader = 'default' in mod.default ? mod.default.default : mod.default;
    const reader = new MsgReader(bytes.slice().buffer);
    let fields: FieldsData;
    try {
      fields = reader.getFileData();
    } catch (e) {
      throw unreadable(options.filename, errorMessage(e), e);
    }
    if (fields.error) throw unreadable(options.filename, fields.error);
    const attachments = [];
    for (const [i, att] of (fields.attachments ?? []).entries()) {
      let content: Uint8Array;
      let name: string;
      try {
        const data = reader.getAttachment(att);
        content = data.content;
        name = data.fileName || att.fileName || `attachment-${i + 1}${att.innerMsgContent ? '.msg' : ''}`;
      } catch (e) {
        options.logger.warn(`${options.filename}: attachment ${att.fileName ?? i + 1} cannot be read: ${errorMessage(e)}`);
        continue;
      }
      attachments.push({ name, content });
    }
    const html = fields.bodyHtml ?? (fields.html ? new TextDecoder().decode(fields.html) : undefined);
    return messageElements({ text: fields.body, html, metadata: msgMetadata(fields), attachments }, options);
  },
};

function unreadable(filename: string, reason: string, cause?: unknown): Error {
  return quarryError('FILE_UNREADABLE', `${filename}: not a readable Outlook message (.msg): ${reason}`, { cause, details: { filename, reason } });
}
