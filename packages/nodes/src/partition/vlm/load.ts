import type { Element } from '@quarry/core';
import type { VlmPartitionRequest } from './partition-vlm.js';

/**
 * Partitions one document with the Auto or VLM partitioner (a vision model reads the pages that
 * need it): `partitionWithVlm` of `partition-vlm.ts`, whose page router, renderers and image
 * decoders load on the first call rather than with the package. Fails with the provider layer's
 * codes naming the file and page, `VLM_RESPONSE_INVALID`, and the partitioner's own codes.
 */
export async function partitionWithVlm(bytes: Uint8Array, request: VlmPartitionRequest): Promise<Element[]> {
  const vlm = await import('./partition-vlm.js');
  return vlm.partitionWithVlm(bytes, request);
}
