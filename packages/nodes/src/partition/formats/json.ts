import type { Element } from '@quarry/core';
import { canonicalElementType, elementsFromJSON } from '@quarry/core/element';
import { errorMessage, quarryError } from '@quarry/core/errors';
import type { FormatPartitionOptions, FormatPartitioner } from '../types.js';
import { limitError, partitionLimits } from '../limits.js';
import { decodeText } from './shared/decode-text.js';
import { newElement } from './shared/new-element.js';

/**
 * True when `item` looks like one serialized element (`unstructured`'s `is_element_shaped_dict`):
 * a known type name (aliases included), a string `text` (a boolean `checked` for `CheckBox`), and
 * an object `metadata` when present.
 */
export function isElementShaped(item: unknown): boolean {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
  const o = item as Record<string, unknown>;
  if (o.metadata !== undefined && (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata))) return false;
  if (typeof o.type !== 'string') return false;
  if (o.type === 'CheckBox') return typeof o.checked === 'boolean';
  return canonicalElementType(o.type) !== undefined && typeof o.text === 'string';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Pretty JSON with sorted keys and two-space indent, `unstructured`'s text for arbitrary JSON. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

/**
 * Elements for JSON that is not element JSON (`unstructured`'s current contract): an object gives
 * one element, an array of objects one element per object, any other array or a scalar one
 * element; empty objects and arrays give none. Each element is `UncategorizedText` whose text is
 * the value's pretty JSON.
 */
export function elementsFromArbitraryJson(value: unknown): Element[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) {
      return value.map((v) => newElement('UncategorizedText', prettyJson(v)));
    }
    return [newElement('UncategorizedText', prettyJson(value))];
  }
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) return [];
  return [newElement('UncategorizedText', prettyJson(value))];
}

/**
 * Where and how JSON text is malformed, in words, from V8's `JSON.parse` message: its offsets
 * ("in JSON at position 479") become a line and column, its token echo ("Unexpected token 'Š',
 * \"...\" is not valid JSON") the character alone.
 */
export function jsonSyntaxProblem(text: string, e: unknown, firstLine = 1): string {
  const message = e instanceof Error ? e.message : String(e);
  const positioned = /^(.*?) in JSON at position (\d+)/s.exec(message);
  if (positioned) {
    const at = Number(positioned[2]);
    const before = text.slice(0, at);
    const line = firstLine + before.split('\n').length - 1;
    const column = at - before.lastIndexOf('\n');
    const what = positioned[1]!.replace(/^\w/, (c) => c.toLowerCase());
    return `${what} at line ${line}, column ${column}`;
  }
  const where = firstLine > 1 ? ` on line ${firstLine}` : '';
  if (/Unexpected end of JSON input/.test(message)) return `the text ends before the JSON value does${where}`;
  const token = /^Unexpected token '(.*?)', /s.exec(message);
  if (token) return `unexpected character ${JSON.stringify(token[1])}${where}`;
  return `malformed JSON${where}`;
}

/** How deeply `value` nests arrays and objects (a scalar is 0), counted without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const inner = depth + 1;
    if (inner > max) max = inner;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, inner]);
  }
  return max;
}

/**
 * Parses JSON text that starts on line `firstLine` of the file (NDJSON lines) and refuses a value
 * nested deeper than `maxNestingDepth` with `DOCUMENT_TOO_COMPLEX`: pretty-printing it, the text of
 * its element, is recursive and would overflow the call stack, and its indentation grows with the
 * depth squared.
 */
function parse(text: string, options: FormatPartitionOptions, firstLine = 1): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw quarryError('FILE_UNREADABLE', `${options.filename}: not valid JSON: ${jsonSyntaxProblem(text, e, firstLine)}`, {
      cause: e,
      details: { filename: options.filename, reason: errorMessage(e) },
    });
  }
  const limits = partitionLimits();
  const depth = jsonDepth(value);
  if (depth > limits.maxNestingDepth) throw limitError('DOCUMENT_TOO_COMPLEX', 'maxNestingDepth', options.filename, depth, limits);
  return value;
}

/** Reads element JSON, keeping the elements' own ids (for `parent_id` links) and metadata. */
function rehydrate(values: unknown[], options: FormatPartitionOptions): Element[] {
  try {
    return elementsFromJSON(values, { source: options.filename });
  } catch (e) {
    throw quarryError('FILE_UNREADABLE', `${options.filename}: element JSON could not be read (${(e as Error).message})`, {
      cause: e,
      details: { filename: options.filename },
    });
  }
}

/**
 * JSON. A non-empty array whose every item is a serialized element (quarry's or `unstructured`'s
 * element JSON) is read back as those elements, metadata included: this lets partitioned output be
 * re-chunked or re-embedded without partitioning again. Any other JSON is partitioned as data, as
 * `unstructured` does since its arbitrary-JSON support: see {@link elementsFromArbitraryJson}.
 * Malformed JSON is `FILE_UNREADABLE`.
 */
export const jsonPartitioner: FormatPartitioner = {
  partition(bytes, options) {
    const text = decodeText(bytes, options.encoding);
    if (!text.trim()) return [];
    const value = parse(text, options);
    if (Array.isArray(value) && value.length > 0 && value.every(isElementShaped)) return rehydrate(value, options);
    return elementsFromArbitraryJson(value);
  },
};

/**
 * NDJSON (one JSON value per line). When every line is a serialized element the elements are read
 * back; otherwise each non-blank line becomes one `UncategorizedText` holding its pretty JSON.
 */
export const ndjsonPartitioner: FormatPartitioner = {
  partition(bytes, options) {
    const lines = decodeText(bytes, options.encoding)
      .split(/\r?\n/)
      .map((line, i) => [line, i] as const)
      .filter(([line]) => line.trim());
    const values = lines.map(([line, i]) => parse(line, options, i + 1));
    if (values.length > 0 && values.every(isElementShaped)) return rehydrate(values, options);
    return values.map((v) => newElement('UncategorizedText', prettyJson(v)));
  },
};
