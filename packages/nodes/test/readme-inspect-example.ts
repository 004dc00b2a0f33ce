import { readFile, writeFile } from 'node:fs/promises';
import { partitionFile, renderInspection } from '@quarry/nodes';

/** Partitions a document with coordinates and writes the page that shows what was extracted. */
export async function inspectDocument(path: string, reportPath: string) {
  const bytes = await readFile(path);
  const elements = await partitionFile(bytes, { filename: path, strategy: 'fast', coordinates: true });
  const html = await renderInspection(elements, bytes, { filename: path, caption: 'strategy fast', maxPages: 10 });
  await writeFile(reportPath, html);
  return elements;
}
