import type { FastifyInstance } from 'fastify';
import type { InputFile } from '@quarry/core/service';
import { readMultipart } from '../multipart.js';
import { param, workspaceOf, type RouteContext } from '../route-context.js';

/** Workflows: create, list, get, update, delete, run (the Unstructured workflow API's endpoints). */
export function workflowRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { service } = ctx;
  app.post('/workflows', async (req) => service.createWorkflow(workspaceOf(req), req.body));
  app.get('/workflows', async (req) => service.listWorkflows(workspaceOf(req), req.query));
  app.get('/workflows/:workflow_id', async (req) => service.getWorkflow(workspaceOf(req), param(req, 'workflow_id')));
  app.put('/workflows/:workflow_id', async (req) => service.updateWorkflow(workspaceOf(req), param(req, 'workflow_id'), req.body));
  app.delete('/workflows/:workflow_id', async (req) => service.deleteWorkflow(workspaceOf(req), param(req, 'workflow_id')));
  app.post('/workflows/:workflow_id/run', async (req, reply) => {
    const ws = workspaceOf(req);
    const id = param(req, 'workflow_id');
    // Fail fast on an unknown id before reading any upload.
    await service.getWorkflow(ws, id);
    if (!req.isMultipart()) return reply.code(202).send(await service.runWorkflow(ws, id));
    const body = await readMultipart(req, ctx.stagingDir, ctx.uploadLimits, ctx.bodyReads);
    try {
      const inputFiles: InputFile[] = body.files.map((f) => ({ filename: f.filename, path: f.path }));
      return reply.code(202).send(await service.runWorkflow(ws, id, { inputFiles }));
    } finally {
      await body.cleanup();
    }
  });
}
