import { defineNode, definePlugin, ENGINE_VERSION, nodeLabel, nodePath } from '@quarry/core';
import { partitionVariant } from '@quarry/nodes';
import { z } from 'zod';

/** `redact`: blanks listed words in every element. One file holds its schema, its rule and its code. */
export const redactNode = defineNode({
  type: 'prompter',
  subtype: 'redact',
  settings: z.strictObject({ words: z.array(z.string().min(1)).min(1), mask: z.string().default('███') }),
  // Its own rule, run by workflow validation: VLM output is HTML, which plain-text redaction would break.
  check: (self, { nodes }) => {
    const partition = nodes.find((n) => n.type === 'partition');
    if (!partition || partitionVariant(partition) !== 'vlm') return [];
    return [{ code: 'enrichment.not_allowed_with_vlm', path: nodePath(self), message: `${nodeLabel(self)} cannot redact the HTML of a VLM partitioner` }];
  },
  create: ({ words, mask }) => ({
    process: ({ elements }) => elements.map((e) => ({ ...e, text: words.reduce((text, w) => text.replaceAll(w, mask), e.text) })),
  }),
});

export const redactPlugin = definePlugin({ name: 'redact', engine: `^${ENGINE_VERSION}`, nodes: [redactNode] });
