/**
 * Nesting past `maxNestingDepth` (512): DOCX, HTML and Markdown keep the text of what is nested
 * deeper and warn once; JSON fails with DOCUMENT_TOO_COMPLEX. Inputs 100,000 levels deep used to
 * hang (DOCX, saxes' prefix lookup was quadratic in the depth) or overflow the call stack (HTML,
 * Markdown, JSON, DOCX walks); inputs just under the limit are read whole, without a warning.
 */
import type { Element, Logger } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { partitionFile } from '../../src/partition/partition-file.js';
import { DEFAULT_LIMITS } from '../../src/partition/limits.js';
import { nestedSdtDocx } from '../support/hostile-files.js';

const DEEP = 100_000;
const TEXT = 'Deep inside.';

async function partition(bytes: Uint8Array, filename: string): Promise<{ elements: Element[]; warnings: string[] }> {
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
  const elements = await partitionFile(bytes, { filename, strategy: 'fast', logger });
  return { elements, warnings };
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const html = (divs: number): Uint8Array => utf8(`<html><body>${'<div>'.repeat(divs)}${TEXT}${'</div>'.repeat(divs)}<p>After.</p></body></html>`);
const depthWarning = /past the limit of 512 levels left out \(set QUARRY_MAX_NESTING_DEPTH to raise it\)/;

describe('nesting past maxNestingDepth', () => {
  it('is 512 levels by default', () => {
    expect(DEFAULT_LIMITS.maxNestingDepth).toBe(512);
  });

  it('DOCX: 100,000 nested content controls keep their paragraph, with one warning', async () => {
    const { elements, warnings } = await partition(nestedSdtDocx(DEEP).bytes, 'nested.docx');
    expect(elements.map((e) => e.text)).toEqual([TEXT]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^nested\.docx: the structure \(not the text\) of part word\/document\.xml nested/);
    expect(warnings[0]).toMatch(depthWarning);
  });

  it('DOCX: nesting just under the limit is read without a warning', async () => {
    // document, body, 2 x 253 content-control elements, paragraph, run, text: 511 levels.
    const { elements, warnings } = await partition(nestedSdtDocx(253).bytes, 'under.docx');
    expect(elements.map((e) => e.text)).toEqual([TEXT]);
    expect(warnings).toEqual([]);
  });

  it('HTML: 100,000 nested elements keep their text and what follows, with one warning', async () => {
    const { elements, warnings } = await partition(html(DEEP), 'nested.html');
    expect(elements.map((e) => e.text)).toEqual([TEXT, 'After.']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(depthWarning);
  });

  it('HTML: nesting just under the limit is read without a warning', async () => {
    // html, body and 508 divs: 510 levels.
    const { elements, warnings } = await partition(html(508), 'under.html');
    expect(elements.map((e) => e.text)).toEqual([TEXT, 'After.']);
    expect(warnings).toEqual([]);
  });

  it('Markdown: block quotes and lists 100,000 deep keep their text, with one warning', async () => {
    const md = `${'> '.repeat(DEEP)}${TEXT}\n\n${'- '.repeat(DEEP)}Listed.\n\n${'> - 1. '.repeat(DEEP / 3)}Mixed.\n`;
    const { elements, warnings } = await partition(utf8(md), 'nested.md');
    expect(elements.map((e) => e.text)).toEqual([TEXT, 'Listed.', 'Mixed.']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^nested\.md: the structure \(not the text\) of 3 lines nested/);
  });

  it('Markdown: nesting just under the limit is read without a warning', async () => {
    const { elements, warnings } = await partition(utf8(`${'> '.repeat(500)}${TEXT}\n`), 'under.md');
    expect(elements.map((e) => e.text)).toEqual([TEXT]);
    expect(warnings).toEqual([]);
  });

  it('XML: 100,000 nested elements keep their text (read element by element, no limit needed)', async () => {
    const { elements } = await partition(utf8(`${'<a>'.repeat(DEEP)}${TEXT}${'</a>'.repeat(DEEP)}`), 'nested.xml');
    expect(elements.map((e) => e.text)).toEqual([TEXT]);
  });

  it('JSON: 100,000 levels fail with DOCUMENT_TOO_COMPLEX naming the limit', async () => {
    for (const json of [`${'['.repeat(DEEP)}"x"${']'.repeat(DEEP)}`, `${'{"a":'.repeat(DEEP)}"x"${'}'.repeat(DEEP)}`]) {
      await expect(partition(utf8(json), 'nested.json')).rejects.toMatchObject({
        code: 'DOCUMENT_TOO_COMPLEX',
        message: 'nested.json: 100000 levels, over the limit of 512 levels (set QUARRY_MAX_NESTING_DEPTH to raise it)',
        details: { limit: 'QUARRY_MAX_NESTING_DEPTH', found: DEEP },
      });
    }
    await expect(partition(utf8(`{"a":1}\n${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`), 'nested.ndjson')).rejects.toMatchObject({ code: 'DOCUMENT_TOO_COMPLEX' });
  });

  it('JSON: nesting at the limit is partitioned', async () => {
    const { elements } = await partition(utf8(`${'{"a":'.repeat(511)}"x"${'}'.repeat(511)}`), 'under.json');
    expect(elements).toHaveLength(1);
    expect(elements[0]!.text).toContain('"x"');
  });
});
