import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { requestInvalid, problemAt, type InputFile } from '@quarry/core/service';
import { readMultipart } from '../multipart.js';
import { param, workspaceOf, type RouteContext } from '../route-context.js';

/** Jobs: list, on-demand create, get, details, failed files, download, cancel. */
export function jobRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { service } = ctx;
  app.get('/jobs', async (req) => service.listJobs(workspaceOf(req), req.query));
  app.post('/jobs', async (req) => {
    if (!req.isMultipart()) {
      throw requestInvalid('body', [
        problemAt('request.multipart_required', [], 'an on-demand job is sent as multipart/form-data: a request_data field (JSON) and input_files'),
      ]);
    }
    const body = await readMultipart(req, ctx.stagingDir, ctx.uploadLimits, ctx.bodyReads);
    try {
      const data = body.fields.get('request_data');
      if (!data?.length)
        throw requestInvalid('body', [
          problemAt('schema.required', ['request_data'], 'request_data is required: {"template_id": ...} or {"job_nodes": [...]}'),
        ]);
      const inputFiles: InputFile[] = body.files.map((f) => ({ filename: f.filename, path: f.path }));
      return await service.createOnDemandJob(workspaceOf(req), data[0], inputFiles);
    } finally {
      await body.cleanup();
    }
  });
  app.get('/jobs/:job_id', async (req) => service.getJob(workspaceOf(req), param(req, 'job_id')));
  app.get('/jobs/:job_id/details', async (req) => service.getJobDetails(workspaceOf(req), param(req, 'job_id')));
  app.get('/jobs/:job_id/failed-files', async (req) => service.getFailedFiles(workspaceOf(req), param(req, 'job_id')));
  app.post('/jobs/:job_id/cancel', async (req) => service.cancelJob(workspaceOf(req), param(req, 'job_id')));
  app.get('/jobs/:job_id/download', async (req, reply) => {
    const out = await service.downloadJobOutput(workspaceOf(req), param(req, 'job_id'), req.query);
    return reply.type(out.contentType).header('content-disposition', contentDisposition(out.filename)).send(createReadStream(out.path));
  });
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
