import { describe, expect, it } from 'vitest';
import { QuarryError, type Element } from '@quarry/core';
import { emlPartitioner, formatAddress } from '../../../src/partition/formats/eml.js';
import { corpusDoc, hasCorpus, makeOptions } from './helpers.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

const MULTIPART = [
  'From: "Doe, Jane" <jane@example.com>',
  'To: Bob <bob@example.com>, carol@example.com',
  'Cc: Dan <dan@example.com>',
  'Bcc: eve@example.com',
  'Subject: Quarterly numbers',
  'Date: Fri, 23 Dec 2022 12:08:48 -0600',
  'Message-ID: <abc.123@example.com>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="OUTER"',
  '',
  '--OUTER',
  'Content-Type: multipart/alternative; boundary="INNER"',
  '',
  '--INNER',
  'Content-Type: text/plain; charset="ISO-8859-1"',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'The caf=E9 budget is attached.',
  '',
  '--INNER',
  'Content-Type: text/html; charset="UTF-8"',
  '',
  '<p>The caf&eacute; budget is attached.</p>',
  '--INNER--',
  '--OUTER',
  'Content-Type: text/plain; name="budget.txt"',
  'Content-Disposition: attachment; filename="budget.txt"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('Budget: 100 units').toString('base64'),
  '--OUTER',
  'Content-Type: application/x-unknown',
  'Content-Disposition: attachment; filename="blob.bin"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from([1, 2, 3]).toString('base64'),
  '--OUTER--',
  '',
].join('\r\n');

/** Stands in for the partition node's own dispatch: text by extension, other types unsupported. */
async function dispatch(bytes: Uint8Array, name: string): Promise<Element[]> {
  if (!/\.(txt|html)$/.test(name)) throw new QuarryError('FILETYPE_UNSUPPORTED', `${name}: no partitioner`);
  const text = new TextDecoder().decode(bytes);
  return [
    { element_id: name, type: 'NarrativeText', text: text.trim(), metadata: { attached_to_filename: 'mail.eml', filename: name, filetype: 'text/plain' } },
  ];
}

describe('emlPartitioner', () => {
  it('partitions the text body with the e-mail metadata, then the attachments, skipping unsupported ones', async () => {
    const options = makeOptions('mail.eml', { partitionEmbedded: dispatch });
    const els = await emlPartitioner.partition(enc(MULTIPART), options);
    expect(els.map((e) => e.text)).toEqual(['The café budget is attached.', 'Budget: 100 units']);
    const body = els[0]!.metadata;
    expect(body).toEqual({
      sent_from: ['"Doe, Jane" <jane@example.com>'],
      sent_to: ['Bob <bob@example.com>', 'carol@example.com'],
      cc_recipient: ['Dan <dan@example.com>'],
      bcc_recipient: ['eve@example.com'],
      subject: 'Quarterly numbers',
      email_message_id: 'abc.123@example.com',
      last_modified: '2022-12-23T18:08:48+00:00',
    });
    // Attachment elements keep the nested call's markers and get the message date, not its headers.
    expect(els[1]!.metadata).toEqual({
      attached_to_filename: 'mail.eml',
      filename: 'budget.txt',
      filetype: 'text/plain',
      last_modified: '2022-12-23T18:08:48+00:00',
    });
    expect(options.warnings).toEqual([]);
  });

  it('falls back to the HTML body when there is no text part', async () => {
    const mail = ['From: a@example.com', 'Subject: Hi', 'Content-Type: text/html; charset=utf-8', '', '<p>Hello <b>there</b></p>', ''].join('\r\n');
    const options = makeOptions('h.eml');
    const els = await emlPartitioner.partition(enc(mail), options);
    expect(options.embedded.map((c) => c.filename)).toEqual(['h.eml.body.html']);
    expect(els[0]!.text).toBe('<p>Hello <b>there</b></p>');
    expect(els[0]!.metadata).toEqual({ sent_from: ['a@example.com'], subject: 'Hi' });
  });

  it('keeps going when an attachment fails, with a warning', async () => {
    const options = makeOptions('mail.eml', {
      partitionEmbedded: async (bytes, name) => {
        if (name === 'budget.txt') throw new QuarryError('FILE_UNREADABLE', 'budget.txt: broken');
        return dispatch(bytes, name);
      },
    });
    const els = await emlPartitioner.partition(enc(MULTIPART), options);
    expect(els.map((e) => e.text)).toEqual(['The café budget is attached.']);
    expect(options.warnings).toHaveLength(1);
    expect(options.warnings[0]).toContain('budget.txt');
  });

  it('formats addresses like Python formataddr', () => {
    expect(formatAddress('', 'a@b.c')).toBe('a@b.c');
    expect(formatAddress('Ann Lee', 'a@b.c')).toBe('Ann Lee <a@b.c>');
    expect(formatAddress('Lee, Ann "AL"', 'a@b.c')).toBe('"Lee, Ann \\"AL\\"" <a@b.c>');
  });
});

describe.skipIf(!hasCorpus)('emlPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('fake-email-attachment.eml: text body plus the .txt attachment', async () => {
    const options = makeOptions('fake-email-attachment.eml');
    const els = await emlPartitioner.partition(corpusDoc('fake-email-attachment.eml'), options);
    expect(options.embedded.map((c) => c.filename)).toEqual(['fake-email-attachment.eml.body.txt', 'fake-attachment.txt']);
    expect(new TextDecoder().decode(options.embedded[0]!.bytes)).toContain('Lots of whitespace');
    expect(new TextDecoder().decode(options.embedded[1]!.bytes)).toBe('Hey this is a fake attachment!');
    expect(els[0]!.metadata).toMatchObject({
      sent_from: ['Mallori Harrell <mallori@unstructured.io>'],
      sent_to: ['Mallori Harrell <mallori@unstructured.io>'],
      subject: 'Fake email with attachment',
      email_message_id: 'CAPgNNXSzLVJ-d1OCX_TjFgJU7ugtQrjFybPtAMmmYZzphxNFYg@mail.gmail.com',
      last_modified: '2022-12-23T18:08:48+00:00',
    });
  });

  it('email-no-utf8-2014-03-17.111517.eml (ISO-8859-1): text body and two image attachments', async () => {
    const options = makeOptions('email-no-utf8-2014-03-17.111517.eml');
    const els = await emlPartitioner.partition(corpusDoc('email-no-utf8-2014-03-17.111517.eml'), options);
    expect(options.embedded.map((c) => c.filename)).toEqual(['email-no-utf8-2014-03-17.111517.eml.body.txt', 'google.png', 'profilephoto.png']);
    expect(els[0]!.text).toContain('The password for your Google Account');
    expect(els[0]!.metadata).toMatchObject({
      sent_from: ['no-reply@accounts.google.com'],
      sent_to: ['slatest@gmail.com'],
      subject: 'Google Account password changed',
      last_modified: '2014-03-17T11:15:04+00:00',
    });
    // The PNG bytes reach the nested partitioner intact.
    expect([...options.embedded[1]!.bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});
