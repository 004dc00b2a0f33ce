import { PROVIDERS, VLM_DEFAULT_MODEL, normalizeProvider, type Provider } from '../providers/models.js';
import type { ProviderName } from '../providers/types.js';

/** Prompter (enrichment) tasks and the providers each allows (the hosted platform's self-service tier). */
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

/** Every built-in prompter subtype with real provider names, sorted. */
export const PROMPTER_SUBTYPES: readonly string[] = [
  ...Object.entries(PROMPTER_TASKS).flatMap(([task, providers]) => providers.map((p) => `${p}_${task}`)),
  TWOPASS_TABLE2HTML,
].sort();

/** Tasks whose output depends on images or tables found by the partitioner (the platform's enrichment conditions 1-5). */
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

/**
 * The problem for a prompter subtype nothing registers: a task given a provider it does not allow
 * (`prompter.provider_not_allowed`), else `node.unknown_subtype` explaining the subtype's shape.
 */
export function prompterUnknownSubtype(
  subtype: string,
  registered: readonly string[],
): { code: 'prompter.provider_not_allowed' | 'node.unknown_subtype'; message: string } {
  const parsed = parsePrompterSubtype(subtype);
  if (parsed?.provider && parsed.task !== TWOPASS_TABLE2HTML) {
    const allowed = PROMPTER_TASKS[parsed.task];
    return {
      code: 'prompter.provider_not_allowed',
      message: `${parsed.task} supports the providers ${allowed.join(', ')}; ${parsed.provider} is not one of them (subtype ${JSON.stringify(subtype)}); use ${allowed.map((p) => `${p}_${parsed.task}`).join(' or ')}`,
    };
  }
  return {
    code: 'node.unknown_subtype',
    message: `unknown prompter subtype ${JSON.stringify(subtype)} (a prompter subtype is <provider>_<task>, or twopass_table2html); allowed: ${registered.join(', ')}`,
  };
}

/**
 * Provider and model of `twopass_table2html`, which takes no settings (the Unstructured workflow API): the default
 * provider (anthropic, provider_a) and the default model of the platform.
 */
export const TWOPASS_DEFAULT: { provider: ProviderName; model: string } = { provider: 'anthropic', model: VLM_DEFAULT_MODEL };
