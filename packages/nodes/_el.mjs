import { readFileSync } from 'node:fs';
const { extractLayouts } = await import('./dist/partition/formats/pdf/extract-pages.js');
const { elementsFromLayouts } = await import('./dist/partition/formats/pdf/elements.js');
const { stopPageWorker } = await import('./dist/partition/formats/pdf/page-worker-host.js');
const bytes = new Uint8Array(readFileSync('../../../shared/corpus/docs/DA-619p.pdf'));
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
for (let i = 0; i < 2; i++) {
  const c0 = cpu(); const t0 = performance.now();
  const layouts = await extractLayouts(bytes, { parallel: process.argv[2] === 'par' });
  const c1 = cpu(); const t1 = performance.now();
  const els = elementsFromLayouts(layouts, { includePageBreaks: false, coordinates: false, dpi: 72, inferTableStructure: false });
  const c2 = cpu(); const t2 = performance.now();
  console.log(`pass ${i} layout wall ${(t1 - t0).toFixed(0)} cpu ${(c1 - c0).toFixed(0)} | elements wall ${(t2 - t1).toFixed(0)} cpu ${(c2 - c1).toFixed(0)} n=${els.length}`);
}
await stopPageWorker();
