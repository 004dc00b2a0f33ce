import { parseSettings, type Element, type Logger } from '@quarry/core';
import { localDestination, localSource } from '@quarry/connectors';

/**
 * Writes `<output>/<path>.md.json` for every Markdown file under `input` (drafts excluded): one
 * element per paragraph. A partitioner node does this for real documents; this shows the connectors.
 */
export async function markdownToElements(input: string, output: string, logger: Logger = console): Promise<string[]> {
  const ctx = { logger, signal: new AbortController().signal };
  const sourceConfig = parseSettings(localSource.config, { path: input, include: ['*.md'], exclude: ['drafts'] });
  const destConfig = parseSettings(localDestination.config, { path: output });
  if (!sourceConfig.ok || !destConfig.ok) throw new Error('invalid connector config');

  const source = await localSource.create(sourceConfig.value, ctx);
  const destination = await localDestination.create(destConfig.value, ctx);
  await destination.prepare?.({ nodes: [] });

  const written: string[] = [];
  for await (const document of source.list(ctx.signal)) {
    const text = new TextDecoder().decode(await document.read(ctx.signal));
    const elements: Element[] = text
      .split(/\n{2,}/)
      .filter((t) => t.trim())
      .map((t, i) => ({
        element_id: `${document.version?.slice(0, 16)}-${i}`,
        type: t.startsWith('#') ? 'Title' : 'NarrativeText',
        text: t.replace(/^#+\s*/, '').trim(),
        metadata: { filename: document.filename, filetype: 'text/markdown', data_source: document.data_source },
      }));
    await destination.write({ document, elements }, ctx);
    written.push(document.record_id);
  }
  return written;
}
