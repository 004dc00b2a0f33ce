import type { FastifyInstance } from 'fastify';
import type { ConnectorKind } from '@quarry/core/service';
import { param, workspaceOf, type RouteContext } from '../route-context.js';

/** Sources and destinations: create, list (`?source_type` / `?destination_type`), get, update, delete, connection check. */
export function connectorRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { service } = ctx;
  for (const kind of ['source', 'destination'] as const satisfies readonly ConnectorKind[]) {
    const base = `/${kind}s`;
    const idParam = `${kind}_id`;
    app.post(base, async (req) => service.createConnector(workspaceOf(req), kind, req.body));
    app.get(base, async (req) => {
      const { [`${kind}_type`]: type, ...rest } = (req.query ?? {}) as Record<string, unknown>;
      return service.listConnectors(workspaceOf(req), kind, type === undefined ? rest : { ...rest, type });
    });
    app.get(`${base}/:${idParam}`, async (req) => service.getConnector(workspaceOf(req), kind, param(req, idParam)));
    app.put(`${base}/:${idParam}`, async (req) => service.updateConnector(workspaceOf(req), kind, param(req, idParam), req.body));
    app.delete(`${base}/:${idParam}`, async (req) => service.deleteConnector(workspaceOf(req), kind, param(req, idParam)));
    app.post(`${base}/:${idParam}/connection-check`, async (req) => service.checkConnection(workspaceOf(req), kind, param(req, idParam)));
    app.get(`${base}/:${idParam}/connection-check`, async (req) => service.getConnectionCheck(workspaceOf(req), kind, param(req, idParam)));
  }
}
