import { quarryError, type Element, type FormatDefinition } from '@quarry/core';
import type { FormatPartitioner } from '../../src/partition/types.js';
import { BUILTIN_FORMATS } from '../../src/partition/formats/index.js';

/** Throws a plain TypeError, as a parser's bug would. */
export const crashPartitioner: FormatPartitioner = {
  partition: () => {
    throw new TypeError("Cannot read properties of undefined (reading 'length')");
  },
};

/** Throws its own coded error. */
export const ownErrorPartitioner: FormatPartitioner = {
  partition: async () => {
    throw quarryError('FILE_UNREADABLE', 'encrypted PDF');
  },
};

/** A container whose body holds one embedded text file. */
export const containerPartitioner: FormatPartitioner = {
  partition: async (_bytes, options) => {
    const body: Element = { element_id: 'body', type: 'NarrativeText', text: 'The container body says hello to everyone.', metadata: {} };
    const inner = await options.partitionEmbedded(new TextEncoder().encode('Attachment Title\n\nThe attached note explains the plan in detail.\n'), 'note.txt');
    return [body, ...inner];
  },
};

/** Says which format partitioned a file: one NarrativeText naming `name`. */
export const namingPartitioner = (name: string): FormatPartitioner => ({
  partition: () => [{ element_id: 'x', type: 'NarrativeText', text: `partitioned by ${name}`, metadata: {} }],
});

/** An HTML partitioner that only says it ran, to show a plugin format winning over a built-in. */
export const myHtmlPartitioner = namingPartitioner('my-html');

/** A format of this module, ahead of the built-in ones. */
export function testFormat(name: string, mimeTypes: string[], exportName: string, extensions: string[] = []): FormatDefinition {
  return { name, mimeTypes, extensions, module: import.meta.url, exportName };
}

/** `formats` followed by the built-in ones, as an engine lists a plugin's formats. */
export function withBuiltins(...formats: FormatDefinition[]): FormatDefinition[] {
  return [...formats, ...BUILTIN_FORMATS];
}
