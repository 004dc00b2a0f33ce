import { describe, expect, it } from 'vitest';
import { documentId, uuid5 } from '../../src/search-index/document-id.js';

describe('uuid5', () => {
  it("matches Python's uuid.uuid5(uuid.NAMESPACE_DNS, name)", () => {
    // python3 -c "import uuid; print(uuid.uuid5(uuid.NAMESPACE_DNS, 'python.org'))"
    expect(uuid5('python.org')).toBe('886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('names a search document by element_id + record_id, as the reference stager', () => {
    expect(documentId('abc', 'doc.pdf')).toBe(uuid5('abcdoc.pdf'));
    expect(documentId('abc', 'doc.pdf')).not.toBe(documentId('abc', 'other.pdf'));
  });
});
