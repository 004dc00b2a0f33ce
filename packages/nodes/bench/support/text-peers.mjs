// Plain-text extraction by the PDF libraries quarry is measured against, each called the way its
// README says. Plain JavaScript so that a whole-process run is a bare `node` process, without the
// TypeScript loader the bench itself runs under:
//   node text-peers.mjs <peer> <file.pdf> <out.txt>
// Each peer is imported only when loaded, so one process loads one library.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * Each peer by the name the bench reports it under: its package, and `load()`, which imports and
 * initialises it once and returns its text extraction.
 */
export const TEXT_PEERS = {
  // LangChain's PDFLoader imports lib/pdf-parse.js: the package's index.js runs a debug mode.
  'pdf-parse@1.1.1': {
    package: 'pdf-parse-1',
    async load() {
      const pdf = require('pdf-parse-1/lib/pdf-parse.js');
      return async (bytes) => (await pdf(Buffer.from(bytes))).text;
    },
  },
  'pdf-parse@2.4.5': {
    package: 'pdf-parse',
    async load() {
      const { PDFParse } = await import('pdf-parse');
      return async (bytes) => {
        const parser = new PDFParse({ data: bytes.slice() });
        try {
          return (await parser.getText()).text;
        } finally {
          await parser.destroy();
        }
      };
    },
  },
  // The legacy build is pdf.js's build for Node; getTextContent of every page, items joined.
  'pdfjs-dist': {
    package: 'pdfjs-dist',
    async load() {
      const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
      const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
      const assets = {
        cMapUrl: pathToFileURL(path.join(root, 'cmaps') + path.sep).href,
        cMapPacked: true,
        standardFontDataUrl: pathToFileURL(path.join(root, 'standard_fonts') + path.sep).href,
      };
      return async (bytes) => {
        const doc = await lib.getDocument({ data: bytes.slice(), ...assets, verbosity: 0 }).promise;
        const pages = [];
        for (let p = 1; p <= doc.numPages; p++) {
          const page = await doc.getPage(p);
          const { items } = await page.getTextContent();
          pages.push(items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
          page.cleanup();
        }
        await doc.destroy();
        return pages.join('\n\f');
      };
    },
  },
  // PDFium compiled to WebAssembly, through the package's own API: one thread.
  'pdfium-wasm': {
    package: '@hyzyla/pdfium',
    async load() {
      const { PDFiumLibrary } = await import('@hyzyla/pdfium');
      const library = await PDFiumLibrary.init();
      return async (bytes) => {
        const doc = await library.loadDocument(bytes);
        const pages = [];
        for (const page of doc.pages()) pages.push(page.getText());
        doc.destroy();
        return pages.join('\n\f');
      };
    },
  },
  // Native PDFium; without `poolSize` it parses in this process, one document at a time.
  liteparse: {
    package: '@llamaindex/liteparse',
    async load() {
      const { LiteParse } = await import('@llamaindex/liteparse');
      const parser = new LiteParse({ ocrEnabled: false, outputFormat: 'text', quiet: true });
      return async (bytes) => (await parser.parse(bytes)).text;
    },
  },
  // Rust; extractText runs synchronously on the calling thread.
  'pdf-inspector': {
    package: '@firecrawl/pdf-inspector',
    async load() {
      const { extractText } = await import('@firecrawl/pdf-inspector');
      return async (bytes) => extractText(Buffer.from(bytes));
    },
  },
};

/** The installed version of a peer's package (its package.json beside @quarry/nodes), if installed. */
export function peerVersion(name) {
  const manifest = fileURLToPath(new URL(`../../node_modules/${TEXT_PEERS[name].package}/package.json`, import.meta.url));
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name, file, out] = process.argv.slice(2);
  const peer = TEXT_PEERS[name];
  if (!peer || !file || !out) {
    console.error(`usage: node text-peers.mjs <${Object.keys(TEXT_PEERS).join('|')}> <file.pdf> <out.txt>`);
    process.exit(2);
  }
  const extract = await peer.load();
  await writeFile(out, await extract(new Uint8Array(await readFile(file))));
}
