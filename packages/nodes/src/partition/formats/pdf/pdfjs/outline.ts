/**
 * The document outline (bookmarks) as pdf.js reads it, flattened in document order with levels
 * and target pages. This file must not import `@quarry/core`.
 */
import type { OutlineEntry } from '../headings.js';
import type { PdfDocument } from './load.js';

/** At most this many entries are read: an outline is a table of contents, not the document. */
export const MAX_OUTLINE_ENTRIES = 5000;
const MAX_OUTLINE_DEPTH = 16;

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/** Reads the outline of `doc`; an entry whose target cannot be resolved has no `page`. */
export async function readPdfjsOutline(doc: PdfDocument): Promise<OutlineEntry[]> {
  const root = (await doc.getOutline()) as OutlineNode[] | null;
  const out: OutlineEntry[] = [];
  const visit = async (nodes: readonly OutlineNode[], level: number): Promise<void> => {
    for (const node of nodes) {
      if (out.length >= MAX_OUTLINE_ENTRIES) return;
      const page = await targetPage(doc, node.dest).catch(() => undefined);
      out.push({ title: node.title, level, ...(page !== undefined ? { page } : {}) });
      if (level + 1 < MAX_OUTLINE_DEPTH) await visit(node.items ?? [], level + 1);
    }
  };
  await visit(root ?? [], 0);
  return out;
}

async function targetPage(doc: PdfDocument, dest: OutlineNode['dest']): Promise<number | undefined> {
  const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
  const ref = explicit?.[0];
  if (typeof ref === 'number') return ref + 1;
  if (ref && typeof ref === 'object' && 'num' in ref) return (await doc.getPageIndex(ref as Parameters<PdfDocument['getPageIndex']>[0])) + 1;
  return undefined;
}
