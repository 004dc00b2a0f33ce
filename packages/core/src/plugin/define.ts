import type { DestinationDefinition, NodeDefinition, Plugin, SourceDefinition } from './types.js';

/**
 * Declares a node kind. Identity function that gives the definition its types.
 *
 * @example
 * ```ts
 * const upper = defineNode({
 *   type: 'prompter', subtype: 'uppercase', settings: z.object({}),
 *   create: () => ({ process: ({ elements }) => elements.map((e) => ({ ...e, text: e.text.toUpperCase() })) }),
 * });
 * ```
 */
export function defineNode<S>(def: NodeDefinition<S>): NodeDefinition<S> {
  return def;
}

/** Declares a source connector type. */
export function defineSource<C>(def: SourceDefinition<C>): SourceDefinition<C> {
  return def;
}

/** Declares a destination connector type. */
export function defineDestination<C>(def: DestinationDefinition<C>): DestinationDefinition<C> {
  return def;
}

/** Declares a plugin: a named bundle of nodes, connectors, embedding models, formats and the error codes they throw. */
export function definePlugin(def: Plugin): Plugin {
  return def;
}
