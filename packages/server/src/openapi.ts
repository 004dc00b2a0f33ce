import { z } from 'zod';
import { ENGINE_VERSION, workflowBodySchemas, type ListingRegistryView } from '@quarry/core';
import {
  cancelJobResponse,
  connectionCheck,
  connectorCreateBody,
  connectorInformation,
  connectorListQuery,
  connectorUpdateBody,
  deleteResponse,
  downloadQuery,
  jobDetails,
  jobFailedFiles,
  jobInformation,
  jobListQuery,
  onDemandRequestData,
  templateDetail,
  templateListItem,
  workflowInformation,
  workflowListQuery,
  workflowStatusField,
} from '@quarry/core/service';
import { LEGACY_CHUNKING_STRATEGIES } from './legacy/chunk-elements.js';
import { LEGACY_STRATEGIES } from './routes/legacy-partition.js';

type Json = Record<string, unknown>;

/** The base path of the workflow API. */
export const API_PREFIX = '/api/v1';

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * The OpenAPI 3.1 document of the service, generated from the zod schemas of `@quarry/core`
 * (`z.toJSONSchema`, JSON Schema 2020-12, the dialect of OpenAPI 3.1); workflow nodes are those
 * of `registry` (the engine's).
 */
export function buildOpenApi(registry: ListingRegistryView): Json {
  const workflowBody = workflowBodySchemas(registry);
  const components: Record<string, Json> = {};
  const add = (name: string, schema: z.ZodType, io: 'input' | 'output', extra?: (s: Json) => void): Json => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
    delete json.$schema;
    const defs = json.$defs as Record<string, Json> | undefined;
    delete json.$defs;
    let text = JSON.stringify(json);
    for (const [def, body] of Object.entries(defs ?? {})) {
      components[`${name}_${def}`] = body;
      text = text.split(`"#/$defs/${def}"`).join(`"#/components/schemas/${name}_${def}"`);
    }
    const out = JSON.parse(text) as Json;
    extra?.(out);
    components[name] = out;
    return ref(name);
  };
  const withStatus = (s: Json): void => {
    (s.properties as Json).status = z.toJSONSchema(workflowStatusField, { io: 'input' });
    delete ((s.properties as Json).status as Json).$schema;
  };

  const WorkflowCreate = add('WorkflowCreate', workflowBody.create, 'input', withStatus);
  const WorkflowUpdate = add('WorkflowUpdate', workflowBody.update, 'input', withStatus);
  const WorkflowInformation = add('WorkflowInformation', workflowInformation, 'output');
  const ConnectorCreate = add('ConnectorCreate', connectorCreateBody, 'input');
  const ConnectorUpdate = add('ConnectorUpdate', connectorUpdateBody, 'input');
  const ConnectorInformation = add('ConnectorInformation', connectorInformation, 'output');
  const ConnectionCheck = add('ConnectionCheck', connectionCheck, 'output');
  const JobInformation = add('JobInformation', jobInformation, 'output');
  const JobDetails = add('JobDetails', jobDetails, 'output');
  const JobFailedFiles = add('JobFailedFiles', jobFailedFiles, 'output');
  const CancelJobResponse = add('CancelJobResponse', cancelJobResponse, 'output');
  const DeleteResponse = add('DeleteResponse', deleteResponse, 'output');
  const TemplateListItem = add('TemplateListItem', templateListItem, 'output');
  const TemplateDetail = add('TemplateDetail', templateDetail, 'output');
  const OnDemandJobRequest = add('OnDemandJobRequest', onDemandRequestData, 'input');
  components.ValidationError = {
    type: 'object',
    properties: {
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      msg: { type: 'string' },
      type: { type: 'string', description: 'a stable problem code' },
    },
    required: ['loc', 'msg', 'type'],
  };
  components.HTTPValidationError = { type: 'object', properties: { detail: { type: 'array', items: ref('ValidationError') } }, required: ['detail'] };
  components.ErrorDetail = { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] };
  components.Element = {
    type: 'object',
    description: "an element of `unstructured`'s JSON form",
    properties: {
      element_id: { type: 'string' },
      type: { type: 'string' },
      text: { type: 'string' },
      metadata: { type: 'object' },
      embeddings: { type: 'array', items: { type: 'number' } },
    },
    required: ['element_id', 'type', 'text', 'metadata'],
  };

  const query = (schema: z.ZodType, rename: Record<string, string> = {}): Json[] => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Json>; required?: string[] };
    return Object.entries(json.properties).map(([name, s]) => ({
      name: rename[name] ?? name,
      in: 'query',
      required: (json.required ?? []).includes(name),
      schema: s,
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
    }));
  };
  const pathParam = (name: string): Json => ({ name, in: 'path', required: true, schema: { type: 'string' } });
  const json = (schema: Json): Json => ({ content: { 'application/json': { schema } } });
  const ok = (schema: Json, description = 'OK'): Json => ({ description, ...json(schema) });
  const errors = (...codes: number[]): Json =>
    Object.fromEntries(
      codes.map((c) => [
        String(c),
        c === 422
          ? { description: 'Validation Error: every problem, with loc, msg and a stable type code', ...json(ref('HTTPValidationError')) }
          : {
              description:
                {
                  401: 'Missing or unknown API key',
                  404: 'Not found in this workspace',
                  409: 'Conflict with the resource state',
                  413: 'Too many or too large files',
                }[c] ?? 'Error',
              ...json(ref('ErrorDetail')),
            },
      ]),
    );
  const multipart = (properties: Json, required: string[]): Json => ({
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } },
  });
  const files = { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } };

  const paths: Record<string, Json> = {};
  const op = (method: string, path: string, spec: Json): void => {
    const full = path.startsWith('/general') ? path : `${API_PREFIX}${path}`;
    paths[full] = { ...(paths[full] ?? {}), [method]: spec };
  };

  op('post', '/workflows', {
    tags: ['workflows'],
    operationId: 'create_workflow',
    summary: 'Create a workflow',
    requestBody: { required: true, ...json(WorkflowCreate) },
    responses: { 200: ok(WorkflowInformation), ...errors(401, 422) },
  });
  op('get', '/workflows', {
    tags: ['workflows'],
    operationId: 'list_workflows',
    summary: 'List workflows',
    parameters: query(workflowListQuery),
    responses: { 200: ok({ type: 'array', items: WorkflowInformation }), ...errors(401, 422) },
  });
  op('get', '/workflows/{workflow_id}', {
    tags: ['workflows'],
    operationId: 'get_workflow',
    summary: 'Get a workflow',
    parameters: [pathParam('workflow_id')],
    responses: { 200: ok(WorkflowInformation), ...errors(401, 404) },
  });
  op('put', '/workflows/{workflow_id}', {
    tags: ['workflows'],
    operationId: 'update_workflow',
    summary: 'Update a workflow (every field optional; null removes it)',
    parameters: [pathParam('workflow_id')],
    requestBody: { required: true, ...json(WorkflowUpdate) },
    responses: { 200: ok(WorkflowInformation), ...errors(401, 404, 409, 422) },
  });
  op('delete', '/workflows/{workflow_id}', {
    tags: ['workflows'],
    operationId: 'delete_workflow',
    summary: 'Delete a workflow',
    parameters: [pathParam('workflow_id')],
    responses: { 200: ok(DeleteResponse), ...errors(401, 404, 409) },
  });
  op('post', '/workflows/{workflow_id}/run', {
    tags: ['workflows'],
    operationId: 'run_workflow',
    summary: 'Run a workflow (input_files for a workflow with a local source)',
    parameters: [pathParam('workflow_id')],
    requestBody: { required: false, content: { 'multipart/form-data': { schema: { type: 'object', properties: { input_files: files } } } } },
    responses: { 202: ok(JobInformation, 'Accepted: the job is SCHEDULED or IN_PROGRESS'), ...errors(401, 404, 409, 413, 422) },
  });
  op('get', '/templates', {
    tags: ['templates'],
    operationId: 'list_templates',
    summary: 'List templates',
    responses: { 200: ok({ type: 'array', items: TemplateListItem }), ...errors(401) },
  });
  op('get', '/templates/{template_id}', {
    tags: ['templates'],
    operationId: 'get_template',
    summary: 'Get a template with its nodes',
    parameters: [pathParam('template_id')],
    responses: { 200: ok(TemplateDetail), ...errors(401, 404) },
  });
  for (const kind of ['source', 'destination'] as const) {
    const tag = `${kind}s`;
    const id = `${kind}_id`;
    op('post', `/${kind}s`, {
      tags: [tag],
      operationId: `create_${kind}`,
      summary: `Create a ${kind} connector`,
      requestBody: { required: true, ...json(ConnectorCreate) },
      responses: { 200: ok(ConnectorInformation), ...errors(401, 422) },
    });
    op('get', `/${kind}s`, {
      tags: [tag],
      operationId: `list_${kind}s`,
      summary: `List ${kind} connectors`,
      parameters: query(connectorListQuery, { type: `${kind}_type` }),
      responses: { 200: ok({ type: 'array', items: ConnectorInformation }), ...errors(401, 422) },
    });
    op('get', `/${kind}s/{${id}}`, {
      tags: [tag],
      operationId: `get_${kind}`,
      summary: `Get a ${kind} connector (secrets masked)`,
      parameters: [pathParam(id)],
      responses: { 200: ok(ConnectorInformation), ...errors(401, 404) },
    });
    op('put', `/${kind}s/{${id}}`, {
      tags: [tag],
      operationId: `update_${kind}`,
      summary: `Update a ${kind} connector's config`,
      parameters: [pathParam(id)],
      requestBody: { required: true, ...json(ConnectorUpdate) },
      responses: { 200: ok(ConnectorInformation), ...errors(401, 404, 422) },
    });
    op('delete', `/${kind}s/{${id}}`, {
      tags: [tag],
      operationId: `delete_${kind}`,
      summary: `Delete a ${kind} connector`,
      parameters: [pathParam(id)],
      responses: { 200: ok(DeleteResponse), ...errors(401, 404, 409) },
    });
    op('post', `/${kind}s/{${id}}/connection-check`, {
      tags: [tag],
      operationId: `create_connection_check_${kind}s`,
      summary: `Check a ${kind} connector`,
      parameters: [pathParam(id)],
      responses: { 200: ok(ConnectionCheck), ...errors(401, 404) },
    });
    op('get', `/${kind}s/{${id}}/connection-check`, {
      tags: [tag],
      operationId: `get_connection_check_${kind}s`,
      summary: `The last check of a ${kind} connector`,
      parameters: [pathParam(id)],
      responses: { 200: ok(ConnectionCheck), ...errors(401, 404) },
    });
  }
  op('get', '/jobs', {
    tags: ['jobs'],
    operationId: 'list_jobs',
    summary: 'List jobs',
    parameters: query(jobListQuery),
    responses: { 200: ok({ type: 'array', items: JobInformation }), ...errors(401, 422) },
  });
  op('post', '/jobs', {
    tags: ['jobs'],
    operationId: 'create_job',
    summary: 'Run an on-demand job over uploaded files (template_id or job_nodes)',
    requestBody: multipart(
      {
        request_data: {
          type: 'string',
          contentMediaType: 'application/json',
          description: `JSON text of ${JSON.stringify({ template_id: 'hi_res_partition' })} or {"job_nodes": [...]}`,
          contentSchema: OnDemandJobRequest,
        },
        input_files: files,
      },
      ['request_data', 'input_files'],
    ),
    responses: { 200: ok(JobInformation), ...errors(401, 413, 422) },
  });
  op('get', '/jobs/{job_id}', {
    tags: ['jobs'],
    operationId: 'get_job',
    summary: 'Get a job',
    parameters: [pathParam('job_id')],
    responses: { 200: ok(JobInformation), ...errors(401, 404) },
  });
  op('get', '/jobs/{job_id}/details', {
    tags: ['jobs'],
    operationId: 'get_job_details',
    summary: 'Processing status and per-node document counts',
    parameters: [pathParam('job_id')],
    responses: { 200: ok(JobDetails), ...errors(401, 404) },
  });
  op('get', '/jobs/{job_id}/failed-files', {
    tags: ['jobs'],
    operationId: 'get_job_failed_files',
    summary: 'Documents that failed',
    parameters: [pathParam('job_id')],
    responses: { 200: ok(JobFailedFiles), ...errors(401, 404) },
  });
  op('get', '/jobs/{job_id}/download', {
    tags: ['jobs'],
    operationId: 'download_job_output',
    summary: 'Download the elements of one input file of a job with a local destination',
    parameters: [pathParam('job_id'), ...query(downloadQuery)],
    responses: { 200: ok({ type: 'array', items: ref('Element') }), ...errors(401, 404, 422) },
  });
  op('post', '/jobs/{job_id}/cancel', {
    tags: ['jobs'],
    operationId: 'cancel_job',
    summary: 'Cancel a job (it ends STOPPED)',
    parameters: [pathParam('job_id')],
    responses: { 200: ok(CancelJobResponse), ...errors(401, 404, 409) },
  });
  op('post', '/general/v0/general', {
    tags: ['general'],
    operationId: 'partition',
    summary: 'Legacy partition endpoint: elements of uploaded files',
    requestBody: multipart(
      {
        files,
        strategy: { type: 'string', enum: [...LEGACY_STRATEGIES], default: 'auto', description: 'vlm: only when the server has a VLM provider (else 422)' },
        output_format: { type: 'string', enum: ['application/json', 'text/csv'], default: 'application/json' },
        coordinates: { type: 'boolean', default: false },
        encoding: { type: 'string', default: 'utf-8' },
        include_page_breaks: { type: 'boolean', default: false },
        pdf_infer_table_structure: { type: 'boolean', default: false },
        xml_keep_tags: { type: 'boolean', default: false },
        languages: { type: 'array', items: { type: 'string' } },
        ocr_languages: { type: 'array', items: { type: 'string' } },
        extract_image_block_types: { type: 'array', items: { type: 'string' } },
        unique_element_ids: { type: 'boolean', default: false },
        starting_page_number: { type: 'integer' },
        chunking_strategy: {
          type: 'string',
          enum: [...LEGACY_CHUNKING_STRATEGIES],
          description: 'by_similarity: only when the server has an embedder (else 422)',
        },
        combine_under_n_chars: { type: 'integer' },
        max_characters: { type: 'integer', default: 500 },
        multipage_sections: { type: 'boolean', default: true },
        new_after_n_chars: { type: 'integer' },
        overlap: { type: 'integer', default: 0 },
        overlap_all: { type: 'boolean', default: false },
        include_orig_elements: { type: 'boolean' },
        similarity_threshold: { type: 'number', default: 0.5, minimum: 0.01, maximum: 0.99 },
        do_not_break_similarity_on_footer_header: { type: 'boolean', default: false },
        vlm_model: { type: 'string' },
        vlm_model_provider: { type: 'string' },
      },
      ['files'],
    ),
    responses: {
      200: {
        description: 'One file: an array of elements; several: an array of arrays; or CSV',
        content: {
          'application/json': {
            schema: {
              anyOf: [
                { type: 'array', items: ref('Element') },
                { type: 'array', items: { type: 'array', items: ref('Element') } },
              ],
            },
          },
          'text/csv': { schema: { type: 'string' } },
        },
      },
      400: { description: 'Invalid strategy, chunking strategy or unsupported file type', ...json(ref('ErrorDetail')) },
      ...errors(401, 413, 422),
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'quarry workflow service',
      version: ENGINE_VERSION,
      description: 'Workflows, connectors, templates, jobs and schedules (the Unstructured workflow API), plus the legacy partition endpoint.',
    },
    servers: [{ url: '/' }],
    security: [{ ServiceApiKey: [] }, { UnstructuredApiKey: [] }],
    tags: ['workflows', 'templates', 'sources', 'destinations', 'jobs', 'general'].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        ServiceApiKey: { type: 'apiKey', in: 'header', name: 'service-api-key' },
        UnstructuredApiKey: { type: 'apiKey', in: 'header', name: 'unstructured-api-key' },
      },
    },
  };
}
