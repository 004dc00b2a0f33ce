import { lazySchema, zod } from '@quarry/core';
import type { z, ZodType } from 'zod';
import { prompterNode } from './prompter-node.js';
import { prompterProblems } from './prompter-rules.js';
import { TWOPASS_DEFAULT } from './prompter-tasks.js';

/** Settings of `twopass_table2html`: none; `provider_type` and `model` must not be given. */
export const twopassTable2htmlSettings = lazySchema(() =>
  zod().strictObject(
    {},
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `twopass_table2html takes no settings (no provider_type or model: the agentic node chooses its own); got ${iss.keys.join(', ')}`
          : iss.code === 'invalid_type'
            ? 'twopass_table2html settings must be an object'
            : undefined,
    },
  ),
);
/** Parsed `twopass_table2html` settings (always empty). */
export type TwopassTable2htmlSettings = z.output<ReturnType<typeof twopassTable2htmlSettings>>;

/** `twopass_table2html`: no settings; the default provider and model ({@link TWOPASS_DEFAULT}). */
export const twopassTable2htmlNode = prompterNode<TwopassTable2htmlSettings>(
  'twopass_table2html',
  {
    description: 'writes metadata.text_as_html of each Table element in two passes: extract, then verify',
    load: async () => (await import('./twopass-table2html.js')).twopassTable2htmlTask,
  },
  twopassTable2htmlSettings as unknown as () => ZodType<TwopassTable2htmlSettings>,
  () => TWOPASS_DEFAULT,
  {
    check: prompterProblems,
    unknownSetting: (key) =>
      key === 'provider_type' || key === 'model'
        ? {
            code: 'prompter.twopass_settings_not_allowed',
            message: `twopass_table2html takes no ${key}: the agentic table-to-HTML node chooses its own provider and model`,
          }
        : undefined,
  },
);
