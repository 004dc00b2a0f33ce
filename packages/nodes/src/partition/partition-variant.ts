/** The four partitioner variants: Auto and VLM (`vlm`), High Res and Fast (`unstructured_api`). */
export type PartitionVariant = 'auto' | 'vlm' | 'hi_res' | 'fast';

/** Which partitioner variant a node is; undefined when it is no built-in partitioner or the deciding setting is invalid. */
export function partitionVariant(node: { type?: string; subtype?: string; settings?: Record<string, unknown> | null }): PartitionVariant | undefined {
  if (node.type !== 'partition') return undefined;
  const s = node.settings ?? {};
  if (node.subtype === 'vlm') return s.is_dynamic === true ? 'auto' : s.is_dynamic === false ? 'vlm' : undefined;
  if (node.subtype === 'unstructured_api') return s.strategy === 'hi_res' ? 'hi_res' : s.strategy === 'fast' ? 'fast' : undefined;
  return undefined;
}
