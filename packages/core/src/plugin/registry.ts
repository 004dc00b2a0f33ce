import { createRequire } from 'node:module';
import { CORE_ERROR_CODES, quarryError, type ErrorCode } from '../errors.js';
import { CORE_PROBLEM_CODES, PROBLEM_CODE_PATTERN } from '../workflow/problems.js';
import { ENGINE_VERSION } from '../version.js';
import {
  NODE_TYPES,
  type DestinationDefinition,
  type EmbeddingModelInfo,
  type FormatDefinition,
  type NodeDefinition,
  type NodeType,
  type Plugin,
  type SourceDefinition,
  type WorkflowTemplate,
} from './types.js';

const key = (type: string, subtype: string): string => `${type}/${subtype}`;

/** True when a node declares a settings schema; a getter is not called, so its schema (and zod) is built on first validation. */
function declaresSettings(n: NodeDefinition<unknown>): boolean {
  const own = Object.getOwnPropertyDescriptor(n, 'settings');
  if (own?.get) return true;
  return Boolean(n.settings);
}

// semver (CommonJS) is required with the first plugin, not with @quarry/core, and only the two
// functions used: 20 files where its index loads 47.
const require = createRequire(import.meta.url);
let semverLib: { validRange: typeof import('semver/ranges/valid.js'); satisfies: typeof import('semver/functions/satisfies.js') } | undefined;
const semver = () => (semverLib ??= { validRange: require('semver/ranges/valid.js'), satisfies: require('semver/functions/satisfies.js') });

/** Who owns core's own error and problem codes in {@link Registry.errorCodes} and {@link Registry.problemCodes}. */
export const CORE_OWNER = '@quarry/core';

/** A known error or problem code: its one-line description and the plugin that declared it (or {@link CORE_OWNER}). */
export interface ErrorCodeInfo {
  description: string;
  owner: string;
}

/**
 * Holds every registered node, connector and embedding model. Registration checks a plugin's
 * metadata first and registers nothing when any part of it is wrong.
 */
export class Registry {
  private readonly plugins = new Map<string, Plugin>();
  private readonly nodes = new Map<string, { def: NodeDefinition<unknown>; plugin: string }>();
  private readonly sources = new Map<string, SourceDefinition<unknown>>();
  private readonly destinations = new Map<string, DestinationDefinition<unknown>>();
  private readonly models = new Map<string, EmbeddingModelInfo>();
  // Lookup order: the last registered plugin's formats first.
  private formatList: FormatDefinition[] = [];
  private readonly templateMap = new Map<string, { template: WorkflowTemplate; plugin: string }>();
  private readonly codes = ownedBy(CORE_ERROR_CODES, CORE_OWNER);
  private readonly problems = ownedBy(CORE_PROBLEM_CODES, CORE_OWNER);
  private frozen = false;

  /**
   * Refuses further plugins (`ENGINE_FROZEN`): plans already built were checked against what is
   * registered now, so a later plugin could not change them consistently.
   */
  freeze(): void {
    this.frozen = true;
  }

  /** Registers a plugin; throws `INVALID_PLUGIN`, `INCOMPATIBLE_PLUGIN`, `DUPLICATE_*` codes, and `ENGINE_FROZEN` once frozen. */
  register(plugin: Plugin): void {
    if (this.frozen)
      throw quarryError(
        'ENGINE_FROZEN',
        `plugin "${String(plugin?.name)}" cannot be registered: the engine already built a workflow; call use() before build()`,
      );
    if (!plugin || typeof plugin.name !== 'string' || !plugin.name) throw quarryError('INVALID_PLUGIN', 'plugin must have a non-empty "name"');
    if (this.plugins.has(plugin.name)) throw quarryError('DUPLICATE_PLUGIN', `plugin "${plugin.name}" is already registered`);
    if (typeof plugin.engine !== 'string' || !semver().validRange(plugin.engine)) {
      throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}" must declare "engine" as a semver range, got ${JSON.stringify(plugin.engine)}`);
    }
    if (!semver().satisfies(ENGINE_VERSION, plugin.engine, { includePrerelease: true })) {
      throw quarryError('INCOMPATIBLE_PLUGIN', `plugin "${plugin.name}" supports engine ${plugin.engine}, but this engine is ${ENGINE_VERSION}`);
    }
    const seen = new Set<string>();
    for (const n of plugin.nodes ?? []) {
      if (!NODE_TYPES.includes(n.type as NodeType)) {
        throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": node type "${String(n.type)}" is not one of ${NODE_TYPES.join(', ')}`);
      }
      if (typeof n.subtype !== 'string' || !n.subtype || typeof n.create !== 'function' || !declaresSettings(n)) {
        throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": node "${n.type}/${String(n.subtype)}" needs a subtype, a settings schema and create()`);
      }
      for (const spelling of [n.subtype, ...(n.aliases ?? [])]) {
        const k = key(n.type, spelling);
        const existing = this.nodes.get(k);
        if (existing || seen.has(k)) {
          throw quarryError('DUPLICATE_NODE', `node ${k} is already registered${existing ? ` by plugin "${existing.plugin}"` : ''}`, { details: { node: k } });
        }
        seen.add(k);
      }
    }
    for (const [kind, list, map] of [
      ['source', plugin.sources ?? [], this.sources],
      ['destination', plugin.destinations ?? [], this.destinations],
    ] as const) {
      const local = new Set<string>();
      for (const c of list) {
        if (typeof c.type !== 'string' || !c.type || typeof c.create !== 'function' || !c.config) {
          throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": ${kind} "${String(c.type)}" needs a type, a config schema and create()`);
        }
        if (map.has(c.type) || local.has(c.type)) throw quarryError('DUPLICATE_CONNECTOR', `${kind} connector "${c.type}" is already registered`);
        local.add(c.type);
      }
    }
    const formats = (plugin.formats ?? []).map((f) => checkFormat(plugin.name, f));
    for (const f of formats) {
      if (this.formatList.some((g) => g.name === f.name) || formats.filter((g) => g.name === f.name).length > 1) {
        throw quarryError('DUPLICATE_FORMAT', `plugin "${plugin.name}": format "${f.name}" is already registered`, { details: { format: f.name } });
      }
    }
    const templates = plugin.templates ?? [];
    for (const t of templates) {
      if (typeof t?.id !== 'string' || !t.id || !Array.isArray(t.nodes))
        throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": a template needs an id and a nodes array`);
      const owner = this.templateMap.get(t.id)?.plugin;
      if (owner || templates.filter((u) => u.id === t.id).length > 1) {
        throw quarryError('DUPLICATE_TEMPLATE', `plugin "${plugin.name}": template "${t.id}" is already supplied${owner ? ` by plugin "${owner}"` : ''}`, {
          details: { template: t.id },
        });
      }
    }
    const codes = checkCodeTable(plugin, ERROR_CODES, this.codes);
    const problems = checkCodeTable(plugin, PROBLEM_CODES, this.problems);
    this.plugins.set(plugin.name, plugin);
    this.formatList = [...formats, ...this.formatList];
    for (const n of plugin.nodes ?? []) {
      for (const spelling of [n.subtype, ...(n.aliases ?? [])]) this.nodes.set(key(n.type, spelling), { def: n, plugin: plugin.name });
    }
    for (const s of plugin.sources ?? []) this.sources.set(s.type, s);
    for (const d of plugin.destinations ?? []) this.destinations.set(d.type, d);
    for (const m of plugin.embeddingModels ?? []) this.models.set(key(m.provider, m.model_name), m);
    for (const [code, description] of codes) this.codes.set(code, { description, owner: plugin.name });
    for (const [code, description] of problems) this.problems.set(code, { description, owner: plugin.name });
    for (const t of templates) this.templateMap.set(t.id, { template: t, plugin: plugin.name });
  }

  /** Every workflow template the registered plugins supply, in registration order. */
  templates(): readonly WorkflowTemplate[] {
    return [...this.templateMap.values()].map((t) => t.template);
  }

  /** The node definition for a type/subtype; throws `UNKNOWN_NODE` listing what is registered. */
  node(type: string, subtype: string): NodeDefinition<unknown> {
    const hit = this.nodes.get(key(type, subtype));
    if (!hit) {
      const known = this.nodeSubtypes(type as NodeType);
      throw quarryError('UNKNOWN_NODE', `no node ${type}/${subtype} is registered; registered ${type} subtypes: ${known.length ? known.join(', ') : '(none)'}`);
    }
    return hit.def;
  }

  /** The node definition for a subtype or one of its aliases, or undefined. */
  findNode(type: string, subtype: string): NodeDefinition<unknown> | undefined {
    return this.nodes.get(key(type, subtype))?.def;
  }

  /** Registered subtypes of one node type, sorted. */
  nodeSubtypes(type: NodeType): string[] {
    return [...this.nodes.entries()]
      .filter(([k, n]) => n.def.type === type && k === key(type, n.def.subtype))
      .map(([, n]) => n.def.subtype)
      .sort();
  }

  /** The source definition; throws `UNKNOWN_CONNECTOR` listing what is registered. */
  source(type: string): SourceDefinition<unknown> {
    const s = this.sources.get(type);
    if (!s)
      throw quarryError(
        'UNKNOWN_CONNECTOR',
        `no source connector "${type}" is registered; registered: ${[...this.sources.keys()].sort().join(', ') || '(none)'}`,
      );
    return s;
  }

  /** The destination definition; throws `UNKNOWN_CONNECTOR` listing what is registered. */
  destination(type: string): DestinationDefinition<unknown> {
    const d = this.destinations.get(type);
    if (!d)
      throw quarryError(
        'UNKNOWN_CONNECTOR',
        `no destination connector "${type}" is registered; registered: ${[...this.destinations.keys()].sort().join(', ') || '(none)'}`,
      );
    return d;
  }

  /** An embedding model's facts, or undefined. */
  embeddingModel(provider: string, model: string): EmbeddingModelInfo | undefined {
    return this.models.get(key(provider, model));
  }

  /** Every known embedding model of one provider (or all), sorted by name. */
  embeddingModels(provider?: string): EmbeddingModelInfo[] {
    return [...this.models.values()].filter((m) => provider === undefined || m.provider === provider).sort((a, b) => a.model_name.localeCompare(b.model_name));
  }

  /** Every registered format, in lookup order (later plugins first). */
  formats(): readonly FormatDefinition[] {
    return this.formatList;
  }

  /** Every error code core and the registered plugins declare, in code order. */
  errorCodes(): ReadonlyMap<string, ErrorCodeInfo> {
    return sortedByCode(this.codes);
  }

  /** Every workflow problem code core and the registered plugins declare, in code order. */
  problemCodes(): ReadonlyMap<string, ErrorCodeInfo> {
    return sortedByCode(this.problems);
  }

  /** Names of registered plugins. */
  pluginNames(): string[] {
    return [...this.plugins.keys()];
  }
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0);

/** A plugin's format, checked and frozen (it is shared with every job and process). */
function checkFormat(plugin: string, f: FormatDefinition): FormatDefinition {
  const name = typeof f?.name === 'string' && f.name ? f.name : undefined;
  const bad = (what: string): never => {
    throw quarryError('INVALID_PLUGIN', `plugin "${plugin}": format "${name ?? String(f?.name)}" ${what}`);
  };
  if (!name) bad('needs a non-empty name');
  if (!isStrings(f.mimeTypes) || f.mimeTypes.length === 0) bad('needs a non-empty mimeTypes array of strings');
  if (!isStrings(f.extensions) || f.extensions.some((e) => !/^\.[a-z0-9]+$/.test(e))) bad('needs an extensions array of lower-case extensions with their dot');
  if (typeof f.module !== 'string' || !URL.canParse(f.module)) bad('needs "module", the absolute URL of the module that partitions it');
  if (typeof f.exportName !== 'string' || !f.exportName) bad('needs "exportName", the export holding its partitioner');
  return Object.freeze({
    name: f.name,
    mimeTypes: Object.freeze([...f.mimeTypes]),
    extensions: Object.freeze([...f.extensions]),
    module: f.module,
    exportName: f.exportName,
  });
}

/** How a plugin's table of error codes or of problem codes is checked. */
interface CodeKind {
  field: 'errorCodes' | 'problemCodes';
  what: string;
  shape: RegExp;
  shapeName: string;
  duplicate: ErrorCode;
}

const ERROR_CODES: CodeKind = {
  field: 'errorCodes',
  what: 'error code',
  shape: /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/,
  shapeName: 'UPPER_SNAKE_CASE',
  duplicate: 'DUPLICATE_ERROR_CODE',
};
const PROBLEM_CODES: CodeKind = {
  field: 'problemCodes',
  what: 'problem code',
  shape: PROBLEM_CODE_PATTERN,
  shapeName: '<area>.<what> in lower snake case',
  duplicate: 'DUPLICATE_PROBLEM_CODE',
};

function ownedBy(table: Readonly<Record<string, string>>, owner: string): Map<string, ErrorCodeInfo> {
  return new Map(Object.entries(table).map(([code, description]) => [code, { description, owner }]));
}

function sortedByCode(codes: ReadonlyMap<string, ErrorCodeInfo>): ReadonlyMap<string, ErrorCodeInfo> {
  return new Map([...codes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A plugin's error or problem codes as entries, checked against the codes already known. */
function checkCodeTable(plugin: Plugin, kind: CodeKind, known: ReadonlyMap<string, ErrorCodeInfo>): Array<[string, string]> {
  const table: unknown = plugin[kind.field];
  if (table === undefined) return [];
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": "${kind.field}" must be an object of code -> one-line description`);
  }
  const entries = Object.entries(table as Record<string, unknown>);
  for (const [code, description] of entries) {
    if (!kind.shape.test(code))
      throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": ${kind.what} "${code}" is not ${kind.shapeName}`, { details: { code } });
    if (typeof description !== 'string' || !description.trim() || description.includes('\n')) {
      throw quarryError('INVALID_PLUGIN', `plugin "${plugin.name}": ${kind.what} ${code} needs a one-line description`, { details: { code } });
    }
    const owner = known.get(code)?.owner;
    if (owner)
      throw quarryError(
        kind.duplicate,
        `plugin "${plugin.name}": ${kind.what} ${code} is already declared by ${owner === CORE_OWNER ? 'core' : `plugin "${owner}"`}`,
        { details: { code, owner } },
      );
  }
  return entries as Array<[string, string]>;
}
