import { addCodedIssue, asRecord, defineNode, lazySchema, oneOf, strictSettings, zod, type Flow, type ProcessContext } from '@quarry/core';
import type { z } from 'zod';
import { PROVIDER_SPELLINGS, VLM_DEFAULT_MODELS, modelProviderMismatch, normalizeProvider, type Provider } from '../providers/models.js';
import { retiredModelProblems } from '../providers/model-rules.js';
import { providerPool } from '../providers/pool.js';
import { uniqueElementIds } from './unique-element-ids.js';

/** Output formats of the VLM/Auto partitioner. */
export const VLM_OUTPUT_FORMATS = ['text/html', 'application/json'] as const;

/**
 * Settings of the Auto (`is_dynamic: true`) and VLM (`is_dynamic: false`) partitioners,
 * `type: "partition", subtype: "vlm"`. Provider aliases provider_a..provider_d become real names.
 * Built on first use (zod loads with it).
 */
export const partitionVlmSettings = lazySchema(() => {
  const z = zod();
  const vlmProvider = z
    .enum([...PROVIDER_SPELLINGS, 'auto'], {
      error: (iss) =>
        `provider must be one of "anthropic", "bedrock", "openai", "vertexai", "auto" (or provider_a..provider_d); got ${JSON.stringify(iss.input)}`,
    })
    .transform((v): Provider | 'auto' => (v === 'auto' ? 'auto' : (normalizeProvider(v) as Provider)));

  const vlmShape = {
    provider: vlmProvider.default('anthropic').describe('anthropic | bedrock | openai | vertexai | auto (aliases provider_a..provider_d)'),
    provider_api_key: z.string().nullable().default(null).describe("null: the service's own key is used"),
    model: z
      .string()
      .min(1)
      .optional()
      .describe(
        'provider-specific model id; default claude-sonnet-4-20250514 (anthropic/auto), us.anthropic.claude-sonnet-4-20250514-v1:0 (bedrock), gpt-4o (openai), gemini-2.0-flash-001 (vertexai)',
      ),
    output_format: oneOf(VLM_OUTPUT_FORMATS, 'output_format').default('text/html'),
    format_html: z.boolean().default(true).describe('prettifies generated HTML'),
    unique_element_ids: uniqueElementIds(),
    is_dynamic: z
      .boolean({
        error: (iss) =>
          iss.input === undefined ? 'is_dynamic is required: true for Auto, false for VLM' : `is_dynamic must be a boolean; got ${JSON.stringify(iss.input)}`,
      })
      .describe('required: true for Auto (dynamic page routing), false for VLM'),
    allow_fast: z.boolean().optional().describe('allows routing pages to Fast; Auto: required and true; VLM: default true'),
  };

  return strictSettings('partition/vlm', vlmShape)
    .superRefine(
      (raw, ctx) => {
        const v = asRecord(raw);
        if (v.is_dynamic === true && v.allow_fast !== true) {
          addCodedIssue(
            ctx,
            'partition.auto_requires_allow_fast',
            ['allow_fast'],
            v.allow_fast === undefined
              ? 'Auto partitioning (is_dynamic: true) requires allow_fast: true to be given explicitly'
              : 'Auto partitioning (is_dynamic: true) requires allow_fast: true; for VLM-only partitioning set is_dynamic: false',
          );
        }
        const provider = normalizeProvider(v.provider);
        if (provider && typeof v.model === 'string') {
          const mismatch = modelProviderMismatch(provider, v.model);
          if (mismatch) addCodedIssue(ctx, 'model.provider_mismatch', ['model'], mismatch);
        }
      },
      { when: () => true },
    )
    .transform((v) => ({ ...v, model: v.model ?? VLM_DEFAULT_MODELS[v.provider], allow_fast: v.allow_fast ?? true }));
});
/** Parsed Auto/VLM partitioner settings (defaults applied, provider normalized). */
export type PartitionVlmSettings = z.output<ReturnType<typeof partitionVlmSettings>>;
/** Auto/VLM partitioner settings as written. */
export type PartitionVlmSettingsInput = z.input<ReturnType<typeof partitionVlmSettings>>;

/**
 * The Auto (`is_dynamic: true`) and VLM (`is_dynamic: false`) partitioners
 * (`type: "partition", subtype: "vlm"`): PDF pages routed to Fast, High Res or a vision model,
 * images read by the vision model, other formats partitioned with High Res. Provider clients and
 * rate budgets come from the job's provider pool; the key is `provider_api_key` or else the
 * provider's environment variable, and is never logged.
 */
export const vlmPartitionNode = defineNode<PartitionVlmSettings>({
  type: 'partition',
  subtype: 'vlm',
  description: 'Auto (per-page Fast / High Res / VLM routing) and VLM (vision model) partitioning',
  get settings() {
    return partitionVlmSettings();
  },
  check: (self, { now }) => retiredModelProblems(self, now),
  create: (settings, ctx) => {
    const pool = providerPool(ctx.services);
    return {
      async process(flow: Flow, pctx: ProcessContext) {
        const { document } = flow;
        const bytes = await document.read(pctx.signal);
        // The page router, renderers and decoders load with the first document, not with the plugin.
        const { partitionWithVlm } = await import('./vlm/partition-vlm.js');
        return partitionWithVlm(bytes, {
          filename: document.filename,
          ...(document.file_directory ? { file_directory: document.file_directory } : {}),
          ...(document.filetype ? { filetype: document.filetype } : {}),
          ...(document.last_modified ? { last_modified: document.last_modified } : {}),
          data_source: document.data_source,
          provider: settings.provider,
          provider_api_key: settings.provider_api_key,
          model: settings.model,
          output_format: settings.output_format,
          format_html: settings.format_html,
          unique_element_ids: settings.unique_element_ids,
          is_dynamic: settings.is_dynamic,
          allow_fast: settings.allow_fast,
          signal: pctx.signal,
          logger: pctx.logger,
          pool,
        });
      },
    };
  },
});
