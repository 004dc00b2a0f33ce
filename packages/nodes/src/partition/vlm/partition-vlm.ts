/**
 * The Auto and VLM partitioners' document flow.
 *
 * - **PDF**: every page is measured and routed (see `auto-router.ts`); pages routed to VLM are
 *   rendered to PNG and read by the vision model (a few pages in flight at once, under the key's
 *   shared rate budget); pages routed to Fast or High Res are read by the PDF partitioner with that
 *   strategy. Elements come back in page order, each with `metadata.routing` and `routing_score`.
 * - **Images** (PNG, JPEG, TIFF, GIF, WebP, BMP): each image (each TIFF page) goes to the vision
 *   model directly; route `vlm`.
 * - **Everything else** (DOCX, HTML, XLSX, e-mail, ...): partitioned by `partitionFile` with the
 *   hi_res strategy, route `hi_res`. These formats have no page rendering here, and their structure
 *   is already explicit in the file, so a vision model would add cost and no information.
 *
 * Metadata is finished like `partitionFile` does it (filename, file_directory, filetype,
 * last_modified, data_source, languages, parent_id, final ids).
 */
import type { DataSourceMetadata, Element, Logger } from '@quarry/core';
import { assignElementIds } from '@quarry/core/element';
import { quarryError, QuarryError } from '@quarry/core/errors';
import { silentLogger } from '@quarry/core/logger';
import { modelProvider, type Provider as ProviderKind } from '../../providers/models.js';
import { createProvider } from '../../providers/create-provider.js';
import type { ProviderOptions } from '../../providers/config.js';
import type { ProviderPool } from '../../providers/pool.js';
import type { Provider } from '../../providers/types.js';
import { canonicalMimeType, detectFileType } from '../detect-filetype.js';
import { setElementHierarchy } from '../element-hierarchy.js';
import { toQuarryError } from '../formats/pdf/index.js';
import { findPageImages } from '../formats/pdf/pdfjs/images.js';
import type { Box } from '../formats/pdf/layout-types.js';
import { loadPdfjs, withPdf } from '../formats/pdf/pdfjs/load.js';
import { layoutPageText, readPageText } from '../formats/pdf/page-layout.js';
import { findTables } from '../formats/pdf/tables.js';
import { fileBaseName, stampFileMetadata } from '../file-metadata.js';
import { partitionLimits } from '../limits.js';
import { shiftPageNumbers, validStartingPageNumber } from '../page-numbers.js';
import { partitionFile, type PartitionFileRequest } from '../partition-file.js';
import { pageFeatures, routePage, type PageRoute, type RouteDecision } from './auto-router.js';
import { imageFileParts, renderPagePng } from './page-image.js';
import { readPageWithVlm } from './vlm-page.js';
import type { VlmOutputFormat } from './vlm-prompt.js';

/** Pages whose model calls run at once per document (the key's rate budget still applies). */
export const DEFAULT_PAGE_CONCURRENCY = 4;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/gif', 'image/webp', 'image/bmp']);

/** What to partition and how. */
export interface VlmPartitionRequest {
  filename: string;
  file_directory?: string;
  filetype?: string;
  last_modified?: string;
  data_source?: DataSourceMetadata;
  /** A provider name; `auto` picks the provider the model id belongs to (anthropic when unknown). */
  provider: ProviderKind | 'auto';
  /** null or absent: the provider's key from the environment. */
  provider_api_key?: string | null;
  /** The provider's API endpoint (an OpenAI-compatible base URL, say); absent: the SDK's default or the environment's. */
  provider_base_url?: string;
  model: string;
  output_format: VlmOutputFormat;
  format_html: boolean;
  unique_element_ids: boolean;
  /** Page number of the document's first page (default 1), applied before ids are hashed. */
  starting_page_number?: number;
  /** true: Auto; false: VLM. */
  is_dynamic: boolean;
  allow_fast: boolean;
  signal?: AbortSignal;
  logger?: Logger;
  /** The job's provider pool (shared rate budgets and clients). */
  pool?: ProviderPool;
  /** Environment to read keys and endpoints from instead of `process.env`. */
  env?: Record<string, string | undefined>;
  /** Pages read by the model at once (default {@link DEFAULT_PAGE_CONCURRENCY}). */
  page_concurrency?: number;
}

/** The provider a request names; `auto` follows the model id. */
export function vlmProviderName(provider: ProviderKind | 'auto', model: string): ProviderKind {
  return provider === 'auto' ? (modelProvider(model) ?? 'anthropic') : provider;
}

/**
 * The provider client. `provider_api_key` is the API key of anthropic, openai and vertexai; for
 * bedrock, which signs requests with AWS credentials, it is `ACCESS_KEY_ID:SECRET_ACCESS_KEY`
 * (optionally `:SESSION_TOKEN`).
 */
export function vlmProvider(
  request: Pick<VlmPartitionRequest, 'provider' | 'provider_api_key' | 'provider_base_url' | 'model' | 'pool' | 'env' | 'logger'>,
): Provider {
  const name = vlmProviderName(request.provider, request.model);
  const key = request.provider_api_key ?? undefined;
  const opts: ProviderOptions = {
    ...(request.provider_base_url ? { baseURL: request.provider_base_url } : {}),
    ...(request.pool ? { pool: request.pool } : {}),
    ...(request.env ? { env: request.env } : {}),
    ...(request.logger ? { logger: request.logger } : {}),
  };
  if (key && name === 'bedrock') {
    const [accessKeyId, secretAccessKey, sessionToken] = key.split(':');
    if (!accessKeyId || !secretAccessKey) {
      throw new QuarryError('PROVIDER_NOT_CONFIGURED', 'bedrock: provider_api_key must be ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]', {
        details: { provider: 'bedrock' },
      });
    }
    return createProvider('bedrock', { ...opts, accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) });
  }
  return createProvider(name, { ...opts, ...(key ? { apiKey: key } : {}) });
}

/**
 * Partitions one document with the Auto (`is_dynamic: true`) or VLM (`is_dynamic: false`)
 * partitioner; see the module comment.
 *
 * Errors: the provider layer's codes (PROVIDER_AUTH, PROVIDER_RATE_LIMITED, PROVIDER_UNAVAILABLE,
 * PROVIDER_TIMEOUT, PROVIDER_BAD_REQUEST, PROVIDER_NOT_CONFIGURED, PROVIDER_ERROR) naming the file
 * and page, VLM_RESPONSE_INVALID for a JSON answer that is not element JSON, and partitionFile's
 * FILE_EMPTY, FILE_UNREADABLE, PDF_PASSWORD_REQUIRED, FILETYPE_UNSUPPORTED, JOB_ABORTED.
 */
export async function partitionWithVlm(bytes: Uint8Array, request: VlmPartitionRequest): Promise<Element[]> {
  if (Buffer.isBuffer(bytes)) bytes = new Uint8Array(bytes);
  const filename = fileBaseName(request.filename);
  const signal = request.signal ?? new AbortController().signal;
  const start = validStartingPageNumber(request.starting_page_number);
  assertNotEmpty(bytes, filename);
  const mime = request.filetype ? canonicalMimeType(request.filetype) : (await detectFileType(bytes, filename)).mime;
  let elements: Element[];
  if (mime === 'application/pdf') elements = await partitionPdf(bytes, request, filename, signal);
  else if (IMAGE_TYPES.has(mime)) elements = await partitionImage(bytes, request, filename, signal);
  else elements = routed(await partitionFile(bytes, fileRequest(request, signal, 'hi_res')), { route: 'hi_res', score: 1 });
  for (const el of elements) el.metadata.filetype ??= mime;
  for (const el of elements) delete el.metadata.parent_id;
  setElementHierarchy(elements);
  shiftPageNumbers(elements, start);
  return assignElementIds(elements, { unique: request.unique_element_ids });
}

function fileRequest(request: VlmPartitionRequest, signal: AbortSignal, strategy: 'fast' | 'hi_res'): PartitionFileRequest {
  return {
    filename: request.filename,
    ...(request.file_directory ? { file_directory: request.file_directory } : {}),
    ...(request.filetype ? { filetype: request.filetype } : {}),
    ...(request.last_modified ? { last_modified: request.last_modified } : {}),
    ...(request.data_source ? { data_source: request.data_source } : {}),
    strategy,
    unique_element_ids: true,
    signal,
    logger: request.logger ?? silentLogger,
  };
}

function routed(elements: Element[], decision: { route: PageRoute; score: number }): Element[] {
  for (const el of elements) {
    el.metadata.routing = decision.route;
    el.metadata.routing_score = decision.score;
  }
  return elements;
}

// Gives elements the model produced what partitionFile gives its own.
function finishVlmElements(elements: Element[], request: VlmPartitionRequest, filename: string): Element[] {
  return stampFileMetadata(elements, {
    filename,
    path: request.filename,
    ...(request.file_directory ? { file_directory: request.file_directory } : {}),
    ...(request.last_modified ? { last_modified: request.last_modified } : {}),
    ...(request.data_source ? { data_source: request.data_source } : {}),
  });
}

async function partitionImage(bytes: Uint8Array, request: VlmPartitionRequest, filename: string, signal: AbortSignal): Promise<Element[]> {
  const parts = await imageFileParts(bytes, filename);
  const provider = vlmProvider(request);
  const out: Element[] = [];
  for (let i = 0; i < parts.length; i++) {
    const els = await readPageWithVlm(parts[i]!, {
      provider,
      model: request.model,
      outputFormat: request.output_format,
      formatHtml: request.format_html,
      pageNumber: i + 1,
      filename,
      signal,
    });
    out.push(...routed(els, { route: 'vlm', score: 1 }));
  }
  return finishVlmElements(out, request, filename);
}

async function partitionPdf(bytes: Uint8Array, request: VlmPartitionRequest, filename: string, signal: AbortSignal): Promise<Element[]> {
  const logger = request.logger ?? silentLogger;
  const decisions: RouteDecision[] = [];
  const vlmPages = new Map<number, Element[]>();
  const limit = Math.max(1, request.page_concurrency ?? DEFAULT_PAGE_CONCURRENCY);
  let provider: Provider | undefined;
  try {
    const pdfjs = await loadPdfjs();
    await withPdf(bytes, { signal, maxPages: partitionLimits().maxPdfPages }, async (doc) => {
      const inFlight = new Set<Promise<void>>();
      try {
        for (let p = 1; p <= doc.numPages; p++) {
          signal.throwIfAborted();
          const page = await doc.getPage(p);
          const text = await readPageText(page);
          const images = await findPageImages(page, pdfjs).catch((e: unknown) => {
            logger.debug('vlm: images of a page could not be listed', { page: p, reason: e instanceof Error ? e.message : String(e) });
            return [] as Box[];
          });
          const tables = layoutPageText(p, text, { findTables, classify: false }).blocks.filter((b) => b.kind === 'table').length;
          const decision = routePage(pageFeatures(p, text, images, tables), { dynamic: request.is_dynamic, allowFast: request.allow_fast });
          decisions.push(decision);
          logger.debug('vlm: page routed', { page: p, route: decision.route, score: decision.score, reason: decision.reason });
          if (decision.route !== 'vlm') {
            page.cleanup();
            continue;
          }
          provider ??= vlmProvider(request);
          const model = provider;
          while (inFlight.size >= limit) await Promise.race(inFlight);
          const png = await renderPagePng(page, signal);
          page.cleanup();
          const job = readPageWithVlm(png, {
            provider: model,
            model: request.model,
            outputFormat: request.output_format,
            formatHtml: request.format_html,
            pageNumber: p,
            filename,
            signal,
          }).then((els) => {
            vlmPages.set(p, els);
          });
          const tracked: Promise<void> = job.finally(() => inFlight.delete(tracked));
          // Seen by the awaits below; handled here so it is not unhandled while later pages are read.
          tracked.catch(() => undefined);
          inFlight.add(tracked);
        }
        await Promise.all(inFlight);
      } finally {
        await Promise.allSettled(inFlight);
      }
    });
  } catch (e) {
    throw toQuarryError(e, filename);
  }

  const byStrategy = async (strategy: 'fast' | 'hi_res'): Promise<Map<number, Element[]>> => {
    const pages = new Map<number, Element[]>();
    const wanted = new Set(decisions.flatMap((d, i) => (d.route === strategy ? [i + 1] : [])));
    if (wanted.size === 0) return pages;
    // hi_res reads only its own pages: the scanned pages the VLM reads are not OCR'd as well.
    const only = strategy === 'hi_res' ? { pages: wanted } : {};
    for (const el of await partitionFile(bytes, { ...fileRequest({ ...request, filetype: 'application/pdf' }, signal, strategy), ...only })) {
      const p = el.metadata.page_number;
      if (p === undefined || decisions[p - 1]?.route !== strategy) continue;
      const list = pages.get(p) ?? [];
      list.push(el);
      pages.set(p, list);
    }
    return pages;
  };
  const fast = await byStrategy('fast');
  const hiRes = await byStrategy('hi_res');
  for (const els of vlmPages.values()) finishVlmElements(els, request, filename);

  const out: Element[] = [];
  decisions.forEach((d, i) => {
    const p = i + 1;
    const els = (d.route === 'vlm' ? vlmPages : d.route === 'fast' ? fast : hiRes).get(p) ?? [];
    out.push(...routed(els, d));
  });
  return out;
}

// A MIME type given by the source skips detection, which is where emptiness is otherwise caught.
function assertNotEmpty(bytes: Uint8Array, filename: string): void {
  if (bytes.length === 0) throw quarryError('FILE_EMPTY', `${filename} is empty`, { details: { filename } });
}
