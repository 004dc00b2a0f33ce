import { afterEach, describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { FORMAT_PARTITIONERS, findFormatPartitioner, registerFormatPartitioner } from '../../../src/partition/formats/index.js';
import type { FormatPartitioner } from '../../../src/partition/types.js';

const snapshot = [...FORMAT_PARTITIONERS];
afterEach(() => {
  FORMAT_PARTITIONERS.splice(0, FORMAT_PARTITIONERS.length, ...snapshot);
});

const fake = (name: string, mimeTypes: string[], extensions: string[] = []): FormatPartitioner => ({ name, mimeTypes, extensions, partition: () => [] });

describe('format partitioner registry', () => {
  it('finds the built-in text formats by MIME type and alias', () => {
    expect(findFormatPartitioner('text/plain', '.txt')?.name).toBe('text');
    expect(findFormatPartitioner('text/x-markdown', '.md')?.name).toBe('markdown');
    expect(findFormatPartitioner('text/html; charset=utf-8', '')?.name).toBe('html');
    expect(findFormatPartitioner('audio/wav', '.txt')).toBeUndefined();
  });

  it('uses the extension only for application/octet-stream', () => {
    expect(findFormatPartitioner('application/octet-stream', '.MD')?.name).toBe('markdown');
  });

  it('registers new formats ahead of the built-in ones and replaces by name', () => {
    registerFormatPartitioner(fake('my-html', ['text/html']));
    expect(findFormatPartitioner('text/html', '.html')?.name).toBe('my-html');
    const replacement = fake('my-html', ['application/x-mine']);
    registerFormatPartitioner(replacement);
    expect(FORMAT_PARTITIONERS.filter((p) => p.name === 'my-html')).toEqual([replacement]);
    expect(findFormatPartitioner('text/html', '.html')?.name).toBe('html');
  });

  it('rejects a malformed partitioner', () => {
    let err: unknown;
    try {
      registerFormatPartitioner({ name: '', mimeTypes: [], extensions: [] } as unknown as FormatPartitioner);
    } catch (e) {
      err = e;
    }
    expect(isQuarryError(err) && err.code).toBe('INVALID_ARGUMENT');
  });
});
