import { describe, expect, it } from 'vitest';
import { parseJsonObject } from '../../src/prompter/parse-json.js';

describe('parseJsonObject', () => {
  it('reads bare JSON, fenced JSON and JSON inside prose', () => {
    expect(parseJsonObject('{"a": 1}', 't')).toEqual({ a: 1 });
    expect(parseJsonObject('```json\n{"a": [1, 2]}\n```', 't')).toEqual({ a: [1, 2] });
    expect(parseJsonObject('The result is {"a": {"b": "}"}} as requested.', 't')).toEqual({ a: { b: '}' } });
  });
  it('rejects arrays, scalars and broken JSON with ENRICHMENT_RESPONSE_INVALID naming the task', () => {
    for (const bad of ['[1, 2]', '42', '{"a": ', 'nothing']) {
      expect(() => parseJsonObject(bad, 'openai ner')).toThrow(
        expect.objectContaining({ code: 'ENRICHMENT_RESPONSE_INVALID', message: expect.stringContaining('openai ner') }),
      );
    }
  });
});
