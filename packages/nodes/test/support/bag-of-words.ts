/**
 * A text as a bag of its lower-cased words hashed into 512 dimensions, L2-normalised: texts that
 * share words are close, so retrieval tests (the LangChain and LlamaIndex adapters') can check which
 * chunk comes back, with no model and no network.
 */
export function bagOfWords(text: string): number[] {
  const v = new Array<number>(512).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
    v[(h >>> 0) % 512]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
