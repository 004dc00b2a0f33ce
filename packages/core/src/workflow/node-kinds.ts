import type { ZodType } from 'zod';
import type { NodeType } from '../plugin/types.js';
import { CHUNK_SETTING_KEYS, CHUNK_SUBTYPES, chunkByCharacterSettings, chunkByPageSettings, chunkBySimilaritySettings, chunkByTitleSettings } from './chunk-settings.js';
import { EMBED_SETTING_KEYS, EMBED_SUBTYPES, embedSettings } from './embed-settings.js';
import { PARTITION_SETTING_KEYS, partitionUnstructuredApiSettings, partitionVlmSettings } from './partition-settings.js';
import { PROMPTER_SETTING_KEYS, nerSettings, prompterSettings, twopassTable2htmlSettings } from './prompter-settings.js';
import { PROVIDERS, normalizeProvider, type Provider } from './providers.js';

/** Partitioner subtypes: `vlm` (Auto, VLM) and `unstructured_api` (High Res, Fast). */
export const PARTITION_SUBTYPES = ['unstructured_api', 'vlm'] as const;

/** Prompter tasks and the providers each allows (SPEC.md enrichment table, self-service tier). */
export const PROMPTER_TASKS = {
  image_description: PROVIDERS,
  table_description: PROVIDERS,
  table2html: ['anthropic', 'openai'],
  ner: ['anthropic', 'openai'],
  ocr: ['anthropic', 'bedrock', 'openai'],
} as const satisfies Record<string, readonly Provider[]>;
/** A prompter task (the subtype suffix). */
export type PrompterTask = keyof typeof PROMPTER_TASKS;

/** The agentic table-to-HTML subtype, which takes no provider. */
export const TWOPASS_TABLE2HTML = 'twopass_table2html';

/** Every SPEC.md prompter subtype with real provider names, sorted. */
export const PROMPTER_SUBTYPES: readonly string[] = [
  ...Object.entries(PROMPTER_TASKS).flatMap(([task, providers]) => providers.map((p) => `${p}_${task}`)),
  TWOPASS_TABLE2HTML,
].sort();

/** Tasks whose output depends on images or tables found by the partitioner (SPEC.md enrichment conditions 1-5). */
export const IMAGE_TABLE_TASKS: ReadonlySet<string> = new Set(['image_description', 'table_description', 'table2html', TWOPASS_TABLE2HTML, 'ocr']);

/** A prompter subtype split into its provider word and task. */
export interface PrompterSubtype {
  task: PrompterTask | typeof TWOPASS_TABLE2HTML;
  /** The provider word as written (absent for twopass_table2html). */
  providerWord?: string;
  /** The real provider, when the word is a provider name or alias. */
  provider?: Provider;
}

/** Splits `<provider>_<task>`; undefined when the subtype ends in no known task. */
export function parsePrompterSubtype(subtype: string): PrompterSubtype | undefined {
  if (subtype === TWOPASS_TABLE2HTML) return { task: TWOPASS_TABLE2HTML };
  for (const task of Object.keys(PROMPTER_TASKS) as PrompterTask[]) {
    const suffix = `_${task}`;
    if (subtype.length > suffix.length && subtype.endsWith(suffix)) {
      const providerWord = subtype.slice(0, -suffix.length);
      const provider = normalizeProvider(providerWord);
      return provider ? { task, providerWord, provider } : { task, providerWord };
    }
  }
  return undefined;
}

/** Rewrites provider aliases in a prompter subtype (`provider_a_ner` -> `anthropic_ner`); other subtypes are returned as given. */
export function normalizeSubtype(type: string, subtype: string): string {
  if (type !== 'prompter') return subtype;
  const parsed = parsePrompterSubtype(subtype);
  return parsed?.provider && parsed.providerWord !== parsed.provider ? `${parsed.provider}_${parsed.task}` : subtype;
}

/** A node kind SPEC.md defines: its settings schema and setting names. */
export interface SpecNodeKind {
  type: NodeType;
  subtype: string;
  settings: ZodType;
  settingKeys: readonly string[];
}

function prompterKind(subtype: string): SpecNodeKind {
  const parsed = parsePrompterSubtype(subtype);
  if (parsed?.task === TWOPASS_TABLE2HTML) return { type: 'prompter', subtype, settings: twopassTable2htmlSettings, settingKeys: PROMPTER_SETTING_KEYS.twopass_table2html };
  if (parsed?.task === 'ner') return { type: 'prompter', subtype, settings: nerSettings, settingKeys: PROMPTER_SETTING_KEYS.ner };
  return { type: 'prompter', subtype, settings: prompterSettings, settingKeys: PROMPTER_SETTING_KEYS.prompter };
}

const CHUNK_SCHEMAS = {
  chunk_by_character: chunkByCharacterSettings,
  chunk_by_title: chunkByTitleSettings,
  chunk_by_page: chunkByPageSettings,
  chunk_by_similarity: chunkBySimilaritySettings,
} as const;

const KINDS: ReadonlyMap<string, SpecNodeKind> = new Map(
  [
    { type: 'partition', subtype: 'vlm', settings: partitionVlmSettings, settingKeys: PARTITION_SETTING_KEYS.vlm },
    { type: 'partition', subtype: 'unstructured_api', settings: partitionUnstructuredApiSettings, settingKeys: PARTITION_SETTING_KEYS.unstructured_api },
    ...PROMPTER_SUBTYPES.map(prompterKind),
    ...CHUNK_SUBTYPES.map((subtype) => ({ type: 'chunk', subtype, settings: CHUNK_SCHEMAS[subtype], settingKeys: CHUNK_SETTING_KEYS[subtype] })),
    ...EMBED_SUBTYPES.map((subtype) => ({ type: 'embed', subtype, settings: embedSettings, settingKeys: EMBED_SETTING_KEYS })),
  ].map((k) => [`${k.type}/${k.subtype}`, k as SpecNodeKind]),
);

/** SPEC.md subtypes of each node type (real provider names), sorted. */
export const SPEC_SUBTYPES: Readonly<Record<NodeType, readonly string[]>> = {
  partition: [...PARTITION_SUBTYPES],
  prompter: PROMPTER_SUBTYPES,
  chunk: [...CHUNK_SUBTYPES].sort(),
  embed: [...EMBED_SUBTYPES],
};

/** The SPEC.md node kind for a type and subtype (provider aliases accepted); undefined for other subtypes. */
export function specNodeKind(type: string, subtype: string): SpecNodeKind | undefined {
  return KINDS.get(`${type}/${normalizeSubtype(type, subtype)}`);
}

/**
 * The zod settings schema SPEC.md defines for a node kind, so node implementations can reuse it
 * (`defineNode({ type: 'chunk', subtype: 'chunk_by_title', settings: specSettingsSchema('chunk', 'chunk_by_title')!, ... })`).
 */
export function specSettingsSchema(type: string, subtype: string): ZodType | undefined {
  return specNodeKind(type, subtype)?.settings;
}
