import { afterEach, describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { csvPartitioner } from '../../../../src/partition/formats/csv.js';
import { firstLineOver } from '../../../../src/partition/formats/shared/line-bytes.js';
import { textPartitioner } from '../../../../src/partition/formats/text.js';
import { formatOptions, utf8 } from '../../format-options.js';

const ENV = ['QUARRY_MAX_LINE_BYTES', 'QUARRY_MAX_CSV_BYTES', 'QUARRY_MAX_TEXT_BYTES'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('firstLineOver', () => {
  it('finds the first line over the limit, ending lines at LF, CR or CRLF', () => {
    expect(firstLineOver(utf8('abc\ndefgh\nij'), 4)).toBe(5);
    expect(firstLineOver(utf8('abc\rdefgh\rij'), 4)).toBe(5);
    expect(firstLineOver(utf8('abcd\r\nefgh\r\n'), 4)).toBeUndefined();
    expect(firstLineOver(utf8('abcd\nefgh\nijklmn'), 4)).toBe(6);
    expect(firstLineOver(utf8(`${'a\n'.repeat(1000)}${'b'.repeat(50)}`), 40)).toBe(50);
  });
});

describe('line and file limits of text and CSV', () => {
  it('refuses a text file with a line over QUARRY_MAX_LINE_BYTES, naming the limit', () => {
    process.env.QUARRY_MAX_LINE_BYTES = '100';
    const bytes = utf8(`A short first line.\n${'x'.repeat(150)}\nlast\n`);
    const e = errorOf(() => textPartitioner.partition(bytes, formatOptions({ filename: 'long.txt' })));
    expect(isQuarryError(e) && e.code).toBe('FILE_TOO_LARGE');
    expect((e as Error).message).toBe('long.txt: 150 bytes, over the limit of 100 bytes (set QUARRY_MAX_LINE_BYTES to raise it)');
    process.env.QUARRY_MAX_LINE_BYTES = '150';
    expect(textPartitioner.partition(bytes, formatOptions({ filename: 'long.txt' }))).toHaveLength(3);
  });

  it('refuses a text file over QUARRY_MAX_TEXT_BYTES', () => {
    process.env.QUARRY_MAX_TEXT_BYTES = '1000';
    const bytes = utf8('Some words on a line.\n'.repeat(50));
    const e = errorOf(() => textPartitioner.partition(bytes, formatOptions({ filename: 'big.txt' })));
    expect(isQuarryError(e) && e.code).toBe('FILE_TOO_LARGE');
    expect((e as Error).message).toBe('big.txt: 1100 bytes, over the limit of 1000 bytes (set QUARRY_MAX_TEXT_BYTES to raise it)');
    process.env.QUARRY_MAX_TEXT_BYTES = '1100';
    expect(textPartitioner.partition(bytes, formatOptions({ filename: 'big.txt' }))).toHaveLength(50);
  });

  it('refuses a CSV with a line over QUARRY_MAX_LINE_BYTES, and one over QUARRY_MAX_CSV_BYTES', () => {
    process.env.QUARRY_MAX_LINE_BYTES = '100';
    const longLine = utf8(`a,b\n${'1,'.repeat(60)}1\n`);
    const e = errorOf(() => csvPartitioner.partition(longLine, formatOptions({ filename: 'wide.csv' })));
    expect(isQuarryError(e) && e.code).toBe('FILE_TOO_LARGE');
    expect((e as Error).message).toBe('wide.csv: 121 bytes, over the limit of 100 bytes (set QUARRY_MAX_LINE_BYTES to raise it)');

    process.env.QUARRY_MAX_CSV_BYTES = '1000';
    const many = utf8('a,b,c\n'.repeat(200));
    const big = errorOf(() => csvPartitioner.partition(many, formatOptions({ filename: 'many.csv' })));
    expect(isQuarryError(big) && big.code).toBe('FILE_TOO_LARGE');
    expect((big as Error).message).toBe('many.csv: 1200 bytes, over the limit of 1000 bytes (set QUARRY_MAX_CSV_BYTES to raise it)');
    process.env.QUARRY_MAX_CSV_BYTES = '1200';
    expect(csvPartitioner.partition(many, formatOptions({ filename: 'many.csv' }))).toHaveLength(1);
  });
});
