import type { Element, ElementMetadata, EnrichmentOrigin } from '@quarry/core';
import type { PlanFacts } from './plan-facts.js';
import type { PrompterLlm } from './prompter-llm.js';

/** What one enrichment call produced for one element. */
export interface EnrichmentResult {
  /** New element text (image, table description and generative OCR write the text). */
  text?: string;
  /** Metadata fields to set (`text_as_html`, `entities`). */
  metadata?: Partial<ElementMetadata>;
}

/** Everything a task needs to enrich one element. */
export interface EnrichmentCall<S> {
  llm: PrompterLlm;
  settings: S;
  signal: AbortSignal;
}

/**
 * One enrichment task (`image_description`, `ner`, ...): which elements it reads and how it turns
 * one of them into an {@link EnrichmentResult}. The node runner calls `enrich` once per selected
 * element, several at a time, and records the origin of every field written.
 */
export interface EnrichmentTask<S> {
  /** Subtype suffix and the `type` of the recorded origin. */
  task: string;
  /**
   * True for the tasks the Unstructured workflow API's conditions 1-5 tie to images and tables: they produce nothing after
   * a Fast partitioner.
   */
  imagesOrTables: boolean;
  /** The element filter for this plan. */
  selector(plan: PlanFacts, settings: S): (el: Element) => boolean;
  enrich(el: Element, call: EnrichmentCall<S>): Promise<EnrichmentResult | undefined>;
}

/** Adds `origin` to `metadata.enrichment_origins[field]` once (a field written twice keeps both writers, in order). */
export function withOrigin(metadata: ElementMetadata, fields: readonly string[], origin: EnrichmentOrigin): ElementMetadata {
  const origins: Record<string, EnrichmentOrigin[]> = { ...(metadata.enrichment_origins ?? {}) };
  for (const field of fields) {
    const list = [...(origins[field] ?? [])];
    if (!list.some((o) => o.type === origin.type && o.provider === origin.provider && o.model === origin.model)) list.push(origin);
    origins[field] = list;
  }
  return { ...metadata, enrichment_origins: origins };
}

/** The element with `result` applied and its origins recorded; the element id is kept. */
export function applyEnrichment(el: Element, result: EnrichmentResult, origin: EnrichmentOrigin): Element {
  const fields = [...(result.text === undefined ? [] : ['text']), ...Object.keys(result.metadata ?? {})];
  if (fields.length === 0) return el;
  const metadata = withOrigin({ ...el.metadata, ...result.metadata }, fields, origin);
  return { ...el, ...(result.text === undefined ? {} : { text: result.text }), metadata };
}
