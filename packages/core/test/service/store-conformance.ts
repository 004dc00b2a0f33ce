import { describe, expect, it } from 'vitest';
import type { ConnectorRecord, JobRecord, Store, WorkflowRecord } from '../../src/service/index.js';

/** A workflow row. */
export function workflowRow(id: string, workspace: string, created_at: string, extra: Partial<WorkflowRecord> = {}): WorkflowRecord {
  return {
    id,
    workspace,
    created_at,
    updated_at: created_at,
    name: `wf-${id}`,
    status: 'active',
    workflow_type: 'custom',
    workflow_nodes: [{ id: `${id}-n`, name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    reprocess_all: true,
    ephemeral: false,
    ...extra,
  };
}

/** A job row. */
export function jobRow(id: string, workspace: string, workflow_id: string, status: JobRecord['status'], created_at: string): JobRecord {
  return {
    id,
    workspace,
    created_at,
    workflow_id,
    workflow_name: 'wf',
    status,
    job_type: 'persistent',
    input_files: [{ file_id: 'f1', filename: 'a.txt' }],
    outputs: [],
    keeps_output: true,
    nodes: [],
    node_stats: [],
    failed_files: [],
  };
}

/**
 * The behaviour every {@link Store} shares. `open` makes a store; with `reopen` (a store over the
 * same data), rows must survive closing and opening again.
 */
export function storeConformance(name: string, open: () => Promise<Store>, reopen?: (closed: Store) => Promise<Store>): void {
  describe(`${name}: Store conformance`, () => {
    it('reads a row only within its workspace', async () => {
      const s = await open();
      await s.put('workflows', workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z'));
      expect((await s.get('workflows', 'acme', 'w1'))?.name).toBe('wf-w1');
      expect(await s.get('workflows', 'other', 'w1')).toBeUndefined();
      expect(await s.get('sources', 'acme', 'w1')).toBeUndefined();
      expect(await s.delete('workflows', 'other', 'w1')).toBe(false);
      expect(await s.get('workflows', 'acme', 'w1')).toBeDefined();
      expect(await s.delete('workflows', 'acme', 'w1')).toBe(true);
      expect(await s.get('workflows', 'acme', 'w1')).toBeUndefined();
      await s.close();
    });

    it('replaces rows by id and returns copies', async () => {
      const s = await open();
      const row = workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z');
      await s.put('workflows', row);
      row.name = 'changed after put';
      expect((await s.get('workflows', 'acme', 'w1'))?.name).toBe('wf-w1');
      await s.put('workflows', { ...row, name: 'renamed', schedule: 'daily' });
      const got = await s.get('workflows', 'acme', 'w1');
      expect(got).toMatchObject({ name: 'renamed', schedule: 'daily' });
      got!.name = 'mutated copy';
      expect((await s.get('workflows', 'acme', 'w1'))?.name).toBe('renamed');
      expect(await s.list('workflows', { workspace: 'acme' })).toHaveLength(1);
      await s.close();
    });

    it('lists oldest first, filtered by workspace, workflow and status', async () => {
      const s = await open();
      const connector: ConnectorRecord = {
        id: 'c1',
        workspace: 'acme',
        created_at: '2025-01-01T00:00:00.000Z',
        updated_at: '2025-01-01T00:00:00.000Z',
        kind: 'source',
        name: 'src',
        type: 'local',
        config: { path: 'in' },
      };
      await s.put('sources', connector);
      await s.put('jobs', jobRow('j3', 'acme', 'w1', 'COMPLETED', '2025-01-03T00:00:00.000Z'));
      await s.put('jobs', jobRow('j1', 'acme', 'w1', 'IN_PROGRESS', '2025-01-01T00:00:00.000Z'));
      await s.put('jobs', jobRow('j2', 'acme', 'w2', 'SCHEDULED', '2025-01-02T00:00:00.000Z'));
      await s.put('jobs', jobRow('j4', 'beta', 'w9', 'IN_PROGRESS', '2025-01-01T12:00:00.000Z'));
      const ids = async (q: Parameters<Store['list']>[1]) => (await s.list('jobs', q)).map((j) => j.id);
      expect(await ids({ workspace: 'acme' })).toEqual(['j1', 'j2', 'j3']);
      expect(await ids({ workspace: 'acme', workflowId: 'w1' })).toEqual(['j1', 'j3']);
      expect(await ids({ workspace: 'acme', statuses: ['IN_PROGRESS', 'SCHEDULED'] })).toEqual(['j1', 'j2']);
      expect(await ids({ statuses: ['IN_PROGRESS'] })).toEqual(['j1', 'j4']);
      expect(await ids({ workspace: 'nobody' })).toEqual([]);
      expect(await s.list('sources', { workspace: 'acme' })).toEqual([connector]);
      expect(await s.list('destinations', { workspace: 'acme' })).toEqual([]);
      await s.close();
    });

    it('keeps document versions per workspace and workflow', async () => {
      const s = await open();
      await s.setDocumentVersion('acme', 'w1', 'a.txt', 'v1');
      await s.setDocumentVersion('acme', 'w1', 'a.txt', 'v2');
      await s.setDocumentVersion('acme', 'w2', 'a.txt', 'other');
      await s.setDocumentVersion('beta', 'w1', 'a.txt', 'beta');
      expect(await s.getDocumentVersion('acme', 'w1', 'a.txt')).toBe('v2');
      expect(await s.getDocumentVersion('acme', 'w1', 'b.txt')).toBeUndefined();
      await s.deleteDocumentVersions('acme', 'w1');
      expect(await s.getDocumentVersion('acme', 'w1', 'a.txt')).toBeUndefined();
      expect(await s.getDocumentVersion('acme', 'w2', 'a.txt')).toBe('other');
      expect(await s.getDocumentVersion('beta', 'w1', 'a.txt')).toBe('beta');
      await s.close();
    });

    if (reopen)
      it('keeps every row across close and reopen', async () => {
        const s = await open();
        await s.put(
          'workflows',
          workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z', { schedule: 'every 15 minutes', last_scheduled_run: '2025-01-01T00:15:00.000Z' }),
        );
        await s.put('jobs', jobRow('j1', 'acme', 'w1', 'COMPLETED', '2025-01-01T00:00:00.000Z'));
        await s.setDocumentVersion('acme', 'w1', 'a.txt', 'v1');
        await s.close();
        const again = await reopen(s);
        expect(await again.get('workflows', 'acme', 'w1')).toEqual(
          workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z', { schedule: 'every 15 minutes', last_scheduled_run: '2025-01-01T00:15:00.000Z' }),
        );
        expect((await again.list('jobs', { workspace: 'acme' })).map((j) => j.id)).toEqual(['j1']);
        expect(await again.getDocumentVersion('acme', 'w1', 'a.txt')).toBe('v1');
        await again.close();
      });
  });
}
