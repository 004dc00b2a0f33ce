// Loads examples/workflows/local-embed.json with the local model directory filled in.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The embed demo workflow body, its `${QUARRY_EMBED_MODEL}` replaced by `modelPath` (absolute). */
export function embedWorkflow(modelPath) {
  const text = readFileSync(new URL('./workflows/local-embed.json', import.meta.url), 'utf8');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow file's placeholder, written literally.
  return JSON.parse(text.replaceAll('${QUARRY_EMBED_MODEL}', JSON.stringify(resolve(modelPath)).slice(1, -1)));
}
