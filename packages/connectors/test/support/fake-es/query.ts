/** The query DSL the fake cluster understands: field resolution, term candidates, matching, source filtering. */

import { EsError, isObject, type FakeFieldMapping, type FakeIndex, type Json } from './types.js';

/** The standard analyzer, roughly: lower case, split on anything but letters, digits and `_`. */
export function analyze(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
}

/** Resolves a field path (`record_id.keyword`, `metadata.filename`) to its mapping and values. */
function fieldValues(index: FakeIndex | undefined, source: Json, path: string): { mapping?: FakeFieldMapping; values: unknown[] } {
  const segments = path.split('.');
  let props: Record<string, FakeFieldMapping> | undefined = index?.mappings.properties;
  let current: unknown[] = [source];
  let mapping: FakeFieldMapping | undefined;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const m: FakeFieldMapping | undefined = props?.[seg];
    if (!m && mapping?.fields?.[seg]) {
      // A multi-field: the same values, indexed with the subfield's type.
      const sub = mapping.fields[seg]!;
      const values = sub.ignore_above === undefined ? current : current.filter((v) => typeof v !== 'string' || [...v].length <= sub.ignore_above!);
      return { mapping: sub, values };
    }
    mapping = m;
    props = m?.properties;
    const next: unknown[] = [];
    for (const c of current) {
      const items = Array.isArray(c) ? c : [c];
      for (const it of items) if (isObject(it) && it[seg] !== undefined) next.push(it[seg]);
    }
    current = next.flatMap((v) => (Array.isArray(v) ? v.flat(Infinity) : [v]));
  }
  return { ...(mapping ? { mapping } : {}), values: current };
}

/** Ids matching a `term`/`terms` query on a keyword field, from postings; undefined for other queries. */
export function termCandidates(index: FakeIndex, query: Json | undefined): string[] | undefined {
  if (!query) return undefined;
  const [kind, body] = Object.entries(query)[0] ?? [];
  if (kind !== 'term' && kind !== 'terms') return undefined;
  const [field, spec] = fieldAndSpec(body);
  const probe = fieldValues(index, {}, field).mapping;
  if (probe?.type !== 'keyword') return undefined;
  index.postings ??= new Map();
  let postings = index.postings.get(field);
  if (!postings) {
    postings = new Map();
    for (const [id, doc] of index.searchable) {
      for (const v of fieldValues(index, doc.source, field).values) {
        const key = String(v);
        let ids = postings.get(key);
        if (!ids) postings.set(key, (ids = new Set()));
        ids.add(id);
      }
    }
    index.postings.set(field, postings);
  }
  const wanted = kind === 'term' ? [termValue(spec)] : (spec as unknown[]);
  const out = new Set<string>();
  for (const w of wanted) for (const id of postings.get(String(w)) ?? []) out.add(id);
  return [...out];
}

function termValue(spec: unknown): unknown {
  return isObject(spec) ? (spec.value ?? spec.query) : spec;
}

function fieldAndSpec(q: unknown): [string, unknown] {
  const [field, spec] = Object.entries(q as Json)[0] ?? ['', undefined];
  return [field, spec];
}

function valueMatches(mapping: FakeFieldMapping | undefined, v: unknown, wanted: unknown): boolean {
  if (mapping?.type === 'text' || mapping?.type === 'match_only_text') return typeof v === 'string' && analyze(v).includes(String(wanted));
  return String(v) === String(wanted);
}

export function matches(index: FakeIndex | undefined, id: string, source: Json, query: Json | undefined): boolean {
  if (!query || Object.keys(query).length === 0) return true;
  const [kind, body] = Object.entries(query)[0]!;
  switch (kind) {
    case 'match_all':
      return true;
    case 'match_none':
      return false;
    case 'ids':
      return ((body as Json).values as string[]).includes(id);
    case 'term': {
      const [field, spec] = fieldAndSpec(body);
      const { mapping, values } = fieldValues(index, source, field);
      return values.some((v) => valueMatches(mapping, v, termValue(spec)));
    }
    case 'terms': {
      const [field, list] = fieldAndSpec(body);
      const { mapping, values } = fieldValues(index, source, field);
      return (list as unknown[]).some((w) => values.some((v) => valueMatches(mapping, v, w)));
    }
    case 'match':
    case 'match_phrase': {
      const [field, spec] = fieldAndSpec(body);
      const text = String(termValue(spec));
      const { mapping, values } = fieldValues(index, source, field);
      if (mapping?.type !== 'text' && mapping?.type !== 'match_only_text') return values.some((v) => String(v) === text);
      const wanted = analyze(text);
      return values.some((v) => {
        if (typeof v !== 'string') return false;
        const tokens = analyze(v);
        if (kind === 'match') return wanted.some((w) => tokens.includes(w));
        for (let i = 0; i + wanted.length <= tokens.length; i++) if (wanted.every((w, j) => tokens[i + j] === w)) return true;
        return wanted.length === 0;
      });
    }
    case 'exists': {
      const { values } = fieldValues(index, source, String((body as Json).field));
      return values.some((v) => v !== null);
    }
    case 'bool': {
      const b = body as Json;
      const list = (k: string): Json[] => (b[k] === undefined ? [] : Array.isArray(b[k]) ? (b[k] as Json[]) : [b[k] as Json]);
      const must = [...list('must'), ...list('filter')];
      const should = list('should');
      if (!must.every((q) => matches(index, id, source, q))) return false;
      if (list('must_not').some((q) => matches(index, id, source, q))) return false;
      if (should.length === 0) return true;
      const min = Number(b.minimum_should_match ?? (must.length ? 0 : 1));
      return should.filter((q) => matches(index, id, source, q)).length >= min;
    }
    default:
      throw new EsError(400, 'parsing_exception', `unknown query [${kind}]`);
  }
}

export function filterSource(source: Json, spec: unknown): Json {
  if (spec === undefined || spec === true) return source;
  const includes = typeof spec === 'string' ? [spec] : Array.isArray(spec) ? (spec as string[]) : (((spec as Json).includes as string[] | undefined) ?? []);
  if (includes.length === 0) return source;
  const out: Json = {};
  for (const path of includes) {
    const segs = path.split('.');
    let from: unknown = source;
    let to = out;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i]!;
      if (!isObject(from) || !(seg in from)) break;
      if (i === segs.length - 1) to[seg] = structuredClone(from[seg]);
      else {
        to[seg] = isObject(to[seg]) ? to[seg] : {};
        to = to[seg] as Json;
      }
      from = from[seg];
    }
  }
  return out;
}
