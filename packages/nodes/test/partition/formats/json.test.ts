import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { jsonPartitioner, ndjsonPartitioner } from '../../../src/partition/formats/json.js';
import { corpusDoc, hasCorpus, makeOptions, partitionError } from './helpers.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('jsonPartitioner', () => {
  it('reads element JSON back, aliases mapped, ids, parent links and metadata kept', async () => {
    const json = JSON.stringify([
      { type: 'Title', element_id: 'a1', text: 'Intro', metadata: { page_number: 1, filetype: 'text/html' } },
      { type: 'Paragraph', element_id: 'b2', text: 'Body text.', metadata: { parent_id: 'a1' } },
      { type: 'CheckBox', element_id: 'c3', text: '', checked: true, metadata: {} },
    ]);
    const els = await jsonPartitioner.partition(enc(json), makeOptions('els.json'));
    expect(els.map((e) => [e.element_id, e.type, e.text])).toEqual([
      ['a1', 'Title', 'Intro'],
      ['b2', 'NarrativeText', 'Body text.'],
      ['c3', 'CheckBox', ''],
    ]);
    expect(els[0]!.metadata).toEqual({ page_number: 1, filetype: 'text/html' });
    expect(els[1]!.metadata.parent_id).toBe('a1');
    expect(els[2]!.checked).toBe(true);
  });

  it('partitions other JSON as data: one element per object, keys sorted, pretty-printed', async () => {
    const els = await jsonPartitioner.partition(enc('[{"b": 1, "a": {"y": 2, "x": [true, null]}}, {"type": "Unknown", "text": "x"}]'), makeOptions('d.json'));
    expect(els.map((e) => e.type)).toEqual(['UncategorizedText', 'UncategorizedText']);
    expect(els[0]!.text).toBe('{\n  "a": {\n    "x": [\n      true,\n      null\n    ],\n    "y": 2\n  },\n  "b": 1\n}');
    expect(els[1]!.text).toBe('{\n  "text": "x",\n  "type": "Unknown"\n}');
  });

  it('gives one element for a scalar or a mixed array, none for empty values', async () => {
    const run = (s: string) => jsonPartitioner.partition(enc(s), makeOptions('x.json'));
    expect((await run('[1, {"a": 2}]')).map((e) => e.text)).toEqual(['[\n  1,\n  {\n    "a": 2\n  }\n]']);
    expect((await run('"hello"')).map((e) => e.text)).toEqual(['"hello"']);
    expect(await run('[]')).toEqual([]);
    expect(await run('{}')).toEqual([]);
    expect(await run('  ')).toEqual([]);
  });

  it('fails with FILE_UNREADABLE naming the file for malformed JSON', async () => {
    const err = await partitionError(jsonPartitioner, enc('{"a": '), makeOptions('broken.json'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('broken.json');
  });

  it("says where malformed JSON breaks as a line and column, keeping V8's message in details", async () => {
    const options = makeOptions('records.json');
    const err = await partitionError(jsonPartitioner, enc('[\n  {"a": 1},\n  {"b" 2}\n]'), options);
    expect(err).toMatchObject({
      code: 'FILE_UNREADABLE',
      message: "records.json: not valid JSON: expected ':' after property name at line 3, column 8",
      details: { reason: expect.stringContaining('in JSON at position') },
    });
    const cut = await partitionError(jsonPartitioner, enc('{"a": "unfinished'), options);
    expect((cut as Error).message).toBe('records.json: not valid JSON: unterminated string at line 1, column 18');
    // V8 echoes the offending text instead of a position for some characters.
    const stray = await partitionError(jsonPartitioner, enc('{"a":\u0001}'), options);
    expect((stray as Error).message).toMatch(/^records\.json: not valid JSON: (unexpected character "\\u0001"|.* at line 1, column \d+)$/);
    expect((stray as Error).message).not.toMatch(/is not valid JSON|Unexpected token/);
  });
});

describe('ndjsonPartitioner', () => {
  it('gives one element per line, or the elements when every line is element JSON', async () => {
    const data = await ndjsonPartitioner.partition(enc('{"a":1}\n\n[1,2]\n'), makeOptions('d.ndjson'));
    expect(data.map((e) => e.text)).toEqual(['{\n  "a": 1\n}', '[\n  1,\n  2\n]']);
    const els = await ndjsonPartitioner.partition(enc('{"type":"Title","text":"T"}\n{"type":"NarrativeText","text":"N"}\n'), makeOptions('e.ndjson'));
    expect(els.map((e) => [e.type, e.text])).toEqual([
      ['Title', 'T'],
      ['NarrativeText', 'N'],
    ]);
  });
});

describe.skipIf(!hasCorpus)('jsonPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('spring-weather.html.json is read back as its 35 elements with their metadata', async () => {
    const els = await jsonPartitioner.partition(corpusDoc('spring-weather.html.json'), makeOptions('spring-weather.html.json'));
    console.log(`[corpus] spring-weather.html.json: ${els.length} elements, types ${[...new Set(els.map((e) => e.type))].join(', ')}`);
    expect(els).toHaveLength(35);
    expect(els[0]).toMatchObject({ type: 'Title', text: 'News Around NOAA', element_id: 'fb902c5b26b38e2d35a70a55d43a5de6' });
    expect(els.every((e) => e.metadata.filetype === 'text/html' && e.metadata.data_source?.url === 'abfs://container1/spring-weather.html')).toBe(true);
  });

  it('arbitrary-records.json gives one element per record', async () => {
    const els = await jsonPartitioner.partition(corpusDoc('arbitrary-records.json'), makeOptions('arbitrary-records.json'));
    expect(els).toHaveLength(3);
    expect(els.every((e) => e.type === 'UncategorizedText')).toBe(true);
    expect(els[1]!.text).toContain('"name": "Watering Can"');
    expect(JSON.parse(els[2]!.text)).toEqual({ in_stock: true, name: 'Pruning Shears', price: 24.99, sku: 'GRD-3317' });
  });
});
