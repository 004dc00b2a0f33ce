import { describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { detectFileType } from '../../../src/partition/detect-filetype.js';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { fixture, partitionFixture, typesAndTexts } from './fixtures.js';

const BODY: Array<[string, string]> = [
  ['NarrativeText', 'The granite blocks ship on Monday.'],
  ['NarrativeText', 'Please confirm the delivery address.'],
];

describe('signed e-mail (.p7s)', () => {
  it('reads a clear-signed (multipart/signed) message as its body, without the signature', async () => {
    const elements = await partitionFixture('signed-clear.p7s');
    expect(typesAndTexts(elements)).toEqual(BODY);
    expect(elements[0]!.metadata).toMatchObject({
      filetype: 'message/rfc822',
      sent_from: ['Ana Quarry <ana@example.org>'],
      sent_to: ['Ben Stone <ben@example.org>'],
      subject: 'Signed delivery note',
    });
  });

  it('unwraps an opaque-signed (application/pkcs7-mime) message under the outer headers', async () => {
    const elements = await partitionFixture('signed-opaque.p7s');
    expect(typesAndTexts(elements)).toEqual(BODY);
    expect(elements[0]!.metadata).toMatchObject({ sent_from: ['Ana Quarry <ana@example.org>'], subject: 'Opaque delivery note' });
  });

  it('detects and unwraps signed data saved as DER', async () => {
    const bytes = fixture('signed-opaque-der.p7s');
    expect((await detectFileType(bytes, 'note.bin')).mime).toBe('message/rfc822');
    expect(typesAndTexts(await partitionFile(bytes, { filename: 'note.bin' }))).toEqual(BODY);
  });

  it('fails alone with a coded error naming the file for damaged signed data', async () => {
    const bytes = fixture('signed-opaque-der.p7s');
    const err = await partitionFile(bytes.subarray(0, 200), { filename: 'cut.p7s' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).message).toContain('cut.p7s');
  });
});
