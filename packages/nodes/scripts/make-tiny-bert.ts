/**
 * Writes the tiny random-weight BERT-shaped ONNX model and tokenizer of the tests into a directory,
 * for trying the `local` embedder offline (its vectors carry no meaning: wiring and shapes only).
 *
 *   node --import tsx packages/nodes/scripts/make-tiny-bert.ts <outDir> [--hidden=32] [--layers=2] [--seed=42]
 *
 * Then use `{ "type": "embed", "subtype": "local", "settings": { "model_path": "<outDir>" } }`.
 */
import { writeTinyBert } from '../test/support/tiny-bert.js';

const args = process.argv.slice(2);
const flag = (name: string): number | undefined => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? undefined : Number(a.slice(name.length + 3));
};
const out = args.find((a) => !a.startsWith('--'));
if (!out) {
  console.error('usage: make-tiny-bert.ts <outDir> [--hidden=32] [--layers=2] [--seed=42]');
  process.exit(2);
}
const hidden = flag('hidden');
const layers = flag('layers');
const seed = flag('seed');
const info = writeTinyBert(out, { ...(hidden ? { hidden } : {}), ...(layers ? { layers } : {}), ...(seed === undefined ? {} : { seed }) });
console.log(JSON.stringify(info));
