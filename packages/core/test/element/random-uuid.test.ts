import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../src/element/random-uuid.js';

describe('randomUuid', () => {
  it('gives distinct version 4 UUIDs across several batches', () => {
    const ids = Array.from({ length: 1000 }, () => randomUuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('varies every random hex digit', () => {
    const ids = Array.from({ length: 600 }, () => randomUuid().replaceAll('-', ''));
    // Digit 12 is the version, 16 the variant (8-b); every other position takes many values.
    for (let pos = 0; pos < 32; pos++) {
      const seen = new Set(ids.map((id) => id[pos]));
      if (pos === 12) expect([...seen]).toEqual(['4']);
      else if (pos === 16) expect([...seen].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect(seen.size).toBeGreaterThan(10);
    }
  });
});
