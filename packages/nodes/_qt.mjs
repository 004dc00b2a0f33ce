import { readFileSync } from 'node:fs';
const { openPdfiumPages } = await import('./dist/partition/formats/pdf/pdfium/pages.js');
const big = new Uint8Array(readFileSync('../../../shared/corpus/docs/DA-619p.pdf'));
for (let pass = 0; pass < 2; pass++) {
  globalThis.__qt = {};
  const t = performance.now(); const doc = await openPdfiumPages(big, {}); for (let p = 1; p <= doc.numPages; p++) await doc.layout(p); await doc.close();
  const tot = performance.now() - t;
  const rows = Object.entries(globalThis.__qt).sort((a, b) => b[1][0] - a[1][0]).slice(0, 12);
  console.log('pass', pass, 'total', tot.toFixed(0), 'wasm', Object.values(globalThis.__qt).reduce((a, b) => a + b[0], 0).toFixed(0));
  for (const [k, [ms, n]] of rows) console.log('  ', k.padEnd(32), ms.toFixed(0), n);
}
