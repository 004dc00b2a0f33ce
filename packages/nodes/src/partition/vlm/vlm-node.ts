import { defineNode, partitionVlmSettings, type Flow, type PartitionVlmSettings, type ProcessContext } from '@quarry/core';
import { providerPool } from '../../providers/pool.js';
import { partitionWithVlm } from './partition-vlm.js';

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
  settings: partitionVlmSettings,
  create: (settings, ctx) => {
    const pool = providerPool(ctx.services);
    return {
      async process(flow: Flow, pctx: ProcessContext) {
        const { document } = flow;
        const bytes = await document.read(pctx.signal);
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
