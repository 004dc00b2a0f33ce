import type { Element } from '@quarry/core';
import type { QuarryError } from '@quarry/core/errors';
import { pooledChunkingError, type PooledChunking, type PooledChunks } from '../pool/pooled-chunking.js';

/** What a partition node handed on with the chunks a partition process made: who made them, or why it could not. */
interface HandedOn {
  subtype: PooledChunking['subtype'];
  failure?: QuarryError;
}

// Keyed by the array the partition node returns: the runtime hands that very array to the next node.
const handedOn = new WeakMap<Element[], HandedOn>();

/**
 * The elements a partition node returns for the chunks a partition process made for the next
 * node: the chunks themselves, marked so that the chunker takes them as they are (or, when the
 * chunker failed there, an empty list marked with its failure, for the chunker node to report).
 */
export function handOnPooledChunks(result: PooledChunks, chunking: PooledChunking): Element[] {
  if ('chunks' in result) {
    handedOn.set(result.chunks, { subtype: chunking.subtype });
    return result.chunks;
  }
  const empty: Element[] = [];
  handedOn.set(empty, { subtype: chunking.subtype, failure: pooledChunkingError(result.failure) });
  return empty;
}

/**
 * The chunks a partition process already made with this chunker's settings, when `elements` are
 * what the partition node handed on for it; undefined when the chunker must chunk them itself.
 * Throws the chunker's failure in that process.
 */
export function takePooledChunks(elements: Element[], subtype: string): Element[] | undefined {
  const entry = handedOn.get(elements);
  if (entry?.subtype !== subtype) return undefined;
  handedOn.delete(elements);
  if (entry.failure) throw entry.failure;
  return elements;
}
