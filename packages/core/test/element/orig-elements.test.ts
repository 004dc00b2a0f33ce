import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeOrigElements, encodeOrigElements, origElementsOf, stableStringify, type Element } from '../../src/index.js';

const els: Element[] = [
  { type: 'Title', element_id: 'b', text: 'Héllo', metadata: { page_number: 1, languages: ['eng'] } },
  { type: 'NarrativeText', element_id: 'a', text: 'World', metadata: {} },
];

describe('orig_elements compressed form', () => {
  it('writes zlib (eJ...) over sorted-key JSON like Python json.dumps(sort_keys=True)', () => {
    const enc = encodeOrigElements(els);
    expect(enc.startsWith('eJ')).toBe(true);
    const json = inflateSync(Buffer.from(enc, 'base64')).toString('utf8');
    expect(json.startsWith('[{"element_id": "b", "metadata": {"languages": ["eng"], "page_number": 1}, "text": "H\\u00e9llo", "type": "Title"}')).toBe(true);
  });

  it('round-trips', () => {
    expect(decodeOrigElements(encodeOrigElements(els))).toEqual(els);
    expect(origElementsOf({ type: 'CompositeElement', element_id: 'c', text: '', metadata: { orig_elements: encodeOrigElements(els) } })).toEqual(els);
    expect(origElementsOf({ type: 'CompositeElement', element_id: 'c', text: '', metadata: { orig_elements: els } })).toBe(els);
  });

  it('rejects garbage with a coded error', () => {
    expect(() => decodeOrigElements('not base64 zlib')).toThrowError(expect.objectContaining({ code: 'ELEMENT_INVALID' }));
  });

  it('stableStringify sorts keys and escapes non-ASCII', () => {
    expect(stableStringify({ b: 1, a: [true, null, 'ü'] })).toBe('{"a": [true, null, "\\u00fc"], "b": 1}');
  });
});
