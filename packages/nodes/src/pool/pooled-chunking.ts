import type { Element } from '@quarry/core';
import { QuarryError } from '@quarry/core/errors';
import type { ChunkingOptions } from '../chunk/options.js';

/** The chunkers a partition process can run right after partitioning: those that call no model. */
export const POOLED_CHUNKER_SUBTYPES = ['chunk_by_title', 'chunk_by_character', 'chunk_by_page'] as const;

/** The node subtype of a chunker that runs in a partition process. */
export type PooledChunkerSubtype = (typeof POOLED_CHUNKER_SUBTYPES)[number];

/** How a partition process chunks the elements it made: the chunker node's subtype and its resolved options. */
export interface PooledChunking {
  subtype: PooledChunkerSubtype;
  options: ChunkingOptions;
}

/** A chunker's failure in a partition process, as plain data: its code, message and details. */
export interface PooledChunkingFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** What {@link PartitionPool.partitionAndChunk} resolves with: the chunks, or the chunker's failure. */
export type PooledChunks = { chunks: Element[] } | { failure: PooledChunkingFailure };

/** The chunker's failure in a partition process as the coded error it was there. */
export function pooledChunkingError(failure: PooledChunkingFailure): QuarryError {
  return QuarryError.from(failure.code, failure.message, failure.details ? { details: failure.details } : {});
}
