import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseSettings } from '../../src/index.js';

describe('parseSettings', () => {
  it('applies zod defaults and reports problems with JSON pointers', () => {
    const schema = z.object({ size: z.number().int().default(5), tags: z.array(z.string()).optional() });
    expect(parseSettings(schema, {})).toEqual({ ok: true, value: { size: 5 } });
    const bad = parseSettings(schema, { size: 'x', tags: ['a', 2] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems.map((p) => p.path).sort()).toEqual(['/size', '/tags/1']);
  });

  it('accepts JSON Schema settings (plain-JS plugins) with defaults via ajv', () => {
    const schema = {
      type: 'object',
      properties: { size: { type: 'integer', default: 5 }, name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    };
    expect(parseSettings(schema, { name: 'n' })).toEqual({ ok: true, value: { name: 'n', size: 5 } });
    const bad = parseSettings(schema, { size: 1.5, extra: true });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.problems).toEqual(
        expect.arrayContaining([
          { path: '/name', message: expect.stringContaining('name') },
          { path: '/extra', message: 'unknown setting' },
          { path: '/size', message: 'must be integer' },
        ]),
      );
  });
});
