import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type TestServer } from './support.js';

function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? out.push(x) : refs(x, out);
  return out;
}

describe('GET /api/v1/openapi.json', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('serves an OpenAPI 3.1 document of every path, without a key', async () => {
    const r = await t.call('GET', '/openapi.json', { key: null });
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) => Object.keys(m).map((x) => `${x.toUpperCase()} ${p}`));
    const expected = [
      'POST /api/v1/workflows',
      'GET /api/v1/workflows',
      'GET /api/v1/workflows/{workflow_id}',
      'PUT /api/v1/workflows/{workflow_id}',
      'DELETE /api/v1/workflows/{workflow_id}',
      'POST /api/v1/workflows/{workflow_id}/run',
      'GET /api/v1/templates',
      'GET /api/v1/templates/{template_id}',
      'POST /api/v1/sources',
      'GET /api/v1/sources',
      'GET /api/v1/sources/{source_id}',
      'PUT /api/v1/sources/{source_id}',
      'DELETE /api/v1/sources/{source_id}',
      'POST /api/v1/sources/{source_id}/connection-check',
      'GET /api/v1/sources/{source_id}/connection-check',
      'POST /api/v1/destinations',
      'GET /api/v1/destinations',
      'GET /api/v1/destinations/{destination_id}',
      'PUT /api/v1/destinations/{destination_id}',
      'DELETE /api/v1/destinations/{destination_id}',
      'POST /api/v1/destinations/{destination_id}/connection-check',
      'GET /api/v1/destinations/{destination_id}/connection-check',
      'GET /api/v1/jobs',
      'POST /api/v1/jobs',
      'GET /api/v1/jobs/{job_id}',
      'GET /api/v1/jobs/{job_id}/details',
      'GET /api/v1/jobs/{job_id}/failed-files',
      'GET /api/v1/jobs/{job_id}/download',
      'POST /api/v1/jobs/{job_id}/cancel',
      'POST /general/v0/general',
    ];
    expect(ops.sort()).toEqual(expected.sort());
    // Every documented operation is served: an unauthenticated call gets 401 (or 405), never 404.
    for (const op of expected) {
      const [method, p] = op.split(' ') as [string, string];
      const res = await fetch(t.origin + p.replace(/\{[^}]+\}/g, 'x'), { method });
      expect([op, res.status]).toEqual([op, 401]);
    }
    for (const r of refs(doc)) {
      const name = r.replace('#/components/schemas/', '');
      expect(doc.components.schemas).toHaveProperty(name);
    }
    const create = doc.components.schemas.WorkflowCreate;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'workflow_type']));
    const enumOf = (s: { enum?: string[]; anyOf?: Array<{ enum?: string[] }> }): string[] => s.enum ?? (s.anyOf ?? []).flatMap((x) => x.enum ?? []);
    expect(enumOf(create.properties.status)).toEqual(['active', 'inactive']);
    expect(enumOf(create.properties.schedule)).toContain('every 15 minutes');
    expect(doc.paths['/api/v1/workflows/{workflow_id}/run'].post.responses['202']).toBeDefined();
    expect(doc.paths['/api/v1/workflows'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining([
        'source_id',
        'destination_id',
        'status',
        'name',
        'created_since',
        'created_before',
        'page',
        'page_size',
        'sort_by',
        'sort_direction',
      ]),
    );
    expect(doc.paths['/api/v1/sources'].get.parameters.map((p: { name: string }) => p.name)).toContain('source_type');
    expect(doc.components.securitySchemes.ServiceApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'service-api-key' });
  });
});
