import type { FastifyInstance } from 'fastify';
import { param, type RouteContext } from '../route-context.js';

/** Templates: list and get. */
export function templateRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/templates', async () => ctx.service.listTemplates());
  app.get('/templates/:template_id', async (req) => ctx.service.getTemplate(param(req, 'template_id')));
}
