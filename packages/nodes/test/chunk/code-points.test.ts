import { describe, expect, it } from 'vitest';
import { codePointLength, codePointTail, codecFor, surrogatePairs } from '../../src/chunk/code-points.js';

describe('codecFor', () => {
  it('is the identity without astral characters', () => {
    const codec = codecFor(['plain', 'ünïcødé 中文']);
    expect(codec.identity).toBe(true);
    expect(codec.encode('x')).toBe('x');
  });

  it('maps each astral character to one code unit and back', () => {
    const texts = ['smile 😀 and 𝒳', 'again 😀'];
    const codec = codecFor(texts);
    expect(codec.identity).toBe(false);
    const encoded = texts.map((t) => codec.encode(t));
    expect(encoded.map((e) => e.length)).toEqual(texts.map((t) => [...t].length));
    expect(encoded.map((e) => codec.decode(e))).toEqual(texts);
  });

  it('never uses a private-use character the text already holds', () => {
    const texts = ['\ue000\ue001 😀'];
    const codec = codecFor(texts);
    const encoded = codec.encode(texts[0] as string);
    expect(encoded.slice(0, 2)).toBe('\ue000\ue001');
    expect(encoded.at(-1)).not.toMatch(/[\ue000\ue001]/);
    expect(codec.decode(encoded)).toBe(texts[0]);
  });

  it('maps astral characters until the stand-ins run out; the rest keep two units and still round-trip', () => {
    // 7,000 distinct astral characters over several surrogate pages, and one stand-in taken by the text.
    const astral = Array.from({ length: 7000 }, (_, i) => String.fromCodePoint(0x1f000 + i)).join('');
    const text = `\ue000${astral}`;
    const codec = codecFor([text]);
    const encoded = codec.encode(text);
    const standIns = 0xf8ff - 0xe000 + 1 + 0x20 - 1;
    expect(encoded.length).toBe(1 + standIns + 2 * (7000 - standIns));
    expect(encoded.startsWith('\ue000')).toBe(true);
    expect(encoded.indexOf('\ue000', 1)).toBe(-1);
    expect(codec.decode(encoded)).toBe(text);
  });

  it('passes lone surrogates through and handles texts longer than one conversion block', () => {
    const long = `${'😀 ab '.repeat(3000)}\ud800 x \udc00`;
    const codec = codecFor([long]);
    const encoded = codec.encode(long);
    expect(encoded.length).toBe([...long].length);
    expect(encoded.endsWith('\ud800 x \udc00')).toBe(true);
    expect(codec.decode(encoded)).toBe(long);
  });
});

describe('code-point lengths', () => {
  it('counts surrogate pairs as one code point and lone surrogates as one', () => {
    expect(surrogatePairs('plain')).toBe(0);
    expect(surrogatePairs('a😀b𝒳')).toBe(2);
    expect(codePointLength('a😀b𝒳')).toBe(4);
    // A lone high surrogate, a lone low one, and a low before a high: none is a pair.
    expect(codePointLength('\ud800a\udc00\udc00\ud800')).toBe(5);
    expect(codePointLength('😀\ud800')).toBe(2);
  });

  it('takes the last n code points, never splitting a pair', () => {
    expect(codePointTail('abc😀', 1)).toBe('😀');
    expect(codePointTail('abc😀', 2)).toBe('c😀');
    expect(codePointTail('😀😀x', 2)).toBe('😀x');
    expect(codePointTail('😀', 5)).toBe('😀');
    expect(codePointTail('ab\udc00', 1)).toBe('\udc00');
    expect(codePointTail('plain', 3)).toBe('plain'.slice(-3));
  });
});
