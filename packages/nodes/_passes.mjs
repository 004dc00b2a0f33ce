import { readFileSync } from 'node:fs';
const { extractLayouts } = await import('./dist/partition/formats/pdf/extract-pages.js');
const bytes = new Uint8Array(readFileSync('../../../shared/corpus/docs/DA-619p.pdf'));
const t = performance.now(); const c0 = process.cpuUsage(); await extractLayouts(bytes, { parallel: false }); const c = process.cpuUsage(c0); console.log('pass0', (performance.now() - t).toFixed(0), 'ms wall', ((c.user + c.system) / 1000).toFixed(0), 'ms cpu');
