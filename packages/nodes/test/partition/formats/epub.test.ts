import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { epubPartitioner } from '../../../src/partition/formats/epub.js';
import { makeOptions, partitionError } from './helpers.js';

const chapter = (title: string, text: string): string =>
  `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

async function buildEpub(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip');
  zip.file(
    'META-INF/container.xml',
    '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  );
  zip.file(
    'OEBPS/content.opf',
    `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>
      <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
      <item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>
      <item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/>
      <item id="img" href="cover.png" media-type="image/png"/>
    </manifest><spine><itemref idref="c1"/><itemref idref="img"/><itemref idref="c2"/></spine></package>`,
  );
  zip.file('OEBPS/nav.xhtml', chapter('Contents', 'Not in the spine.'));
  zip.file('OEBPS/text/ch1.xhtml', chapter('The Departure', 'The ship left the harbour before dawn and sailed north.'));
  zip.file('OEBPS/text/ch2.xhtml', chapter('The Storm', 'By noon the wind had turned and the crew reefed the sails.'));
  return zip.generateAsync({ type: 'uint8array' });
}

describe('epubPartitioner', () => {
  it('partitions the spine documents in reading order with the HTML partitioner', async () => {
    const els = await epubPartitioner.partition(await buildEpub(), makeOptions('book.epub'));
    expect(els.map((e) => [e.type, e.text])).toEqual([
      ['Title', 'The Departure'],
      ['NarrativeText', 'The ship left the harbour before dawn and sailed north.'],
      ['Title', 'The Storm'],
      ['NarrativeText', 'By noon the wind had turned and the crew reefed the sails.'],
    ]);
  });

  it('fails with FILE_UNREADABLE naming the file without a container', async () => {
    const zip = new JSZip();
    zip.file('mimetype', 'application/epub+zip');
    const err = await partitionError(epubPartitioner, await zip.generateAsync({ type: 'uint8array' }), makeOptions('bad.epub'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('bad.epub');
  });
});
