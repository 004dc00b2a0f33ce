// Markdown of each page by the PDF libraries whose tables quarry's are scored against (pnpm bench
// fidelity), each called the way its README says. Plain JavaScript run as a bare `node` process from
// here, where the libraries are installed (devDependencies of @quarry/nodes):
//   node markdown-peers.mjs <peer> <out-dir> <file.pdf>...
// writes <out-dir>/<file name>.json per PDF: [{ "page": 1, "markdown": "...", "tables": ["<table>..."] }]
// where `tables` are the page's pipe tables as HTML, rendered by marked (GitHub-flavoured, as
// quarry's Markdown partitioner reads them: body rows padded or cut to the header's cell count).
import { readFile, writeFile } from 'node:fs/promises';
import { Marked } from 'marked';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each peer by the name the bench reports it under: its package and `load()`, which returns its page markdown. */
export const MARKDOWN_PEERS = {
  // Native PDFium with LiteParse's own layout; markdown output, no OCR (the dev set is born-digital).
  liteparse: {
    package: '@llamaindex/liteparse',
    async load() {
      const { LiteParse } = await import('@llamaindex/liteparse');
      const parser = new LiteParse({ ocrEnabled: false, outputFormat: 'markdown', quiet: true });
      return async (bytes) => (await parser.parse(bytes)).pages.map((p) => ({ page: p.pageNum, markdown: p.markdown }));
    },
  },
  // Rust; extractPagesMarkdown gives every page's markdown (0-based page numbers).
  'pdf-inspector': {
    package: '@firecrawl/pdf-inspector',
    async load() {
      const { extractPagesMarkdown } = await import('@firecrawl/pdf-inspector');
      return async (bytes) => extractPagesMarkdown(Buffer.from(bytes)).pages.map((p) => ({ page: p.page + 1, markdown: p.markdown }));
    },
  },
};

const marked = new Marked({ gfm: true });

/** The pipe tables of a Markdown text, each as an HTML `<table>`. */
export function pipeTablesAsHtml(markdown) {
  const tables = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'table') tables.push(marked.parser([token]));
  });
  return tables;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name, outDir, ...files] = process.argv.slice(2);
  const peer = MARKDOWN_PEERS[name];
  if (!peer || !outDir || !files.length) {
    console.error(`usage: node markdown-peers.mjs <${Object.keys(MARKDOWN_PEERS).join('|')}> <out-dir> <file.pdf>...`);
    process.exit(2);
  }
  const extract = await peer.load();
  for (const file of files) {
    const pages = (await extract(new Uint8Array(await readFile(file)))).map((p) => ({ ...p, tables: pipeTablesAsHtml(p.markdown) }));
    await writeFile(path.join(outDir, `${path.basename(file)}.json`), JSON.stringify(pages));
  }
}
