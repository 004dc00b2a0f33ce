import { describe, expect, it } from 'vitest';
import { codecFor, needsCodecLook } from '../../src/chunk/code-points.js';

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

  it('flags only strings that matter', () => {
    expect(needsCodecLook('abc')).toBe(false);
    expect(needsCodecLook('a😀')).toBe(true);
    expect(needsCodecLook('\ue123')).toBe(true);
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
