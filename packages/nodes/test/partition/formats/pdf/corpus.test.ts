/**
 * The PDF partitioner on the shared corpus (real documents, reference outputs of the reference
 * library) and on the hard-case PDFs from pdf.js bug reports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isQuarryError, type Element } from '@quarry/core';
import { pdfPartitioner } from '../../../../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { releaseOcrWorkers } from '../../../../src/partition/ocr.js';
import type { FormatPartitionOptions } from '../../../../src/partition/types.js';
import { formatOptions } from '../../format-options.js';
import { corpusDir, corpusDoc, expectedElements, hasCorpus } from '../helpers.js';

afterAll(async () => {
  await releaseOcrWorkers();
  await stopPageWorker();
});

/** What two strategies must agree on: each element's type, text and metadata (ids aside). */
function shape(els: readonly Element[]): unknown[] {
  return els.map((e) => ({ type: e.type, text: e.text, metadata: e.metadata }));
}

async function partition(name: string, overrides: Partial<FormatPartitionOptions> = {}): Promise<Element[]> {
  return pdfPartitioner.partition(corpusDoc(name), formatOptions({ strategy: 'fast', filename: name, filetype: 'application/pdf', ...overrides }));
}

/**
 * Word tokens for comparing with the reference: NFKC (its hi_res text keeps ligature characters),
 * words it leaves broken at line ends ("ef- ficient") joined as ours are, punctuation trimmed.
 */
function tokenBag(texts: readonly string[]): Map<string, number> {
  const bag = new Map<string, number>();
  for (const t of texts) {
    const norm = t
      .normalize('NFKC')
      .replace(/(\p{L})- (\p{Ll})/gu, '$1$2')
      .toLowerCase();
    for (const raw of norm.split(/\s+/u)) {
      const w = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (w) bag.set(w, (bag.get(w) ?? 0) + 1);
    }
  }
  return bag;
}

/** Bag-of-words F1 of our texts against the reference texts. */
function tokenF1(got: readonly string[], expected: readonly string[]): number {
  const g = tokenBag(got);
  const x = tokenBag(expected);
  let overlap = 0;
  let gTotal = 0;
  let xTotal = 0;
  for (const n of g.values()) gTotal += n;
  for (const [w, n] of x) {
    xTotal += n;
    overlap += Math.min(n, g.get(w) ?? 0);
  }
  const p = overlap / gTotal;
  const r = overlap / xTotal;
  return (2 * p * r) / (p + r);
}

function indexOfText(els: readonly Element[], start: string): number {
  return els.findIndex((e) => e.text.startsWith(start));
}

describe.skipIf(!hasCorpus)('PDF corpus (skipped: /work/shared/corpus not found)', () => {
  it('multi-column-2p.pdf: reads each column whole, with the reference text (token F1 >= 0.9)', async () => {
    const expected = expectedElements('multi-column-2p.pdf');
    for (const strategy of ['fast', 'hi_res'] as const) {
      const els = await partition('multi-column-2p.pdf', { strategy });
      expect(
        tokenF1(
          els.map((e) => e.text),
          expected.map((e) => e.text),
        ),
      ).toBeGreaterThanOrEqual(0.9);
      // Page 1: the left column (abstract, introduction, its footnotes), then the right column.
      const order = [
        'Open-domain question answering relies on efficient passage retrieval',
        'Open-domain question answering (QA) (Voorhees, 1999)',
        '∗Equal contribution',
        'Retrieval in open-domain QA is usually implemented',
        'However, it is generally believed that learning a good dense',
      ].map((s) => indexOfText(els, s));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      // Page 2: the left column ends with "2 Background" before the right column starts.
      const background = indexOfText(els, '2 Background');
      expect(background).toBeLessThan(indexOfText(els, 'the extractive QA setting'));
      expect(els[background]!.type).toBe('Title');
      expect(els.every((e) => e.metadata.page_number === 1 || e.metadata.page_number === 2)).toBe(true);
    }
  });

  it('all-number-table.pdf: finds the table, with its cells in HTML', async () => {
    const [expected] = expectedElements('all-number-table.pdf');
    const els = await partition('all-number-table.pdf', { strategy: 'hi_res', infer_table_structure: true });
    const tables = els.filter((e) => e.type === 'Table');
    expect(tables).toHaveLength(1);
    const table = tables[0]!;
    expect([...tokenBag([table.text])].sort()).toEqual([...tokenBag([expected!.text])].sort());
    expect(table.metadata.text_as_html).toContain('<tr><td>200.01</td><td>1</td></tr>');
    expect(table.metadata.text_as_html!.match(/<tr>/g)).toHaveLength(8);
  });

  it('embedded-images.pdf: gives the three pictures as Image elements where the reference has them', async () => {
    const expected = expectedElements('embedded-images.pdf').filter((e) => e.type === 'Image');
    const els = await partition('embedded-images.pdf', { strategy: 'hi_res', coordinates: true });
    const images = els.filter((e) => e.type === 'Image');
    expect(images).toHaveLength(expected.length);
    for (const [i, img] of images.entries()) {
      const want = (expected[i]!.metadata.coordinates as { points: number[][] }).points[0]!;
      const got = img.metadata.coordinates!.points[0]!;
      expect(Math.abs(got[0]! - want[0]!)).toBeLessThan(5);
      expect(Math.abs(got[1]! - want[1]!)).toBeLessThan(5);
    }
    expect(els.filter((e) => e.type === 'Footer').map((e) => e.text)).toEqual(['1.9']);
  });

  it('embedded-images-tables.pdf: gives the figure as an Image and the data as a Table', async () => {
    const els = await partition('embedded-images-tables.pdf', { strategy: 'hi_res', infer_table_structure: true, extract_image_block_types: ['Image'] });
    const image = els.find((e) => e.type === 'Image')!;
    expect(image.metadata.image_mime_type).toBe('image/png');
    const table = els.find((e) => e.type === 'Table')!;
    for (const cell of ['0.0335', '24.0910', '0.0919']) expect(table.text).toContain(cell);
    expect(table.metadata.text_as_html).toContain('<td>Ecorr (V)</td>');
    expect(els.some((e) => e.type === 'FigureCaption' && e.text.startsWith('Fig. 4.'))).toBe(true);
  });

  it('auto (the default) reads PDFs whose pages all have a text layer, or are blank or figures, as fast does', async () => {
    // DA-619p.pdf has pages with almost no text and no picture over a quarter of the page.
    for (const name of ['multi-column-2p.pdf', 'reliance.pdf', 'korean-text-with-tables.pdf', 'embedded-images.pdf', 'DA-619p.pdf']) {
      const fast = await partition(name, { coordinates: true, include_page_breaks: true });
      expect(fast.length, name).toBeGreaterThan(10);
      expect(shape(await partition(name, { strategy: 'auto', coordinates: true, include_page_breaks: true })), name).toEqual(shape(fast));
    }
  }, 600_000);

  it('auto turns to hi_res where the Python library does: tables asked for in HTML', async () => {
    const options = { infer_table_structure: true, coordinates: true } as const;
    const auto = await partition('all-number-table.pdf', { strategy: 'auto', ...options });
    expect(auto.some((e) => e.type === 'Table' && e.metadata.text_as_html)).toBe(true);
    expect(shape(auto)).toEqual(shape(await partition('all-number-table.pdf', { strategy: 'hi_res', ...options })));
  }, 180_000);

  it('loremipsum-flat.pdf: OCRs the scanned page in hi_res and auto, and gives nothing in fast', async () => {
    expect(await partition('loremipsum-flat.pdf')).toEqual([]);
    const els = await partition('loremipsum-flat.pdf', { strategy: 'hi_res' });
    expect(shape(await partition('loremipsum-flat.pdf', { strategy: 'auto' }))).toEqual(shape(els));
    const text = els.map((e) => e.text).join(' ');
    expect(text).toMatch(/^Lorem ipsum dolor sit amet, consectetur adipiscing elit\./);
    for (const phrase of ['Sed posuere sit amet lacus', 'Nunc elementum lacus posuere', 'Donec ut luctus nisi', 'Duis quis lacinia lacus']) {
      expect(text).toContain(phrase);
    }
    expect(els.every((e) => e.type === 'NarrativeText' && e.metadata.page_number === 1)).toBe(true);
    // One element per paragraph of the scan, its lines joined.
    expect(els).toHaveLength(5);
  }, 360_000);

  it('DA-619p.pdf: gives elements on all 619 pages in fast mode, page numbers as PageNumber', async () => {
    const els = await partition('DA-619p.pdf');
    expect(new Set(els.map((e) => e.metadata.page_number)).size).toBe(619);
    // Every page has its printed number in the footer (the numbering restarts at page 178).
    const pageNumbers = els.filter((e) => e.type === 'PageNumber');
    expect(new Set(pageNumbers.map((e) => e.metadata.page_number)).size).toBe(619);
    expect(pageNumbers.every((e) => /^\d+$/.test(e.text))).toBe(true);
    expect(pageNumbers.slice(0, 3).map((e) => e.text)).toEqual(['1', '2', '3']);
    expect(els.find((e) => e.text === "Caridin's Journal")!.type).toBe('Title');
  }, 180_000);

  it('korean-text-with-tables.pdf: reads the Korean text with its word spaces, and its tables in hi_res', async () => {
    const fast = await partition('korean-text-with-tables.pdf');
    const texts = fast.map((e) => e.text);
    expect(texts).toContain('적립 혜택은 매출전표 접수 시점 기준으로 적용');
    expect(texts.some((t) => t.includes('스타벅스, 투썸플레이스, 카페베네'))).toBe(true);
    // The page is two panels, each under its 16 pt title (a heading, not a table row) a ruled table
    // with its notes: each panel is read whole before the other, on both strategies.
    const containing = (els: readonly Element[], text: string): number => els.findIndex((e) => e.text.includes(text));
    expect(fast.filter((e) => e.type === 'Table')).toHaveLength(2);
    expect(containing(fast, '주유는 LPG충전소 포함')).toBeGreaterThan(-1);
    expect(containing(fast, '주유는 LPG충전소 포함')).toBeLessThan(containing(fast, '커피전문점은 오프라인 결제건에 한하며'));
    const hiRes = await partition('korean-text-with-tables.pdf', { strategy: 'hi_res', infer_table_structure: true });
    const tables = hiRes.filter((e) => e.type === 'Table');
    expect(tables).toHaveLength(2);
    expect(hiRes.filter((e) => e.type === 'Title').map((e) => e.text)).toContain('할인점·주유·온라인쇼핑몰 1.5%빅포인트 적립');
    expect(tables[0]!.metadata.text_as_html).toContain(
      '<tr><td>업종</td><td>적립 대상</td></tr><tr><td>할인점</td><td>이마트, 이마트 트레이더스, 롯데마트, 홈플러스</td></tr>',
    );
    expect(tables[0]!.metadata.text_as_html).toContain('<td colspan="2">* 전월 이용금액 40만원 이상 시 제공');
  });
});

const hardDir = path.join(corpusDir, 'hard');
const hardFiles = existsSync(hardDir) ? readdirSync(hardDir).filter((f) => f.endsWith('.pdf')) : [];

describe.skipIf(hardFiles.length === 0)('hard-case PDFs (skipped: corpus/hard not found)', () => {
  const read = async (name: string, strategy: 'fast' | 'hi_res'): Promise<Element[]> =>
    pdfPartitioner.partition(new Uint8Array(readFileSync(path.join(hardDir, name))), formatOptions({ strategy, filename: name, filetype: 'application/pdf' }));

  it.each(hardFiles)(
    '%s gives text or a coded error, in fast and hi_res',
    async (name) => {
      for (const strategy of ['fast', 'hi_res'] as const) {
        try {
          const els = await read(name, strategy);
          expect(els.some((e) => e.text.trim().length > 0)).toBe(true);
        } catch (e) {
          expect(isQuarryError(e)).toBe(true);
          expect(['PDF_PASSWORD_REQUIRED', 'FILE_UNREADABLE']).toContain((e as { code: string }).code);
        }
      }
    },
    120_000,
  );

  it('reads what each file holds', async () => {
    const text = async (name: string) => (await read(name, 'fast')).map((e) => e.text).join('\n');
    await expect(read('issue3371.pdf', 'fast')).rejects.toMatchObject({ code: 'PDF_PASSWORD_REQUIRED' });
    // Broken xref: rebuilt by pdf.js.
    expect(await text('bug1795263.pdf')).toContain('Erdgas – zuverlässig, sicher, günstig!');
    // Encrypted with an owner password only.
    expect(await text('bug1815476.pdf')).toContain('Escuela Oficial de Idiomas de Salamanca');
    // A scan drawn sideways (/Rotate 270) with an invisible OCR layer: read upright.
    expect(await text('issue5747.pdf')).toMatch(/Lorem ipsum dolor sit amet, consetetur/);
    // Japanese in an embedded CID font.
    expect(await text('issue16063.pdf')).toContain('電線接続端子部が次のいずれにも該当しないとき。');
  }, 120_000);
});
