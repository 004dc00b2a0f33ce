import { definePlugin, ENGINE_VERSION, type Element } from '@quarry/core';
import type { FormatPartitioner } from '@quarry/nodes';

/** vCard files: one NarrativeText per contact, "Name <email>". */
export const vcardPartitioner: FormatPartitioner = {
  partition(bytes) {
    const cards = new TextDecoder().decode(bytes).split(/^END:VCARD\s*$/m);
    return cards.flatMap((card, i): Element[] => {
      const name = /^FN:(.*)$/m.exec(card)?.[1]?.trim();
      const email = /^EMAIL[^:]*:(.*)$/m.exec(card)?.[1]?.trim();
      return name ? [{ element_id: `card-${i}`, type: 'NarrativeText', text: email ? `${name} <${email}>` : name, metadata: {} }] : [];
    });
  },
};

// The module is named by URL: partitioning child processes import it from there.
export const vcardPlugin = definePlugin({
  name: 'vcard',
  engine: `^${ENGINE_VERSION}`,
  formats: [{ name: 'vcard', mimeTypes: ['text/vcard'], extensions: ['.vcf'], module: import.meta.url, exportName: 'vcardPartitioner' }],
});
