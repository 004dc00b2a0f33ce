import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { documentId, uuid5 } from '../../src/search-index/document-id.js';

describe('uuid5', () => {
  it("matches Python's uuid.uuid5(uuid.NAMESPACE_DNS, name)", () => {
    // python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'))"
    expect(uuid5('python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('hashes the UTF-8 bytes of any name, short or long (past the one-shot scratch buffer)', () => {
    const dns = Buffer.from('6ba7b8109dad11d180b400c04fd430c8', 'hex');
    const byHand = (name: string): string => {
      const h = createHash('sha1').update(dns).update(name, 'utf8').digest();
      h[6] = (h[6]! & 0x0f) | 0x50;
      h[8] = (h[8]! & 0x3f) | 0x80;
      const x = h.subarray(0, 16).toString('hex');
      return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
    };
    for (const name of ['', 'a', 'élément-ß/文書.pdf', '😀'.repeat(100), 'x'.repeat(336), 'x'.repeat(337), 'ü'.repeat(5000)]) {
      expect(uuid5(name)).toBe(byHand(name));
    }
  });

  it('names a search document by element_id + record_id, as the reference stager', () => {
    expect(documentId('abc', 'doc.pdf')).toBe(uuid5('abcdoc.pdf'));
    expect(documentId('abc', 'doc.pdf')).not.toBe(documentId('abc', 'other.pdf'));
  });
});
