/** Index mappings in the fake cluster: validation, dynamic mapping, and documents checked against a mapping. */

import { EsError, isObject, type FakeFieldMapping, type FakeIndex, type Json } from './types.js';

const KNOWN_TYPES = new Set([
  'text',
  'keyword',
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'boolean',
  'date',
  'binary',
  'object',
  'nested',
  'dense_vector',
  'flattened',
  'match_only_text',
  'wildcard',
  'constant_keyword',
]);

export function validateMappings(props: Record<string, FakeFieldMapping>, prefix: string): void {
  for (const [name, f] of Object.entries(props)) {
    const path = prefix + name;
    const type = f.type ?? (f.properties ? 'object' : undefined);
    if (type === undefined) throw new EsError(400, 'mapper_parsing_exception', `No type specified for field [${path}]`);
    if (!KNOWN_TYPES.has(type)) throw new EsError(400, 'mapper_parsing_exception', `No handler for type [${type}] declared on field [${path}]`);
    if (type === 'dense_vector') {
      if (f.dims !== undefined && (!Number.isInteger(f.dims) || f.dims < 1 || f.dims > 4096)) {
        throw new EsError(
          400,
          'mapper_parsing_exception',
          `Failed to parse mapping: The number of dimensions should be in the range [1, 4096] but was [${f.dims}]`,
        );
      }
      if (f.similarity !== undefined && !['cosine', 'dot_product', 'l2_norm', 'max_inner_product'].includes(f.similarity)) {
        throw new EsError(400, 'mapper_parsing_exception', `Failed to parse mapping: Unknown vector similarity function [${f.similarity}]`);
      }
    }
    if (f.properties) validateMappings(f.properties, `${path}.`);
  }
}

function parseFailure(path: string, type: string, id: string, value: unknown, why?: string): EsError {
  const preview = JSON.stringify(value)?.slice(0, 80);
  return new EsError(
    400,
    'document_parsing_exception',
    `[1:1] failed to parse field [${path}] of type [${type}] in document with id '${id}'. Preview of field's value: '${preview}'`,
    {
      ...(why ? { caused_by: { type: 'illegal_argument_exception', reason: why } } : {}),
    },
  );
}

function dynamicFor(value: unknown): FakeFieldMapping | undefined {
  if (Array.isArray(value)) {
    const first = value.find((v) => v !== null);
    return first === undefined ? undefined : dynamicFor(first);
  }
  if (typeof value === 'string') return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return Number.isInteger(value) ? { type: 'long' } : { type: 'float' };
  if (isObject(value)) return { properties: {} };
  return undefined;
}

/** Checks a document against the index mapping, adding dynamic fields as Elasticsearch does. */
export function checkDocument(idx: FakeIndex, doc: Json, id: string): void {
  checkObject(idx.mappings.properties, doc, '', idx.mappings.dynamic ?? true, id);
}

function checkObject(props: Record<string, FakeFieldMapping>, obj: Json, prefix: string, dynamic: boolean | string, id: string): void {
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix + key;
    let f = props[key];
    if (!f) {
      if (dynamic === 'strict' || dynamic === 'false' || dynamic === false) {
        if (dynamic === 'strict')
          throw new EsError(
            400,
            'strict_dynamic_mapping_exception',
            `[1:1] mapping set to strict, dynamic introduction of [${key}] within [${prefix.slice(0, -1) || '_doc'}] is not allowed`,
          );
        continue;
      }
      const made = dynamicFor(value);
      if (!made) continue;
      props[key] = made;
      f = made;
    }
    checkValue(f, value, path, dynamic, id);
  }
}

function checkValue(f: FakeFieldMapping, value: unknown, path: string, dynamic: boolean | string, id: string): void {
  if (value === null) return;
  const type = f.type ?? (f.properties ? 'object' : 'object');
  if (type === 'object' || type === 'nested') {
    if (f.enabled === false) return;
    const list = Array.isArray(value) ? value : [value];
    for (const v of list) {
      if (v === null) continue;
      if (!isObject(v)) {
        throw new EsError(
          400,
          'document_parsing_exception',
          `[1:1] object mapping for [${path}] tried to parse field [${path.split('.').pop()}] as object, but found a concrete value`,
        );
      }
      f.properties ??= {};
      checkObject(f.properties, v, `${path}.`, f.dynamic ?? dynamic, id);
    }
    return;
  }
  if (type === 'dense_vector') {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'number')) throw parseFailure(path, type, id, value, 'expected an array of numbers');
    if (f.dims === undefined) f.dims = value.length;
    if (value.length !== f.dims) {
      throw new EsError(
        400,
        'document_parsing_exception',
        `[1:1] failed to parse: The [dense_vector] field [${path}] in doc [document with id '${id}'] has a different number of dimensions [${value.length}] than defined in the mapping [${f.dims}]`,
        {
          caused_by: {
            type: 'illegal_argument_exception',
            reason: `The [dense_vector] field [${path}] in doc [document with id '${id}'] has a different number of dimensions [${value.length}] than defined in the mapping [${f.dims}]`,
          },
        },
      );
    }
    if ((f.similarity ?? 'cosine') === 'cosine' && (value as number[]).every((v) => v === 0)) {
      throw new EsError(
        400,
        'document_parsing_exception',
        `[1:1] failed to parse: The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: [${value.slice(0, 5).join(', ')}]`,
      );
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) checkValue(f, v, path, dynamic, id);
    return;
  }
  if (isObject(value)) {
    if (type === 'flattened') return;
    throw parseFailure(path, type, id, value, `Can't get text on a START_OBJECT`);
  }
  switch (type) {
    case 'boolean':
      if (typeof value !== 'boolean' && !(typeof value === 'string' && ['true', 'false', ''].includes(value))) {
        throw parseFailure(path, type, id, value, `Failed to parse value [${String(value)}] as only [true] or [false] are allowed.`);
      }
      return;
    case 'long':
    case 'integer':
    case 'short':
    case 'byte': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n) || typeof value === 'boolean') throw parseFailure(path, type, id, value, `For input string: "${String(value)}"`);
      const limit = { long: 2 ** 63, integer: 2 ** 31, short: 2 ** 15, byte: 2 ** 7 }[type];
      if (Math.trunc(n) >= limit || Math.trunc(n) < -limit)
        throw parseFailure(path, type, id, value, `Value [${String(value)}] is out of range for ${type === 'integer' ? 'an integer' : `a ${type}`}`);
      return;
    }
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n) || typeof value === 'boolean') throw parseFailure(path, type, id, value, `For input string: "${String(value)}"`);
      return;
    }
    case 'binary':
      if (typeof value !== 'string') throw parseFailure(path, type, id, value, 'expected a base64 string');
      return;
    default:
      return;
  }
}
