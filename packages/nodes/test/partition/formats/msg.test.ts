import { describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { fixture, partitionFixture, typesAndTexts } from './fixtures.js';

describe('msg partitioner', () => {
  it("reads an Outlook message's body with the sender, recipient, subject and date metadata an .eml gets", async () => {
    const elements = await partitionFixture('unstructured-fake-email.msg');
    expect(typesAndTexts(elements)).toEqual([
      ['NarrativeText', 'This is a test email to use for unit tests.'],
      ['Title', 'Important points:'],
      ['ListItem', 'Roses are red'],
      ['ListItem', 'Violets are blue'],
    ]);
    expect(elements[0]!.metadata).toMatchObject({
      filetype: 'application/vnd.ms-outlook',
      sent_from: ['Matthew Robinson <mrobinson@unstructured.io>'],
      sent_to: ['Matthew Robinson <mrobinson@unstructured.io>'],
      subject: 'Test Email',
      email_message_id: 'CADc-_xaLB2FeVQ7mNsoX+NJb_7hAJhBKa_zet-rtgPGenj0uVw@mail.gmail.com',
      last_modified: '2022-12-16T22:04:16+00:00',
    });
  });

  it('partitions attachments as the eml partitioner does', async () => {
    const elements = await partitionFixture('unstructured-fake-email-attachment.msg');
    const attached = elements.filter((e) => e.metadata.attached_to_filename);
    expect(attached.map((e) => [e.text, e.metadata.attached_to_filename, e.metadata.filetype])).toEqual([
      ['Hey this is a fake attachment!', 'unstructured-fake-email-attachment.msg', 'text/plain'],
    ]);
    expect(attached[0]!.metadata.last_modified).toBe('2022-12-23T18:08:48+00:00');
    expect(elements[0]!.metadata.subject).toBe('Fake email with attachment');
  });

  it('fails alone with a coded error naming the file for a damaged message', async () => {
    const bytes = fixture('unstructured-fake-email.msg');
    const err = await partitionFile(bytes.subarray(0, 2048), { filename: 'cut.msg' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({ code: 'FILE_UNREADABLE' });
    expect((err as Error).message).toContain('cut.msg');
  });
});
