import { createEngine, type Engine } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';

/** An engine with every built-in plugin: the nodes (partitioners, chunkers, ...) and the connectors. */
export function defaultEngine(): Engine {
  return createEngine().use(nodesPlugin).use(connectorsPlugin);
}
