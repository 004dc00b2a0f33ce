import { describe, expect, it } from 'vitest';
import { createEngine, definePlugin, ENGINE_VERSION, isQuarryError, type FormatDefinition } from '@quarry/core';
import { BUILTIN_FORMATS, EXTENSION_MIME_TYPES, MIME_TYPE_ALIASES, canonicalMimeType, findFormat } from '../../../src/partition/formats/index.js';
import { BUILTIN_IMPORTS, loadFormat } from '../../../src/partition/formats/load-format.js';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { nodesPlugin } from '../../../src/plugin.js';
import { testFormat, withBuiltins } from '../../support/test-formats.js';

const html = new TextEncoder().encode('<html><body><p>A paragraph of plain prose for the test.</p></body></html>');

describe('document formats', () => {
  it('finds the built-in text formats by MIME type and alias', () => {
    expect(findFormat(BUILTIN_FORMATS, 'text/plain', '.txt')?.name).toBe('text');
    expect(findFormat(BUILTIN_FORMATS, 'text/x-markdown', '.md')?.name).toBe('markdown');
    expect(findFormat(BUILTIN_FORMATS, 'text/html; charset=utf-8', '')?.name).toBe('html');
    expect(findFormat(BUILTIN_FORMATS, 'audio/wav', '.txt')).toBeUndefined();
  });

  it("derives detection's extension and alias tables from the formats' lines, each naming its own format", () => {
    for (const format of BUILTIN_FORMATS) {
      for (const ext of format.extensions) expect(findFormat(BUILTIN_FORMATS, EXTENSION_MIME_TYPES[ext]!, ext)?.name, ext).toBe(format.name);
      for (const mime of format.mimeTypes) expect(findFormat(BUILTIN_FORMATS, mime, '')?.name, mime).toBe(format.name);
    }
    expect(Object.keys(EXTENSION_MIME_TYPES).sort()).toEqual(BUILTIN_FORMATS.flatMap((f) => f.extensions).sort());
    for (const [alias, canonical] of Object.entries(MIME_TYPE_ALIASES)) expect(canonicalMimeType(alias.toUpperCase())).toBe(canonical);
    // The legacy and new formats, with the filetype the Python library unstructured writes.
    expect(Object.fromEntries(['.doc', '.xls', '.ppt', '.msg', '.rtf', '.rst', '.org', '.heic', '.p7s'].map((e) => [e, EXTENSION_MIME_TYPES[e]]))).toEqual({
      '.doc': 'application/msword',
      '.xls': 'application/vnd.ms-excel',
      '.ppt': 'application/vnd.ms-powerpoint',
      '.msg': 'application/vnd.ms-outlook',
      '.rtf': 'text/rtf',
      '.rst': 'text/x-rst',
      '.org': 'text/org',
      '.heic': 'image/heic',
      '.p7s': 'message/rfc822',
    });
  });

  it('uses the extension only for application/octet-stream', () => {
    expect(findFormat(BUILTIN_FORMATS, 'application/octet-stream', '.MD')?.name).toBe('markdown');
  });

  it('loads every built-in format from its module', async () => {
    for (const format of BUILTIN_FORMATS) expect(typeof (await loadFormat(format)).partition, format.name).toBe('function');
  });

  // A bundler follows only literal imports: a built-in module left out would load from its own file
  // beside the bundle, a second copy of what it shares with it.
  it('imports every built-in format through a literal import', () => {
    expect(BUILTIN_FORMATS.filter((f) => !BUILTIN_IMPORTS.has(f.module)).map((f) => f.name)).toEqual([]);
    expect(new Set(BUILTIN_FORMATS.map((f) => f.module))).toEqual(new Set(BUILTIN_IMPORTS.keys()));
  });

  it('names the module of a format that cannot be loaded', async () => {
    const missing: FormatDefinition = {
      ...testFormat('gone', ['application/x-gone'], 'nothing'),
      module: new URL('./no-such-format.js', import.meta.url).href,
    };
    const noExport = testFormat('no-export', ['application/x-none'], 'noSuchExport');
    for (const format of [missing, noExport]) {
      const err = await loadFormat(format).catch((e: unknown) => e);
      expect(isQuarryError(err) && err.code).toBe('INVALID_PLUGIN');
      expect((err as Error).message).toContain(format.module);
    }
  });

  it('registers through plugins: a later plugin wins a shared MIME type, names are unique, shapes are checked', () => {
    const engine = createEngine().use(nodesPlugin);
    expect(engine.registry.formats().map((f) => f.name)).toEqual(BUILTIN_FORMATS.map((f) => f.name));
    engine.use(definePlugin({ name: 'mine', engine: `^${ENGINE_VERSION}`, formats: [testFormat('my-html', ['text/html'], 'myHtmlPartitioner')] }));
    expect(findFormat(engine.registry.formats(), 'text/html', '.html')?.name).toBe('my-html');
    const again = (formats: FormatDefinition[]): unknown => {
      try {
        engine.use(definePlugin({ name: `p${Math.random()}`, engine: `^${ENGINE_VERSION}`, formats }));
      } catch (e) {
        return isQuarryError(e) && e.code;
      }
    };
    expect(again([testFormat('pdf', ['application/x-pdf2'], 'myHtmlPartitioner')])).toBe('DUPLICATE_FORMAT');
    expect(again([{ ...testFormat('rel', ['application/x-rel'], 'x'), module: './relative.js' }])).toBe('INVALID_PLUGIN');
    expect(again([testFormat('ext', ['application/x-ext'], 'x', ['RTF'])])).toBe('INVALID_PLUGIN');
    expect(again([testFormat('nomime', [], 'x')])).toBe('INVALID_PLUGIN');
  });

  it('partitions with the formats it is given, in their order', async () => {
    const mine = await partitionFile(html, { filename: 'a.html', formats: withBuiltins(testFormat('my-html', ['text/html'], 'myHtmlPartitioner')) });
    expect(mine.map((e) => e.text)).toEqual(['partitioned by my-html']);
    const builtIn = await partitionFile(html, { filename: 'a.html' });
    expect(builtIn.map((e) => e.text)).toEqual(['A paragraph of plain prose for the test.']);
    const none = await partitionFile(html, { filename: 'a.html', formats: [] }).catch((e: unknown) => e);
    expect(isQuarryError(none) && none.code).toBe('FILETYPE_UNSUPPORTED');
  });
});
