import { describe, expect, it } from 'vitest';
import { luma } from '../../src/partition/luma.js';

describe('luma', () => {
  it('keeps a grey pixel its value, every one of the 256', () => {
    const out = Uint8Array.from({ length: 256 }, (_, v) => luma(v, v, v));
    expect([...out]).toEqual(Array.from({ length: 256 }, (_, v) => v));
  });

  it('weighs red, green and blue as BT.601 does, truncated when stored in bytes', () => {
    // 255 x 0.299 = 76.245, x 0.587 = 149.685, x 0.114 = 29.07.
    expect([...Uint8Array.of(luma(255, 0, 0), luma(0, 255, 0), luma(0, 0, 255))]).toEqual([76, 149, 29]);
    expect(luma(255, 0, 0)).toBeCloseTo(76.245, 10);
  });
});
