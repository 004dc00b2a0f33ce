/**
 * Writes a tiny, random-weight, BERT-shaped sentence-embedding model that transformers.js loads
 * offline with the feature-extraction pipeline: config.json, tokenizer.json, tokenizer_config.json,
 * special_tokens_map.json and onnx/model.onnx (about 0.2 MB at the default size). No dependency,
 * no network: the ONNX protobuf is written by hand. The weights come from a seeded PRNG, so the
 * model is deterministic; its vectors carry no meaning but depend on every token and position and
 * honour the attention mask (padding does not change a sentence's mean-pooled vector). Use it for
 * wiring, shapes, batching and round trips, never for quality.
 *
 * Graph (opset 17, IR 8): word + position + token-type embeddings -> LayerNorm -> N x [single-head
 * self-attention with a mask bias, residual, LayerNorm, GELU FFN, residual, LayerNorm] ->
 * `last_hidden_state`. Inputs: input_ids, attention_mask, token_type_ids (int64 [batch, seq]).
 *
 * Ported from the team's tools/tiny-bert/make-tiny-bert.mjs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Size and seed of the generated model. */
export interface TinyBertOptions {
  seed?: number;
  layers?: number;
  /** Hidden size = embedding dimensions. */
  hidden?: number;
  /** Position embeddings = maximum input tokens. */
  maxPositions?: number;
}

/** What was written. */
export interface TinyBertInfo {
  dir: string;
  vocabSize: number;
  hidden: number;
  maxPositions: number;
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const CHARS = [...'abcdefghijklmnopqrstuvwxyz0123456789', ...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const WORDS = (
  'the of and to in is was for on that with as by at from it this be are or an not which have has had but were ' +
  'all one can their there been if more when will would who so no they we he she you what out up about into than ' +
  'them only other some could time these two may then do first any my now such like our over also new after use ' +
  'used using how where most made many before must through back years year much way well should because each just ' +
  'those people too little state good very make world still own see men work long get here between both life ' +
  'being under never day same another know while last might us great old off come since against go came right take ' +
  'three himself few house without place again home small found thought went say part once general high upon school ' +
  'every does got united left number course war until always away something fact though water less public put think ' +
  'almost hand enough far took head yet government system better set told nothing night end why called didn eyes find ' +
  'going look asked later knew point next program city business give group toward young days let room president side ' +
  'social given present several order national possible rather second face per among form important often things ' +
  'document documents page pages text pdf file files data email mail message invoice report table tables image images ' +
  'section chapter title author date name address total amount price customer order service support contract policy ' +
  'pipeline chunk chunks token tokens embedding embeddings vector search index query model models language sentence ' +
  'sentences word words paragraph paragraphs line lines header footer list item items figure summary abstract ' +
  'hello world test example sample cat cats dog dogs weather sunny rain today tomorrow quick brown fox jumps lazy'
)
  .split(/\s+/)
  .filter(Boolean);

// ---------- seeded PRNG (mulberry32 + Box-Muller) ----------
function prng(seed: number): { randn(): number } {
  let s = seed >>> 0;
  const rand = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { randn: () => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand()) };
}

// ---------- minimal protobuf writer (what an ONNX ModelProto needs) ----------
const enc = new TextEncoder();
function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
function cat(parts: Uint8Array[]): Uint8Array {
  const u = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    u.set(p, o);
    o += p.length;
  }
  return u;
}
const tag = (f: number, w: number): Uint8Array => Uint8Array.from(varint((f << 3) | w));
const fInt = (f: number, n: number | bigint): Uint8Array => cat([tag(f, 0), Uint8Array.from(varint(n))]);
const fBytes = (f: number, b: Uint8Array): Uint8Array => cat([tag(f, 2), Uint8Array.from(varint(b.length)), b]);
const fStr = (f: number, s: string): Uint8Array => fBytes(f, enc.encode(s));
const fFloat = (f: number, x: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, x, true);
  return cat([tag(f, 5), b]);
};

const FLOAT = 1;
const INT64 = 7;
// TensorProto: dims=1, data_type=2, name=8, raw_data=9
function tensor(name: string, dims: number[], dataType: number, data: ArrayLike<number>): Uint8Array {
  const raw =
    dataType === FLOAT ? new Uint8Array(Float32Array.from(data).buffer) : new Uint8Array(BigInt64Array.from(Array.from(data, (x) => BigInt(x))).buffer);
  return cat([...dims.map((d) => fInt(1, d)), fInt(2, dataType), fStr(8, name), fBytes(9, raw)]);
}
// AttributeProto: name=1, f=2, i=3, ints=8, type=20 (FLOAT=1, INT=2, INTS=7)
const attrI = (name: string, v: number): Uint8Array => cat([fStr(1, name), fInt(3, v), fInt(20, 2)]);
const attrF = (name: string, v: number): Uint8Array => cat([fStr(1, name), fFloat(2, v), fInt(20, 1)]);
const attrInts = (name: string, vs: number[]): Uint8Array => cat([fStr(1, name), ...vs.map((v) => fInt(8, v)), fInt(20, 7)]);
// ValueInfoProto: name=1, type=2 -> TypeProto.tensor_type=1 -> {elem_type=1, shape=2 -> dim=1 -> {dim_value=1 | dim_param=2}}
const valueInfo = (name: string, elemType: number, dims: Array<string | number>): Uint8Array =>
  cat([
    fStr(1, name),
    fBytes(2, fBytes(1, cat([fInt(1, elemType), fBytes(2, cat(dims.map((d) => fBytes(1, typeof d === 'string' ? fStr(2, d) : fInt(1, d)))))]))),
  ]);

/** Writes the model into `dir` (created if needed) and returns its facts. */
export function writeTinyBert(dir: string, options: TinyBertOptions = {}): TinyBertInfo {
  const seed = options.seed ?? 42;
  const LAYERS = options.layers ?? 2;
  const H = options.hidden ?? 32;
  const I = 2 * H;
  const P = options.maxPositions ?? 512;
  const POS_STD = 0.002;
  const std = 0.02;
  const { randn } = prng(seed);
  const randArr = (n: number, sd: number): Float32Array => Float32Array.from({ length: n }, () => randn() * sd);
  const fill = (n: number, v: number): Float32Array => new Float32Array(n).fill(v);

  const vocab: string[] = [];
  const seen = new Set<string>();
  const add = (t: string): void => {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  SPECIAL.forEach(add);
  CHARS.forEach(add);
  CHARS.forEach((c) => add(`##${c}`));
  WORDS.forEach(add);
  const V = vocab.length;
  const id = Object.fromEntries(vocab.map((t, i) => [t, i])) as Record<string, number>;

  let nodeCount = 0;
  const nodes: Uint8Array[] = [];
  const inits: Uint8Array[] = [];
  // NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
  const node = (op: string, inputs: string[], outputs: string[], attrs: Uint8Array[] = []): void => {
    nodes.push(
      cat([
        ...inputs.map((x) => fStr(1, x)),
        ...outputs.map((x) => fStr(2, x)),
        fStr(3, `${op}_${nodeCount++}`),
        fStr(4, op),
        ...attrs.map((a) => fBytes(5, a)),
      ]),
    );
  };
  const W = (name: string, dims: number[], data: ArrayLike<number>): string => {
    inits.push(tensor(name, dims, FLOAT, data));
    return name;
  };
  const C64 = (name: string, dims: number[], vals: number[]): void => {
    inits.push(tensor(name, dims, INT64, vals));
  };

  W('emb.word', [V, H], randArr(V * H, std));
  W('emb.pos', [P, H], randArr(P * H, POS_STD));
  W('emb.type', [2, H], randArr(2 * H, POS_STD));
  W('emb.ln.g', [H], fill(H, 1));
  W('emb.ln.b', [H], fill(H, 0));
  C64('c.i0', [], [0]);
  C64('c.i1', [], [1]);
  C64('c.axes1', [1], [1]);
  W('c.one', [], [1]);
  W('c.negbig', [], [-10000]);
  W('c.scale', [], [1 / Math.sqrt(H)]);
  W('c.half', [], [0.5]);
  W('c.sqrt2', [], [Math.SQRT2]);

  node('Gather', ['emb.word', 'input_ids'], ['e.word'], [attrI('axis', 0)]);
  node('Gather', ['emb.type', 'token_type_ids'], ['e.type'], [attrI('axis', 0)]);
  node('Shape', ['input_ids'], ['e.shape']);
  node('Gather', ['e.shape', 'c.i1'], ['e.seqlen'], [attrI('axis', 0)]);
  node('Range', ['c.i0', 'e.seqlen', 'c.i1'], ['e.posids']);
  node('Gather', ['emb.pos', 'e.posids'], ['e.pos'], [attrI('axis', 0)]);
  node('Add', ['e.word', 'e.type'], ['e.sum1']);
  node('Add', ['e.sum1', 'e.pos'], ['e.sum2']);
  node('LayerNormalization', ['e.sum2', 'emb.ln.g', 'emb.ln.b'], ['h.0'], [attrI('axis', -1), attrF('epsilon', 1e-12)]);
  // additive attention bias from the mask: (1 - mask) * -10000, shape [B,1,S]
  node('Cast', ['attention_mask'], ['m.f'], [attrI('to', FLOAT)]);
  node('Unsqueeze', ['m.f', 'c.axes1'], ['m.3']);
  node('Sub', ['c.one', 'm.3'], ['m.inv']);
  node('Mul', ['m.inv', 'c.negbig'], ['m.bias']);

  let h = 'h.0';
  for (let l = 0; l < LAYERS; l++) {
    const p = `l${l}.`;
    const lin = (x: string, name: string, din: number, dout: number, out: string): string => {
      W(`${p}${name}.w`, [din, dout], randArr(din * dout, std));
      W(`${p}${name}.b`, [dout], fill(dout, 0));
      node('MatMul', [x, `${p}${name}.w`], [`${out}.mm`]);
      node('Add', [`${out}.mm`, `${p}${name}.b`], [out]);
      return out;
    };
    const q = lin(h, 'q', H, H, `${p}q`);
    const k = lin(h, 'k', H, H, `${p}k`);
    const v = lin(h, 'v', H, H, `${p}v`);
    node('Transpose', [k], [`${p}kt`], [attrInts('perm', [0, 2, 1])]);
    node('MatMul', [q, `${p}kt`], [`${p}sc`]);
    node('Mul', [`${p}sc`, 'c.scale'], [`${p}sc2`]);
    node('Add', [`${p}sc2`, 'm.bias'], [`${p}sc3`]);
    node('Softmax', [`${p}sc3`], [`${p}att`], [attrI('axis', -1)]);
    node('MatMul', [`${p}att`, v], [`${p}ctx`]);
    const ao = lin(`${p}ctx`, 'o', H, H, `${p}ao`);
    node('Add', [ao, h], [`${p}r1`]);
    W(`${p}ln1.g`, [H], fill(H, 1));
    W(`${p}ln1.b`, [H], fill(H, 0));
    node('LayerNormalization', [`${p}r1`, `${p}ln1.g`, `${p}ln1.b`], [`${p}h1`], [attrI('axis', -1), attrF('epsilon', 1e-12)]);
    const f1 = lin(`${p}h1`, 'ffn1', H, I, `${p}f1`);
    // exact GELU: 0.5 * x * (1 + erf(x / sqrt2))
    node('Div', [f1, 'c.sqrt2'], [`${p}g.d`]);
    node('Erf', [`${p}g.d`], [`${p}g.e`]);
    node('Add', [`${p}g.e`, 'c.one'], [`${p}g.a`]);
    node('Mul', [f1, `${p}g.a`], [`${p}g.m`]);
    node('Mul', [`${p}g.m`, 'c.half'], [`${p}g`]);
    const f2 = lin(`${p}g`, 'ffn2', I, H, `${p}f2`);
    node('Add', [f2, `${p}h1`], [`${p}r2`]);
    W(`${p}ln2.g`, [H], fill(H, 1));
    W(`${p}ln2.b`, [H], fill(H, 0));
    node('LayerNormalization', [`${p}r2`, `${p}ln2.g`, `${p}ln2.b`], [`${p}out`], [attrI('axis', -1), attrF('epsilon', 1e-12)]);
    h = `${p}out`;
  }
  node('Identity', [h], ['last_hidden_state']);

  // GraphProto: node=1, name=2, initializer=5, input=11, output=12
  const graph = cat([
    ...nodes.map((n) => fBytes(1, n)),
    fStr(2, 'tiny_bert'),
    ...inits.map((t) => fBytes(5, t)),
    fBytes(11, valueInfo('input_ids', INT64, ['batch_size', 'sequence_length'])),
    fBytes(11, valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length'])),
    fBytes(11, valueInfo('token_type_ids', INT64, ['batch_size', 'sequence_length'])),
    fBytes(12, valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', H])),
  ]);
  // ModelProto: ir_version=1, producer_name=2, producer_version=3, graph=7, opset_import=8 {domain=1, version=2}
  const model = cat([fInt(1, 8), fStr(2, 'quarry tiny-bert'), fStr(3, '1'), fBytes(7, graph), fBytes(8, cat([fStr(1, ''), fInt(2, 17)]))]);

  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), model);
  const json = (f: string, o: unknown): void => writeFileSync(join(dir, f), `${JSON.stringify(o, null, 2)}\n`);
  json('config.json', {
    _name_or_path: 'tiny-bert-random',
    architectures: ['BertModel'],
    model_type: 'bert',
    vocab_size: V,
    hidden_size: H,
    num_hidden_layers: LAYERS,
    num_attention_heads: 1,
    intermediate_size: I,
    hidden_act: 'gelu',
    max_position_embeddings: P,
    type_vocab_size: 2,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    transformers_version: '4.40.0',
  });
  const special = (t: string) => ({ id: id[t], content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  json('tokenizer.json', {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id[t]], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: id },
  });
  json('tokenizer_config.json', {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: P,
    clean_up_tokenization_spaces: true,
    unk_token: '[UNK]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    mask_token: '[MASK]',
  });
  json('special_tokens_map.json', { unk_token: '[UNK]', sep_token: '[SEP]', pad_token: '[PAD]', cls_token: '[CLS]', mask_token: '[MASK]' });
  return { dir, vocabSize: V, hidden: H, maxPositions: P };
}
