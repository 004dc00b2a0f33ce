import { PROMPTER_TASKS, nerSettings, prompterSettings, twopassTable2htmlSettings, type NerSettings, type NodeDefinition, type PrompterSettings, type PrompterTask, type TwopassTable2htmlSettings } from '@quarry/core';
import type { ZodType } from 'zod';
import type { EnrichmentTask } from './enrichment-task.js';
import { imageDescriptionTask } from './image-description.js';
import { nerTask } from './ner.js';
import { ocrTask } from './ocr.js';
import { prompterNode } from './prompter-node.js';
import { table2htmlTask } from './table2html.js';
import { tableDescriptionTask } from './table-description.js';
import { TWOPASS_DEFAULT, twopassTable2htmlTask } from './twopass-table2html.js';

const TASKS: { [T in PrompterTask]: EnrichmentTask<T extends 'ner' ? NerSettings : PrompterSettings> } = {
  image_description: imageDescriptionTask,
  table_description: tableDescriptionTask,
  table2html: table2htmlTask,
  ner: nerTask,
  ocr: ocrTask,
};

const bindSettings = (s: PrompterSettings): { provider: PrompterSettings['provider_type']; model: string } => ({ provider: s.provider_type, model: s.model });

/**
 * The `<provider>_<task>` nodes of one task, one per provider SPEC.md allows for it
 * (`anthropic_image_description`, `openai_ner`, ...). Settings are core's schemas: `provider_type`
 * (aliases provider_a..provider_d accepted) and `model`, plus the prompt override for NER.
 */
function taskNodes(task: PrompterTask): Array<NodeDefinition<PrompterSettings> | NodeDefinition<NerSettings>> {
  return PROMPTER_TASKS[task].map((provider) => {
    const subtype = `${provider}_${task}`;
    if (task === 'ner') return prompterNode<NerSettings>(subtype, nerTask, nerSettings as unknown as ZodType<NerSettings>, bindSettings);
    return prompterNode<PrompterSettings>(subtype, TASKS[task] as EnrichmentTask<PrompterSettings>, prompterSettings as unknown as ZodType<PrompterSettings>, bindSettings);
  });
}

/** `twopass_table2html`: no settings; the default provider and model ({@link TWOPASS_DEFAULT}). */
export const twopassTable2htmlNode: NodeDefinition<TwopassTable2htmlSettings> = prompterNode<TwopassTable2htmlSettings>(
  'twopass_table2html',
  twopassTable2htmlTask,
  twopassTable2htmlSettings as unknown as ZodType<TwopassTable2htmlSettings>,
  () => TWOPASS_DEFAULT,
);

/** Image description nodes: anthropic, bedrock, openai, vertexai. */
export const IMAGE_DESCRIPTION_NODES = taskNodes('image_description');
/** Table description nodes: anthropic, bedrock, openai, vertexai. */
export const TABLE_DESCRIPTION_NODES = taskNodes('table_description');
/** Table-to-HTML nodes: anthropic, openai. */
export const TABLE2HTML_NODES = taskNodes('table2html');
/** NER nodes: anthropic, openai. */
export const NER_NODES = taskNodes('ner');
/** Generative OCR nodes: anthropic, bedrock, openai. */
export const OCR_NODES = taskNodes('ocr');

/** Every enrichment (`prompter`) node of SPEC.md: the `<provider>_<task>` subtypes and `twopass_table2html`. */
export const PROMPTER_NODES: ReadonlyArray<NodeDefinition<PrompterSettings> | NodeDefinition<NerSettings> | NodeDefinition<TwopassTable2htmlSettings>> = [
  ...IMAGE_DESCRIPTION_NODES,
  ...TABLE_DESCRIPTION_NODES,
  ...TABLE2HTML_NODES,
  twopassTable2htmlNode,
  ...NER_NODES,
  ...OCR_NODES,
];
