// Writes the binary example documents (DOCX, XLSX, PDF) into examples/docs/generated/.
// They are made here rather than committed so the repository holds only text we wrote.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'generated');

/** A two-section memo with a heading hierarchy, bullets and a table. */
async function makeDocx() {
  const cell = (t) => new TableCell({ children: [new Paragraph(t)] });
  const doc = new Document({
    creator: 'quarry examples',
    sections: [
      {
        children: [
          new Paragraph({ text: 'Storage Migration Plan', heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Background', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun(
                'The document archive moves from the old file servers to object storage over three weekends. Each weekend covers one department, and the ingestion pipeline re-indexes the moved files on the Monday after.',
              ),
            ],
          }),
          new Paragraph({ text: 'Every file keeps its path, so record ids stay stable.', bullet: { level: 0 } }),
          new Paragraph({ text: 'Incremental runs pick up only the files that changed.', bullet: { level: 0 } }),
          new Paragraph({ text: 'Schedule', heading: HeadingLevel.HEADING_1 }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Weekend'), cell('Department'), cell('Files')] }),
              new TableRow({ children: [cell('First'), cell('Legal'), cell('41,200')] }),
              new TableRow({ children: [cell('Second'), cell('Finance'), cell('88,930')] }),
              new TableRow({ children: [cell('Third'), cell('Engineering'), cell('152,004')] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** A workbook with two small sheets. */
async function makeXlsx() {
  const wb = new ExcelJS.Workbook();
  const a = wb.addWorksheet('Throughput');
  a.addRows([
    ['Format', 'Pages per second'],
    ['PDF', 180],
    ['DOCX', 950],
    ['HTML', 2400],
  ]);
  const b = wb.addWorksheet('Errors');
  b.addRows([
    ['Code', 'Count'],
    ['FILE_EMPTY', 3],
    ['FILETYPE_UNSUPPORTED', 12],
  ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A two-page PDF with a title and paragraphs on each page. */
async function makePdf() {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pages = [
    [
      'Indexing Service Handbook',
      [
        'The indexing service accepts documents from any source the pipeline can read.',
        'It partitions each one, chunks the elements and stores them with their embeddings.',
        'Operators watch the job summary for failed documents and re-run them alone.',
      ],
    ],
    [
      'Troubleshooting',
      [
        'A document that cannot be parsed fails on its own and the run continues.',
        'The summary names the document, the node and the error code, so the cause is quick to find.',
      ],
    ],
  ];
  for (const [title, lines] of pages) {
    const page = pdf.addPage([612, 792]);
    page.drawText(title, { x: 72, y: 700, size: 20, font: bold });
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 660 - i * 18, size: 11, font }));
  }
  return Buffer.from(await pdf.save());
}

// Office files embed their creation time, so a file is written only when missing: regenerating
// it would change its content hash and defeat the demo's incremental second run.
await mkdir(out, { recursive: true });
for (const [name, make] of [
  ['migration-plan.docx', makeDocx],
  ['benchmarks.xlsx', makeXlsx],
  ['handbook.pdf', makePdf],
]) {
  const path = join(out, name);
  if (!existsSync(path)) await writeFile(path, await make());
}
