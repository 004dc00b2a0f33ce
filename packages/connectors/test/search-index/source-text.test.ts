import { describe, expect, it } from 'vitest';
import { hitStem, sourceText } from '../../src/search-index/source-text.js';

describe('sourceText', () => {
  it('writes the flattened _source values one per line, scalars as Python str() and lists as JSON', () => {
    const text = sourceText({ title: 'Report', meta: { pages: 3, ok: true, nothing: null, ratio: 0.5 }, tags: ['a', 'b'], nested: { deeper: { x: 'y' } } });
    expect(text).toBe('Report\n3\nTrue\nNone\n0.5\n["a","b"]\ny');
  });
});

describe('hitStem', () => {
  it('is {index}-{_id}, with the first 8 hex digits of sha256(fields joined by ",") when fields are selected', () => {
    expect(hitStem('idx', '42', [])).toBe('idx-42');
    // python3 -c "import hashlib; print(hashlib.sha256(b'title,body').hexdigest()[:8])"
    expect(hitStem('idx', '42', ['title', 'body'])).toBe('idx-42-cef3a36a');
  });
});
