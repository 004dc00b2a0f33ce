import { readFileSync } from 'node:fs';
const { openPdfiumPages } = await import('./dist/partition/formats/pdf/pdfium/pages.js');
const big = new Uint8Array(readFileSync('../../../shared/corpus/docs/DA-619p.pdf'));
async function run(bytes, n, label) { const c0 = process.cpuUsage(); const t = performance.now(); const doc = await openPdfiumPages(bytes, {}); const N = Math.min(n, doc.numPages); for (let p = 1; p <= N; p++) await doc.layout(p); await doc.close(); const c = process.cpuUsage(c0); console.log(label, N, 'pages', (performance.now() - t).toFixed(0), 'ms wall', ((c.user + c.system) / 1000).toFixed(0), 'cpu'); }
if (process.argv[2]) for (const f of process.argv.slice(2)) await run(new Uint8Array(readFileSync(f)), 1000, 'warm ' + f.split('/').pop());
await run(big, 50, 'DA first');
await run(big, 50, 'DA again');
