import { quarryError, Registry, type Element, type NodeDefinition, type Plugin } from '@quarry/core';
import type { z } from 'zod';
import type { chunkerNodes } from '../plugin.js';
import { runNodeOnce, type HelperCallOptions } from './run-node.js';

type BuiltinChunker = (typeof chunkerNodes)[number];

/**
 * The settings of each built-in chunker, by every name it answers to (its subtype and its alias):
 * those of the workflow's chunk node, taken from the registered chunkers' own schemas.
 */
export type ChunkSettingsOf = { [D in BuiltinChunker as D['subtype'] | D['aliases'][number]]: z.input<D['settings']> };

/** A built-in chunker's name: its subtype (`chunk_by_title`) or its alias (`by_title`, `basic`, `by_page`, `by_similarity`). */
export type ChunkerName = keyof ChunkSettingsOf;

/** The settings a chunker name takes: a built-in one's own, or a plugin chunker's as a plain object. */
export type ChunkSettingsFor<S extends string> = S extends ChunkerName ? ChunkSettingsOf[S] : Record<string, unknown>;

/** Options of {@link chunk}: those of every helper, and plugins whose chunkers it may name. */
export interface ChunkCallOptions extends HelperCallOptions {
  /** Plugins registered beside the built-in nodes, so their chunkers can be named too. */
  plugins?: readonly Plugin[];
}

let builtinRegistry: Promise<Registry> | undefined;

// The nodes plugin is imported when a chunker is first asked for: importing the helper stays cheap.
async function registryWith(plugins: readonly Plugin[]): Promise<Registry> {
  if (plugins.length === 0) return (builtinRegistry ??= registryOf([]));
  return registryOf(plugins);
}

async function registryOf(plugins: readonly Plugin[]): Promise<Registry> {
  const { nodesPlugin } = await import('../plugin.js');
  const registry = new Registry();
  for (const plugin of [nodesPlugin, ...plugins]) registry.register(plugin);
  return registry;
}

/**
 * Every chunker the `chunk` helper can name, built-in and of `plugins`, as `subtype (alias, ...)`:
 * for messages and help.
 *
 * @example
 * ```ts
 * await chunkerNames(); // ['chunk_by_character (basic)', 'chunk_by_page (by_page)', ...]
 * ```
 */
export async function chunkerNames(plugins: readonly Plugin[] = []): Promise<string[]> {
  return namesOf(await registryWith(plugins));
}

function namesOf(registry: Registry): string[] {
  return registry.nodeSubtypes('chunk').map((subtype) => {
    const aliases = registry.node('chunk', subtype).aliases ?? [];
    return aliases.length ? `${subtype} (${aliases.join(', ')})` : subtype;
  });
}

/**
 * The chunk node a name stands for (a subtype or an alias) among the built-in chunkers and those
 * of `plugins`; a name nothing registers fails with `SETTINGS_INVALID` listing the valid ones.
 *
 * @example
 * ```ts
 * const definition = await chunkerDefinition('by_title'); // chunkByTitleNode
 * ```
 */
export async function chunkerDefinition(name: string, plugins: readonly Plugin[] = []): Promise<NodeDefinition<unknown>> {
  const registry = await registryWith(plugins);
  const definition = registry.findNode('chunk', name);
  if (definition) return definition;
  const valid = namesOf(registry);
  throw quarryError('SETTINGS_INVALID', `unknown chunker "${name}": expected one of ${valid.join(', ')}`, { details: { subtype: name, valid } });
}

/**
 * Chunks one document's elements with a workflow chunker: the one-call form of the `chunk` node,
 * with the same settings (`max_characters`, `new_after_n_chars`, `overlap`, `combine_text_under_n_chars`,
 * ...; `chunk_by_similarity` needs `embedding`, e.g. `{ subtype: 'local', model_path }`). The
 * chunker is named by its subtype or alias (`by_title`, `basic`, `by_page`, as `quarry chunk` takes
 * them), or is a chunker of `options.plugins`. Settings are checked as in a workflow:
 * `SETTINGS_INVALID` names each bad one, or lists the valid names for a name nothing registers.
 *
 * @example
 * ```ts
 * const chunks = await chunk(elements, 'chunk_by_title', { max_characters: 1000, overlap: 100 });
 * const same = await chunk(elements, 'by_title', { max_characters: 1000, overlap: 100 });
 * ```
 */
export async function chunk<S extends ChunkerName | (string & {})>(
  elements: Element[],
  subtype: S,
  settings?: ChunkSettingsFor<S>,
  options: ChunkCallOptions = {},
): Promise<Element[]> {
  const { plugins = [], ...call } = options;
  const definition = await chunkerDefinition(subtype, plugins);
  const first = elements[0]?.metadata.filename ?? 'elements';
  const document = { record_id: first, filename: first, data_source: {}, read: async () => new Uint8Array() };
  return runNodeOnce(definition, { ...settings }, { document, elements }, call);
}
