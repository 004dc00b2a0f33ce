import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '@quarry/core';
import { partitionFile } from '../../../src/partition/partition-file.js';
import { fixture, fixturesDir, partitionFixture, typesAndTexts } from './fixtures.js';

const hasSoffice = (() => {
  try {
    execFileSync('soffice', ['--version'], { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
})();
if (!hasSoffice) console.info('legacy Office formats: soffice (LibreOffice) is not on the PATH; only the missing-LibreOffice error is tested');

describe.runIf(hasSoffice)('legacy Office formats through LibreOffice', () => {
  let ppt: Uint8Array;
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-ppt-'));
  beforeAll(() => {
    // A loaded machine (the whole suite at once) can take minutes where a quiet one takes seconds.
    process.env.QUARRY_SOFFICE_TIMEOUT_MS = '230000';
    // A .ppt written by LibreOffice itself, from the flat presentation committed beside it.
    copyFileSync(path.join(fixturesDir, 'site-briefing.fodp'), path.join(dir, 'site-briefing.fodp'));
    execFileSync(
      'soffice',
      [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${dir}/profile`,
        '--convert-to',
        'ppt',
        '--outdir',
        dir,
        path.join(dir, 'site-briefing.fodp'),
      ],
      { stdio: 'ignore', timeout: 200_000 },
    );
    ppt = new Uint8Array(readFileSync(path.join(dir, 'site-briefing.ppt')));
  }, 240_000);
  afterAll(() => {
    delete process.env.QUARRY_SOFFICE_TIMEOUT_MS;
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a Word 97 .doc as its DOCX: headings, list items, a table with text_as_html, paragraphs', async () => {
    const elements = await partitionFixture('quarry-report.doc');
    expect(typesAndTexts(elements)).toEqual([
      ['Title', 'North Face Quarry Report'],
      ['NarrativeText', 'The north face was cut in spring, and the granite blocks were graded before shipping.'],
      ['Title', 'Equipment'],
      ['ListItem', 'Wire saw for the primary cuts'],
      ['ListItem', 'Hydraulic splitter for the secondary blocks'],
      ['Title', 'Output by stone'],
      ['Table', 'Stone Tonnes Granite 120 Marble 75'],
      ['NarrativeText', 'Shipments leave the yard every Monday morning, weather permitting.'],
    ]);
    expect(elements[6]!.metadata.text_as_html).toBe(
      '<table><tr><td>Stone</td><td>Tonnes</td></tr><tr><td>Granite</td><td>120</td></tr><tr><td>Marble</td><td>75</td></tr></table>',
    );
    for (const el of elements) expect(el.metadata.filetype).toBe('application/msword');
  }, 240_000);

  it('reads an Excel 97 .xls as a Table per sheet with its page name and number', async () => {
    const [table, ...rest] = await partitionFixture('stone-output.xls');
    expect(rest).toEqual([]);
    expect(table).toMatchObject({ type: 'Table', text: 'Stone Tonnes Grade Granite 120 A Marble 75 B Slate 30 A' });
    expect(table!.metadata).toMatchObject({ filetype: 'application/vnd.ms-excel', page_number: 1, page_name: 'output' });
    expect(table!.metadata.text_as_html).toContain('<tr><td>Slate</td><td>30</td><td>A</td></tr>');
  }, 240_000);

  it('reads a PowerPoint 97 .ppt as its PPTX: a page per slide', async () => {
    const elements = await partitionFile(ppt, { filename: 'site-briefing.ppt', strategy: 'fast' });
    expect(elements.map((e) => [e.type, e.text, e.metadata.page_number])).toEqual([
      ['Title', 'Site Briefing', 1],
      ['ListItem', 'Blasting is scheduled for Tuesday at noon.', 1],
      ['ListItem', 'Hard hats are required beyond the gate.', 1],
      ['Title', 'Deliveries', 2],
      ['NarrativeText', 'Trucks load at the east yard from six in the morning.', 2],
    ]);
    for (const el of elements) expect(el.metadata.filetype).toBe('application/vnd.ms-powerpoint');
  }, 240_000);

  it('fails alone with a coded error naming the file for a damaged .doc, .xls and .ppt', async () => {
    const cut = {
      'cut.doc': fixture('quarry-report.doc').subarray(0, 4096),
      'cut.xls': fixture('stone-output.xls').subarray(0, 2048),
      'cut.ppt': ppt.subarray(0, 8192),
    };
    const errors = await Promise.all(Object.entries(cut).map(([filename, bytes]) => partitionFile(bytes, { filename }).catch((e: unknown) => e)));
    for (const [i, filename] of Object.keys(cut).entries()) {
      expect(errors[i], filename).toBeInstanceOf(QuarryError);
      expect(errors[i]).toMatchObject({ code: 'FILE_UNREADABLE' });
      expect((errors[i] as Error).message).toContain(filename);
    }
  }, 240_000);

  it('stops the conversion when the document is aborted', async () => {
    const controller = new AbortController();
    const pending = partitionFile(fixture('quarry-report.doc'), { filename: 'report.doc', signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toMatchObject({ code: 'JOB_ABORTED' });
  }, 240_000);
});

describe('legacy Office formats without LibreOffice', () => {
  it('fails with LIBREOFFICE_MISSING naming the file, LibreOffice and how to install it', async () => {
    const saved = process.env.QUARRY_SOFFICE;
    process.env.QUARRY_SOFFICE = '/nonexistent/soffice';
    try {
      const err = await partitionFixture('stone-output.xls').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QuarryError);
      expect(err).toMatchObject({ code: 'LIBREOFFICE_MISSING' });
      expect((err as Error).message).toMatch(
        /stone-output\.xls: reading \.xls files needs LibreOffice.*apt-get install libreoffice-writer libreoffice-calc libreoffice-impress/u,
      );
    } finally {
      if (saved === undefined) delete process.env.QUARRY_SOFFICE;
      else process.env.QUARRY_SOFFICE = saved;
    }
  });
});
