import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AdmissionGate } from '../admission.js';
import type { Element } from '@quarry/core';
import { pooledChunkingError, type PartitionFileRequest, type PartitionPool, type PartitionStrategy, type PooledChunking } from '@quarry/nodes';
import { readMultipart, type UploadedFile } from '../multipart.js';
import { answerElement, answerJson, type PartitionedUpload } from '../legacy/answer-json.js';
import { chunkElements, LEGACY_CHUNKING_STRATEGIES, pooledChunking } from '../legacy/chunk-elements.js';
import { elementsToCsv } from '../legacy/csv.js';
import { parseLegacyForm, type LegacyForm } from '../legacy/form-params.js';
import { inflateUpload } from '../legacy/inflate-upload.js';
import type { LegacyTools } from '../legacy/legacy-tools.js';
import { LegacyError, legacyPartitionError } from '../legacy/partition-errors.js';
import type { RouteContext } from '../route-context.js';
import { requestWork } from '../legacy/request-work.js';

/** Strategies the legacy endpoint accepts: those of the open-source `unstructured`, plus the hosted API's `vlm` (when configured). */
export const LEGACY_STRATEGIES = ['fast', 'hi_res', 'auto', 'ocr_only', 'vlm'] as const;
const OUTPUT_FORMATS = ['application/json', 'text/csv'];

/** Where the legacy endpoint partitions, how large an (inflated) upload may be, and the gate of its queue. */
export interface LegacyLimits {
  pool: PartitionPool;
  maxFileBytes: number;
  admission: AdmissionGate;
  /** A request still waiting or partitioning this long after it arrived is abandoned, its documents aborted (0: no limit). */
  deadlineMs: number;
}

// A plain Uint8Array view: some format parsers (pdf.js) refuse Node Buffers.
async function readBytes(file: string): Promise<Uint8Array> {
  const b = await readFile(file);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The Unstructured API's Python list repr, used in its messages: `['fast', 'hi_res']`. */
const pyList = (values: readonly string[]): string => `[${values.map((v) => `'${v}'`).join(', ')}]`;

async function partitionUpload(
  file: UploadedFile,
  form: LegacyForm,
  tools: LegacyTools,
  limits: LegacyLimits,
  signal: AbortSignal,
): Promise<PartitionedUpload> {
  // The document stays on disk: the partition process reads it from its staged file.
  let staged = file.path;
  let filename = file.filename;
  let filetype = form.content_type;
  if (file.mimetype === 'application/gzip' || filename.endsWith('.gz')) {
    staged = `${file.path}.inflated`;
    try {
      await inflateUpload(file.path, staged, filename, limits.maxFileBytes);
    } catch (e) {
      throw (await legacyPartitionError(e, { filename, path: file.path })) ?? e;
    }
    filename = filename.replace(/\.gz$/, '');
    filetype = form.gz_uncompressed_content_type ?? filetype;
  }
  const strategy = (form.strategy ?? 'auto').toLowerCase() as PartitionStrategy;
  const skipPdf = (form.skip_infer_table_types ?? []).includes('pdf');
  const languages = form.languages;
  // Chunked by the partition process, but for the VLM strategy and by_similarity (they call models from here).
  let chunking: PooledChunking | undefined;
  try {
    chunking = strategy === 'vlm' ? undefined : pooledChunking(form);
  } catch (e) {
    throw (await legacyPartitionError(e, { filename, path: staged })) ?? e;
  }
  let elements: Element[];
  try {
    const request: PartitionFileRequest = {
      filename,
      ...(filetype ? { filetype } : {}),
      strategy,
      encoding: form.encoding ?? 'utf-8',
      include_page_breaks: form.include_page_breaks ?? false,
      pdf_infer_table_structure: (strategy === 'hi_res' || strategy === 'auto') && (form.pdf_infer_table_structure ?? false) && !skipPdf,
      xml_keep_tags: form.xml_keep_tags ?? false,
      ocr_languages: form.ocr_languages ?? languages ?? ['eng'],
      ...(languages ? { languages } : {}),
      extract_image_block_types: form.extract_image_block_types ?? [],
      coordinates: form.coordinates ?? false,
      unique_element_ids: form.unique_element_ids ?? false,
      // Page numbers come out final, so split-PDF calls hash the ids of the whole document.
      ...(form.starting_page_number === undefined ? {} : { starting_page_number: form.starting_page_number }),
    };
    if (strategy === 'vlm') elements = await tools.partitionVlm(await readBytes(staged), request, form);
    else if (!chunking) elements = await limits.pool.partition({ path: staged }, request, { signal });
    else {
      const chunked = await limits.pool.partitionAndChunk({ path: staged }, request, chunking, { signal });
      if ('failure' in chunked) throw pooledChunkingError(chunked.failure);
      elements = chunked.chunks;
    }
  } catch (e) {
    throw (await legacyPartitionError(e, { filename, ...(filetype ? { filetype } : {}), path: staged })) ?? e;
  }
  if (form.chunking_strategy && !chunking) {
    try {
      elements = await chunkElements(elements, form, tools.embed, signal);
    } catch (e) {
      throw (await legacyPartitionError(e, { filename, path: staged })) ?? e;
    }
  }
  return { elements, filename, coordinates: form.coordinates ?? false };
}

async function handle(
  files: UploadedFile[],
  fields: ReadonlyMap<string, readonly string[]>,
  reply: FastifyReply,
  tools: LegacyTools,
  limits: LegacyLimits,
  signal: AbortSignal,
): Promise<FastifyReply> {
  const { form, problems } = parseLegacyForm(fields);
  if (!files.length) problems.unshift({ loc: ['body', 'files'], msg: 'Field required', type: 'missing' });
  if (problems.length) throw new LegacyError(422, problems);
  const strategy = (form.strategy ?? 'auto').toLowerCase();
  if (!(LEGACY_STRATEGIES as readonly string[]).includes(strategy))
    throw new LegacyError(400, `Invalid strategy: ${strategy}. Must be one of ${pyList(LEGACY_STRATEGIES)}`);
  const chunking = form.chunking_strategy?.toLowerCase();
  if (chunking && !(LEGACY_CHUNKING_STRATEGIES as readonly string[]).includes(chunking)) {
    throw new LegacyError(400, `Invalid chunking strategy: ${chunking}. Must be one of ${pyList(LEGACY_CHUNKING_STRATEGIES)}`);
  }
  const unavailable = tools.problem(form);
  if (unavailable) throw new LegacyError(422, unavailable);
  const output = form.output_format ?? 'application/json';
  if (!OUTPUT_FORMATS.includes(output))
    throw new LegacyError(422, [{ loc: ['body', 'output_format'], msg: `Input should be one of ${pyList(OUTPUT_FORMATS)}`, type: 'enum' }]);
  const uploads: PartitionedUpload[] = [];
  for (const f of files) uploads.push(await partitionUpload(f, form, tools, limits, signal));
  if (output === 'text/csv') {
    return reply.type('text/csv; charset=utf-8').send(elementsToCsv(uploads.flatMap((u) => u.elements.map((el) => answerElement(el, u)))));
  }
  return reply.type('application/json').send(answerJson(uploads));
}

/**
 * The legacy partition endpoint, `POST /general/v0/general` of the Unstructured API: multipart `files`
 * plus form fields; answers the elements JSON of one file (an array), or an array of arrays for
 * several, or CSV. Errors keep the Unstructured API's shapes: 400 invalid strategy or file type, 422
 * corrupt file or form field, 405 on GET; a coded document error also carries its `code`. Documents
 * are partitioned in the server's process pool, which reads each from its staged file; a `.gz`
 * upload is inflated to disk within `maxFileBytes`, the size limit of an uploaded file (413 past
 * it). Past the bounds of its queue, a request is answered 503 `SERVER_BUSY` before its body is read.
 * A client that disconnects, or a request past `deadlineMs`, has its documents aborted in the pool.
 */
export function legacyPartitionRoutes(
  app: FastifyInstance,
  ctx: Pick<RouteContext, 'stagingDir' | 'uploadLimits' | 'bodyReads'>,
  tools: LegacyTools,
  limits: LegacyLimits,
): void {
  app.get('/general/v0/general', { config: { public: true } }, async (_req, reply) => reply.code(405).send({ detail: 'Only POST requests are supported.' }));
  app.post('/general/v0/general', { onRequest: limits.admission.hook }, async (req, reply) => {
    if (!req.isMultipart()) return reply.code(422).send({ detail: [{ loc: ['body', 'files'], msg: 'Field required', type: 'missing' }] });
    // Watched from the start: a client that leaves while its body is read or staged (before any
    // later listener could hear the connection close) must not leave its documents running.
    const work = requestWork(reply, limits.deadlineMs);
    let body: Awaited<ReturnType<typeof readMultipart>> | undefined;
    try {
      body = await readMultipart(req, ctx.stagingDir, ctx.uploadLimits, ctx.bodyReads);
      return await handle(
        body.files.filter((f) => f.field === 'files'),
        body.fields,
        reply,
        tools,
        limits,
        work.signal,
      );
    } catch (e) {
      if (e instanceof LegacyError) return reply.code(e.status).send(e.body());
      throw e;
    } finally {
      work.done();
      await body?.cleanup();
    }
  });
}
