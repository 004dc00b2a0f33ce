import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuarryError } from '../../src/index.js';
import { ManualClock, MemoryStore, WorkflowService, type ServiceProblem, type WorkflowServiceOptions } from '../../src/service/index.js';
import { SECRET_MASK } from '../../src/service/secrets.js';
import { jobRow } from './store-conformance.js';
import { captureLogger, localWorkflow, partitionNode, tempDir, testEngine, textFile, until, type TestPlugin } from './support.js';
import { sleep } from '../../src/index.js';

const WS = 'acme';
const OTHER = 'beta';
const gateNode = { name: 'Gate', type: 'prompter', subtype: 'test_gate', settings: {} };
const failNode = { name: 'Fail check', type: 'prompter', subtype: 'test_fail_word', settings: {} };

let tmp: ReturnType<typeof tempDir>;
let plugin: TestPlugin;
let store: MemoryStore;
let services: WorkflowService[];

beforeEach(() => {
  tmp = tempDir();
  plugin = testEngine();
  store = new MemoryStore();
  services = [];
});

afterEach(async () => {
  plugin.openGate();
  for (const s of services) await s.close();
  tmp.remove();
});

async function open(extra: Partial<WorkflowServiceOptions> = {}): Promise<WorkflowService> {
  const s = await WorkflowService.open({ engine: plugin.engine, store, dataDir: tmp.dir, ...extra });
  services.push(s);
  return s;
}

async function rejection(p: Promise<unknown>): Promise<QuarryError> {
  try {
    await p;
  } catch (e) {
    return e as QuarryError;
  }
  throw new Error('expected a rejection');
}

const problemsOf = (e: QuarryError) => (e.details.problems as ServiceProblem[]).map((p) => [p.code, p.path]);

describe('WorkflowService: workflows', () => {
  it('creates a workflow and returns workflow_information', async () => {
    const svc = await open();
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const dst = await svc.createConnector(WS, 'destination', {
      name: 'vault',
      type: 'vault',
      config: { url: 'https://vault.example', api_key: 'vault-secret-key-1' },
    });
    const wf = await svc.createWorkflow(WS, {
      name: 'Daily docs',
      source_id: src.id,
      destination_id: dst.id,
      workflow_type: 'CUSTOM',
      schedule: 'Every  Hour',
      workflow_nodes: [partitionNode],
    });
    expect(wf).toMatchObject({
      name: 'Daily docs',
      status: 'active',
      workflow_type: 'custom',
      sources: [src.id],
      destinations: [dst.id],
      schedule: { crontab_entries: [{ cron_expression: '0 * * * *' }] },
      reprocess_all: true,
    });
    expect(wf.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(wf.workflow_nodes).toEqual([
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
    ]);
    expect(wf.created_at).toBe(wf.updated_at);
    expect(await svc.getWorkflow(WS, wf.id)).toEqual(wf);
    expect(svc.nextScheduledRun(WS, wf.id)).toBeInstanceOf(Date);
  });

  it('lists every problem of an invalid body at once', async () => {
    const svc = await open();
    await svc.createWorkflow(WS, localWorkflow('taken'));
    const e = await rejection(
      svc.createWorkflow(WS, {
        name: 'taken',
        status: 'paused',
        source_id: 'missing-source',
        workflow_type: 'custom',
        schedule: 'every minute',
        workflow_nodes: [{ name: 'C', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: -1 } }],
        colour: 'blue',
      }),
    );
    expect(e.code).toBe('WORKFLOW_INVALID');
    expect(problemsOf(e)).toEqual(
      expect.arrayContaining([
        ['schema.invalid_value', '/status'],
        ['schema.unknown_key', '/colour'],
        ['schedule.unknown_phrase', '/schedule'],
        ['order.partition_required', '/workflow_nodes'],
        ['reference.not_found', '/source_id'],
        ['name.taken', '/name'],
      ]),
    );
    expect(e.details.location).toBe('body');
  });

  it('refuses nodes the engine does not provide and unknown templates', async () => {
    const svc = await open();
    const e = await rejection(svc.createWorkflow(WS, localWorkflow('w', [{ name: 'C', type: 'chunk', subtype: 'chunk_by_page', settings: {} }])));
    expect(problemsOf(e)).toEqual([['node.unknown_subtype', '/workflow_nodes/1/subtype']]);
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const t = await rejection(svc.createWorkflow(WS, { name: 't', workflow_type: 'template', template_id: 'hi_res_and_enrichment', source_id: src.id }));
    expect(problemsOf(t)).toContainEqual(['node.unknown_subtype', '/template_id']);
    const u = await rejection(svc.createWorkflow(WS, { name: 't', workflow_type: 'template', template_id: 'nope', source_id: src.id }));
    expect(problemsOf(u)).toEqual([['template.not_found', '/template_id']]);
    const ok = await svc.createWorkflow(WS, { name: 't', workflow_type: 'template', template_id: 'fast_partition', source_id: src.id });
    expect(ok).toMatchObject({
      workflow_type: 'template',
      template_id: 'fast_partition',
      workflow_nodes: [{ type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });
  });

  it('lists with filters, sorting and pages, within the workspace only', async () => {
    const clock = new ManualClock('2025-03-01T00:00:00Z');
    const svc = await open({ clock });
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const names = ['alpha', 'beta', 'gamma', 'Alphabet'];
    const ids: string[] = [];
    for (const name of names) {
      clock.advance(60_000);
      ids.push((await svc.createWorkflow(WS, name === 'gamma' ? { ...localWorkflow(name), source_id: src.id, status: 'inactive' } : localWorkflow(name))).id);
    }
    await svc.createWorkflow(OTHER, localWorkflow('alpha'));
    const list = async (q: Record<string, unknown>) => (await svc.listWorkflows(WS, q)).map((w) => w.name);
    expect(await list({})).toEqual(['Alphabet', 'gamma', 'beta', 'alpha']);
    expect(await list({ sort_direction: 'asc' })).toEqual(['alpha', 'beta', 'gamma', 'Alphabet']);
    expect(await list({ name: 'ALPHA', sort_by: 'name', sort_direction: 'asc' })).toEqual(['Alphabet', 'alpha']);
    expect(await list({ status: 'inactive' })).toEqual(['gamma']);
    expect(await list({ source_id: src.id })).toEqual(['gamma']);
    expect(await list({ created_since: '2025-03-01T00:02:00Z', created_before: '2025-03-01T00:04:00Z' })).toEqual(['gamma', 'beta']);
    expect(await list({ page: '2', page_size: '3' })).toEqual(['alpha']);
    const e = await rejection(svc.listWorkflows(WS, { page: '0', status: 'sleeping', created_since: 'yesterday' }));
    expect(e.code).toBe('REQUEST_INVALID');
    expect(e.details.location).toBe('query');
    expect(
      problemsOf(e)
        .map(([, p]) => p)
        .sort(),
    ).toEqual(['/created_since', '/page', '/status']);
    expect((await svc.listWorkflows(OTHER)).map((w) => w.name)).toEqual(['alpha']);
    expect((await rejection(svc.getWorkflow(OTHER, ids[0]!))).code).toBe('NOT_FOUND');
  });

  it('updates any subset of fields, validating the merged workflow', async () => {
    const clock = new ManualClock('2025-03-01T00:00:00Z');
    const svc = await open({ clock });
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const wf = await svc.createWorkflow(WS, { ...localWorkflow('w', [failNode]), source_id: src.id, schedule: 'daily' });
    clock.advance(1000);
    const renamed = await svc.updateWorkflow(WS, wf.id, { name: 'renamed', reprocess_all: false });
    expect(renamed).toMatchObject({
      name: 'renamed',
      reprocess_all: false,
      sources: [src.id],
      schedule: { crontab_entries: [{ cron_expression: '0 0 * * *' }] },
      created_at: wf.created_at,
    });
    expect(renamed.updated_at).not.toBe(wf.updated_at);
    // Node ids sent back are kept; a node without id gets a new one.
    expect(renamed.workflow_nodes.map((n) => n.id)).toEqual(wf.workflow_nodes.map((n) => n.id));
    const reordered = await svc.updateWorkflow(WS, wf.id, { workflow_nodes: [wf.workflow_nodes[0], gateNode] });
    expect(reordered.workflow_nodes[0]!.id).toBe(wf.workflow_nodes[0]!.id);
    expect(reordered.workflow_nodes[1]!.id).not.toBe(wf.workflow_nodes[1]!.id);
    // null removes a field: no schedule, then a local source.
    const unscheduled = await svc.updateWorkflow(WS, wf.id, { schedule: null });
    expect(unscheduled.schedule.crontab_entries).toEqual([]);
    expect(svc.nextScheduledRun(WS, wf.id)).toBeUndefined();
    expect((await svc.updateWorkflow(WS, wf.id, { source_id: null })).sources).toEqual([]);
    // The merged workflow must be valid: a local source cannot be scheduled.
    const e = await rejection(svc.updateWorkflow(WS, wf.id, { schedule: 'weekly' }));
    expect(problemsOf(e)).toEqual([['local.schedule_not_allowed', '/schedule']]);
    // Switching to a template drops the nodes; back to custom keeps the template's nodes.
    const t = await svc.updateWorkflow(WS, wf.id, { workflow_type: 'template', template_id: 'fast_partition', source_id: src.id, status: 'inactive' });
    expect(t).toMatchObject({ workflow_type: 'template', template_id: 'fast_partition', status: 'inactive' });
    const c = await svc.updateWorkflow(WS, wf.id, { workflow_type: 'custom' });
    expect(c.workflow_type).toBe('custom');
    expect(c.template_id).toBeUndefined();
    expect(c.workflow_nodes.map((n) => n.id)).toEqual(t.workflow_nodes.map((n) => n.id));
    expect((await rejection(svc.updateWorkflow(WS, wf.id, { nonsense: 1 }))).code).toBe('WORKFLOW_INVALID');
    expect((await rejection(svc.updateWorkflow(OTHER, wf.id, { name: 'x' }))).code).toBe('NOT_FOUND');
  });

  it('deletes a workflow; its jobs stay listed', async () => {
    const svc = await open();
    const wf = await svc.createWorkflow(WS, localWorkflow('w'));
    const job = await svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('a.txt', 'hello')] });
    await svc.waitForJob(WS, job.id);
    expect((await rejection(svc.deleteWorkflow(OTHER, wf.id))).code).toBe('NOT_FOUND');
    expect(await svc.deleteWorkflow(WS, wf.id)).toEqual({ id: wf.id, deleted: true });
    expect((await rejection(svc.getWorkflow(WS, wf.id))).code).toBe('NOT_FOUND');
    expect((await svc.listJobs(WS, { workflow_id: wf.id })).map((j) => j.workflow_name)).toEqual(['w']);
  });
});

describe('WorkflowService: runs and jobs', () => {
  it('runs on uploaded files, counts per node and keeps the output for download', async () => {
    const svc = await open();
    const wf = await svc.createWorkflow(WS, localWorkflow('w', [failNode]));
    const job = await svc.runWorkflow(WS, wf.id, {
      inputFiles: [
        textFile('a.txt', 'first line\nsecond line'),
        textFile('bad.txt', 'please FAIL'),
        textFile('a.txt', 'same name'),
        textFile('odd.txt', 'please WARN'),
      ],
    });
    expect(['SCHEDULED', 'IN_PROGRESS']).toContain(job.status);
    expect(job).toMatchObject({ workflow_id: wf.id, workflow_name: 'w', job_type: 'persistent' });
    expect(job.input_file_ids).toHaveLength(4);
    const done = await svc.waitForJob(WS, job.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.message).toBe('3 of 4 documents written, 1 failed, 0 unchanged, 0 stopped');
    expect(done.runtime).toMatch(/^PT[\d.]+S$/);
    const [a1, bad, a2, odd] = job.input_file_ids as [string, string, string, string];
    expect(done.output_node_files.map((f) => f.file_id).sort()).toEqual([a1, a2, odd].sort());
    expect(done.output_node_files[0]).toMatchObject({ node_id: wf.workflow_nodes[1]!.id, node_type: 'prompter', node_subtype: 'test_fail_word' });

    const details = await svc.getJobDetails(WS, job.id);
    expect(details.processing_status).toBe('COMPLETED_WITH_ERRORS');
    expect(details.node_stats.map((s) => [s.node_name, s.ready, s.in_progress, s.success, s.failure])).toEqual([
      ['Partitioner', 0, 0, 4, 0],
      ['Fail check', 0, 0, 3, 1],
      ['Destination', 0, 0, 3, 0],
    ]);
    // A document's warning is in the details; the document was still written.
    expect(details.warnings).toEqual([{ document: expect.stringContaining('odd'), node: 'Fail check', warning: 'odd.txt asked for a warning' }]);
    // Two uploads share a name: each keeps its own record id.
    expect(await svc.getFailedFiles(WS, job.id)).toEqual({ failed_files: [{ document: 'bad.txt', error: 'FILE_UNREADABLE: bad.txt asked to fail' }] });

    const dl = await svc.downloadJobOutput(WS, job.id, { file_id: a1 });
    expect(dl.filename).toBe('a.txt.json');
    const elements = JSON.parse(await readFile(dl.path, 'utf8')) as Array<{ text: string; type: string }>;
    expect(elements.map((e) => e.text)).toEqual(['first line', 'second line']);
    expect(JSON.parse(await readFile((await svc.downloadJobOutput(WS, job.id, { file_id: a2, node_id: wf.workflow_nodes[1]!.id })).path, 'utf8'))[0].text).toBe(
      'same name',
    );
    expect((await rejection(svc.downloadJobOutput(WS, job.id, { file_id: bad }))).code).toBe('NOT_FOUND');
    expect((await rejection(svc.downloadJobOutput(WS, job.id, { file_id: a1, node_id: wf.workflow_nodes[0]!.id }))).code).toBe('NOT_FOUND');
    expect((await rejection(svc.downloadJobOutput(WS, job.id, {}))).code).toBe('REQUEST_INVALID');
    expect((await rejection(svc.downloadJobOutput(OTHER, job.id, { file_id: a1 }))).code).toBe('NOT_FOUND');
    // Inputs are removed when the job ends; outputs stay.
    expect(existsSync(path.join(tmp.dir, 'jobs', job.id, 'input'))).toBe(false);
  });

  it('refuses runs: inactive, files for a remote source, no files for a local one, too many files', async () => {
    const svc = await open({ inputLimits: { maxFiles: 2, maxFileBytes: 10 } });
    const wf = await svc.createWorkflow(WS, localWorkflow('w'));
    expect((await rejection(svc.runWorkflow(WS, wf.id))).code).toBe('REQUEST_INVALID');
    expect((await rejection(svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('a', '1'), textFile('b', '2'), textFile('c', '3')] }))).code).toBe(
      'INPUT_TOO_LARGE',
    );
    expect((await rejection(svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('a', '12345678901')] }))).code).toBe('INPUT_TOO_LARGE');
    await svc.updateWorkflow(WS, wf.id, { status: 'inactive' });
    const e = await rejection(svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('a', '1')] }));
    expect(e.code).toBe('WORKFLOW_INACTIVE');
    expect(e.message).toMatch(/inactive/);
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const remote = await svc.createWorkflow(WS, { ...localWorkflow('r'), source_id: src.id });
    const f = await rejection(svc.runWorkflow(WS, remote.id, { inputFiles: [textFile('a', '1')] }));
    expect(problemsOf(f)).toEqual([['input.not_allowed', '/input_files']]);
    expect(await svc.listJobs(WS)).toEqual([]);
  });

  it('never runs a workflow twice at once, and cancels a running job to STOPPED', async () => {
    const svc = await open();
    const wf = await svc.createWorkflow(WS, localWorkflow('w', [gateNode]));
    plugin.closeGate();
    const job = await svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('a.txt', 'x')] });
    await until(async () => (await svc.getJobDetails(WS, job.id)).node_stats[1]!.in_progress === 1, 'the document to reach the gate');
    expect((await svc.getJob(WS, job.id)).status).toBe('IN_PROGRESS');
    expect((await rejection(svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('b.txt', 'y')] }))).code).toBe('WORKFLOW_BUSY');
    expect((await rejection(svc.deleteWorkflow(WS, wf.id))).code).toBe('WORKFLOW_BUSY');
    expect((await rejection(svc.cancelJob(OTHER, job.id))).code).toBe('NOT_FOUND');
    expect(await svc.cancelJob(WS, job.id)).toEqual({ id: job.id, status: 'cancelled', message: 'Job successfully cancelled.' });
    const stopped = await svc.getJob(WS, job.id);
    expect(stopped.status).toBe('STOPPED');
    expect(stopped.message).toMatch(/^Job cancelled\. 0 of 1 documents written/);
    expect((await svc.getJobDetails(WS, job.id)).processing_status).toBe('STOPPED');
    expect((await rejection(svc.cancelJob(WS, job.id))).code).toBe('JOB_FINISHED');
    plugin.openGate();
    const again = await svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('b.txt', 'y')] });
    expect((await svc.waitForJob(WS, again.id)).status).toBe('COMPLETED');
    expect((await svc.listJobs(WS, { status: 'stopped' })).map((j) => j.id)).toEqual([job.id]);
    expect((await svc.listJobs(WS, { status: 'Completed', workflow_id: wf.id })).map((j) => j.id)).toEqual([again.id]);
    expect((await rejection(svc.listJobs(WS, { status: 'done' }))).code).toBe('REQUEST_INVALID');
  });

  it('queues jobs beyond maxRunningJobs as SCHEDULED', async () => {
    const svc = await open({ maxRunningJobs: 1 });
    const a = await svc.createWorkflow(WS, localWorkflow('a', [gateNode]));
    const b = await svc.createWorkflow(WS, localWorkflow('b'));
    plugin.closeGate();
    const ja = await svc.runWorkflow(WS, a.id, { inputFiles: [textFile('a.txt', 'x')] });
    const jb = await svc.runWorkflow(WS, b.id, { inputFiles: [textFile('b.txt', 'y')] });
    await until(async () => (await svc.getJob(WS, ja.id)).status === 'IN_PROGRESS', 'job a to start');
    expect((await svc.getJob(WS, jb.id)).status).toBe('SCHEDULED');
    expect((await svc.getJobDetails(WS, jb.id)).processing_status).toBe('SCHEDULED');
    plugin.openGate();
    expect((await svc.waitForJob(WS, jb.id)).status).toBe('COMPLETED');
    expect((await svc.getJob(WS, ja.id)).status).toBe('COMPLETED');
  });

  it('runs an on-demand job from nodes or a template; its workflow cannot be updated and goes away', async () => {
    const svc = await open();
    plugin.closeGate();
    const job = await svc.createOnDemandJob(WS, JSON.stringify({ job_nodes: [partitionNode, gateNode] }), [textFile('a.txt', 'one\ntwo')]);
    expect(job.job_type).toBe('ephemeral');
    const wf = await svc.getWorkflow(WS, job.workflow_id);
    expect(wf.workflow_nodes.map((n) => n.subtype)).toEqual(['unstructured_api', 'test_gate']);
    expect((await rejection(svc.updateWorkflow(WS, wf.id, { name: 'mine now' }))).code).toBe('WORKFLOW_NOT_UPDATABLE');
    plugin.openGate();
    expect((await svc.waitForJob(WS, job.id)).status).toBe('COMPLETED');
    expect((await rejection(svc.getWorkflow(WS, wf.id))).code).toBe('NOT_FOUND');
    const file = (await svc.getJob(WS, job.id)).output_node_files[0]!;
    expect(JSON.parse(await readFile((await svc.downloadJobOutput(WS, job.id, { file_id: file.file_id })).path, 'utf8'))).toHaveLength(2);

    const t = await svc.createOnDemandJob(WS, { template_id: 'fast_partition' }, [textFile('b.txt', 'three')]);
    expect(t.job_type).toBe('template');
    expect((await svc.waitForJob(WS, t.id)).status).toBe('COMPLETED');
    expect(await svc.listWorkflows(WS)).toEqual([]);
  });

  it('lists every problem of an on-demand request', async () => {
    const svc = await open();
    const e = await rejection(svc.createOnDemandJob(WS, { job_nodes: [{ name: 'C', type: 'chunk', subtype: 'chunk_by_title' }] }, []));
    expect(problemsOf(e)).toEqual(
      expect.arrayContaining([
        ['order.partition_required', '/request_data/job_nodes'],
        ['schema.required', '/input_files'],
      ]),
    );
    expect(problemsOf(await rejection(svc.createOnDemandJob(WS, '{not json', [textFile('a', 'b')])))).toEqual([['schema.invalid_type', '/request_data']]);
    expect(problemsOf(await rejection(svc.createOnDemandJob(WS, { template_id: 'fast_partition', job_nodes: [] }, [textFile('a', 'b')])))).toEqual([
      ['request.template_or_nodes', '/request_data'],
    ]);
    expect(problemsOf(await rejection(svc.createOnDemandJob(WS, { template_id: 'hi_res_and_chunk' }, [textFile('a', 'b')])))).toEqual([
      ['node.unknown_subtype', '/request_data/template_id'],
    ]);
    expect(await svc.listWorkflows(WS)).toEqual([]);
  });

  it('reprocesses only changed documents when reprocess_all is false', async () => {
    const svc = await open();
    const inbox = path.join(tmp.dir, 'workspaces', WS, 'files', 'inbox');
    await mkdir(inbox, { recursive: true });
    await writeFile(path.join(inbox, 'a.txt'), 'alpha');
    await writeFile(path.join(inbox, 'b.txt'), 'beta');
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const dst = await svc.createConnector(WS, 'destination', { name: 'out', type: 'local', config: { path: 'out' } });
    const wf = await svc.createWorkflow(WS, { ...localWorkflow('w'), source_id: src.id, destination_id: dst.id, reprocess_all: false });
    const first = await svc.waitForJob(WS, (await svc.runWorkflow(WS, wf.id)).id);
    expect(first.message).toBe('2 of 2 documents written, 0 failed, 0 unchanged, 0 stopped');
    // A local-type destination keeps the job's output for download too.
    expect(first.output_node_files).toHaveLength(2);
    expect(JSON.parse(await readFile(path.join(tmp.dir, 'workspaces', WS, 'files', 'out', 'a.txt.json'), 'utf8'))[0].text).toBe('alpha');
    await writeFile(path.join(inbox, 'b.txt'), 'beta, edited');
    const second = await svc.waitForJob(WS, (await svc.runWorkflow(WS, wf.id)).id);
    expect(second.message).toBe('1 of 2 documents written, 0 failed, 1 unchanged, 0 stopped');
  });
});

describe('WorkflowService: connectors and secrets', () => {
  it('validates connectors by type and sandboxes local paths', async () => {
    const svc = await open();
    const e = await rejection(svc.createConnector(WS, 'destination', { name: '', type: 'vault', config: { url: 'not a url', api_key: 'short', extra: 1 } }));
    expect(e.code).toBe('REQUEST_INVALID');
    expect(problemsOf(e)).toEqual([
      ['schema.too_short', '/name'],
      ['schema.invalid_value', '/config/url'],
      ['schema.too_short', '/config/api_key'],
      ['schema.unknown_key', '/config/extra'],
    ]);
    expect(problemsOf(await rejection(svc.createConnector(WS, 'source', { name: 'x', type: 'ftp', config: {} })))).toEqual([
      ['connector.unknown_type', '/type'],
    ]);
    expect(problemsOf(await rejection(svc.createConnector(WS, 'source', { name: 'x', type: 'local', config: { path: '../../etc' } })))).toEqual([
      ['connector.path_outside_workspace', '/config/path'],
    ]);
    expect(problemsOf(await rejection(svc.createConnector(WS, 'source', { name: 'x', type: 'local', config: { path: '/etc' } })))).toEqual([
      ['connector.path_outside_workspace', '/config/path'],
    ]);
    expect(problemsOf(await rejection(svc.createConnector(WS, 'source', { name: 'x', config: {} })))).toEqual([['schema.required', '/type']]);
    await svc.createConnector(WS, 'source', { name: 'x', type: 'local', config: { path: 'in' } });
    expect(problemsOf(await rejection(svc.createConnector(WS, 'source', { name: 'x', type: 'local', config: { path: 'in2' } })))).toEqual([
      ['name.taken', '/name'],
    ]);
    // Names are unique per kind and workspace.
    await svc.createConnector(WS, 'destination', { name: 'x', type: 'local', config: { path: 'out' } });
    await svc.createConnector(OTHER, 'source', { name: 'x', type: 'local', config: { path: 'in' } });
    expect((await svc.listConnectors(WS, 'source')).map((c) => c.name)).toEqual(['x']);
    expect(await svc.listConnectors(WS, 'destination', { type: 'vault' })).toEqual([]);
  });

  it('checks connections: a source must list, a destination is only created', async () => {
    const svc = await open();
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    expect((await rejection(svc.getConnectionCheck(WS, 'source', src.id))).code).toBe('NOT_FOUND');
    const failed = await svc.checkConnection(WS, 'source', src.id);
    expect(failed).toMatchObject({ status: 'FAILURE', reason: expect.stringMatching(/ENOENT/) });
    await mkdir(path.join(tmp.dir, 'workspaces', WS, 'files', 'inbox'), { recursive: true });
    expect(await svc.checkConnection(WS, 'source', src.id)).toMatchObject({ status: 'SUCCESS', reported_at: expect.any(String) });
    expect((await svc.getConnectionCheck(WS, 'source', src.id)).status).toBe('SUCCESS');
    const dst = await svc.createConnector(WS, 'destination', {
      name: 'vault',
      type: 'vault',
      config: { url: 'https://vault.example', api_key: 'vault-secret-key-1' },
    });
    expect((await svc.checkConnection(WS, 'destination', dst.id)).status).toBe('SUCCESS');
    expect(plugin.vault.size).toBe(0);
    expect((await rejection(svc.checkConnection(OTHER, 'destination', dst.id))).code).toBe('NOT_FOUND');
  });

  it('stores secrets but never returns or logs them', async () => {
    const logger = captureLogger();
    const svc = await open({ logger });
    const secret = 'vault-secret-key-42';
    const token = 'nested-token-777';
    const dst = await svc.createConnector(WS, 'destination', {
      name: 'vault',
      type: 'vault',
      config: { url: 'https://vault.example', api_key: secret, auth: { token } },
    });
    expect(dst.config).toEqual({ url: 'https://vault.example', api_key: SECRET_MASK, auth: SECRET_MASK });
    // GET then PUT with the masks keeps the secrets; the new index name is taken.
    const updated = await svc.updateConnector(WS, 'destination', dst.id, { config: { ...dst.config, auth: { token: SECRET_MASK }, index_name: 'docs-2' } });
    expect(updated.config).toMatchObject({ api_key: SECRET_MASK, index_name: 'docs-2' });
    const wf = await svc.createWorkflow(WS, { ...localWorkflow('w'), destination_id: dst.id });
    const job = await svc.waitForJob(
      WS,
      (await svc.runWorkflow(WS, wf.id, { inputFiles: [textFile('ok.txt', 'fine'), textFile('leak.txt', 'LEAK please')] })).id,
    );
    // The vault got the document with the stored (unmasked) key: it only rejects LEAK documents.
    expect([...plugin.vault.keys()]).toEqual(['ok.txt']);
    expect(job.output_node_files).toEqual([]);
    const failed = await svc.getFailedFiles(WS, job.id);
    expect(failed.failed_files).toEqual([
      { document: 'leak.txt', error: `DESTINATION_WRITE_FAILED: vault rejected key ${SECRET_MASK} at https://vault.example` },
    ]);
    const everything = JSON.stringify([
      await svc.listConnectors(WS, 'destination'),
      await svc.getConnector(WS, 'destination', dst.id),
      await svc.listJobs(WS),
      failed,
      await svc.getJobDetails(WS, job.id),
      logger.lines,
    ]);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(token);
    expect(logger.lines.some((l) => l.includes('document failed') && l.includes(SECRET_MASK))).toBe(true);
    expect((await rejection(svc.deleteConnector(WS, 'destination', dst.id))).code).toBe('CONNECTOR_IN_USE');
    await svc.deleteWorkflow(WS, wf.id);
    expect(await svc.deleteConnector(WS, 'destination', dst.id)).toEqual({ id: dst.id, deleted: true });
  });

  it('masks secrets in node settings and restores them on update', async () => {
    const svc = await open();
    const wf = await svc.createWorkflow(WS, localWorkflow('w'));
    expect(wf.workflow_nodes[0]!.settings).not.toHaveProperty('provider_api_key');
    const templates = svc.listTemplates();
    expect(templates.find((t) => t.id === 'fast_partition')).toMatchObject({ available: true, requires: [] });
    expect(templates.find((t) => t.id === 'hi_res_and_enrichment')).toMatchObject({
      available: false,
      requires: ['prompter/anthropic_image_description', 'prompter/anthropic_table_description', 'prompter/anthropic_ner'],
    });
    expect(svc.getTemplate('hi_res_partition').nodes[0]).toMatchObject({ type: 'partition', settings: { strategy: 'hi_res' } });
    expect(() => svc.getTemplate('nonexistent_template')).toThrow('Template nonexistent_template not found');
  });
});

describe('WorkflowService: schedules and restarts', () => {
  it('runs a workflow scheduled "every 15 minutes" on time and skips a tick while it runs', async () => {
    const clock = new ManualClock('2025-01-01T00:07:00Z');
    const logger = captureLogger();
    const svc = await open({ clock, logger });
    const inbox = path.join(tmp.dir, 'workspaces', WS, 'files', 'inbox');
    await mkdir(inbox, { recursive: true });
    await writeFile(path.join(inbox, 'a.txt'), 'alpha');
    const src = await svc.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const wf = await svc.createWorkflow(WS, { ...localWorkflow('w', [gateNode]), source_id: src.id, schedule: 'every 15 minutes' });
    expect(svc.nextScheduledRun(WS, wf.id)?.toISOString()).toBe('2025-01-01T00:15:00.000Z');
    clock.set('2025-01-01T00:14:59Z');
    expect(await svc.listJobs(WS)).toEqual([]);
    plugin.closeGate();
    clock.set('2025-01-01T00:15:00Z');
    const [first] = await until(async () => {
      const j = await svc.listJobs(WS);
      return j.length ? j : undefined;
    }, 'the scheduled job');
    expect(first).toMatchObject({ job_type: 'scheduled', workflow_id: wf.id, created_at: '2025-01-01T00:15:00.000Z' });
    await until(async () => (await svc.getJob(WS, first!.id)).status === 'IN_PROGRESS', 'the job to run');
    clock.set('2025-01-01T00:30:00Z');
    await until(async () => logger.lines.some((l) => l.includes('scheduled run skipped')), 'the skip to be logged');
    expect(await svc.listJobs(WS)).toHaveLength(1);
    plugin.openGate();
    expect((await svc.waitForJob(WS, first!.id)).status).toBe('COMPLETED');
    clock.set('2025-01-01T00:45:00Z');
    await until(async () => (await svc.listJobs(WS)).length === 2, 'the 00:45 job');
    // Inactive workflows are not run by their schedule.
    await svc.waitForJob(WS, (await svc.listJobs(WS))[0]!.id);
    await svc.updateWorkflow(WS, wf.id, { status: 'inactive' });
    clock.set('2025-01-01T01:00:00Z');
    await sleep(50);
    expect(await svc.listJobs(WS)).toHaveLength(2);
  });

  it('after a restart: finds everything, fails interrupted jobs, never replays a missed slot', async () => {
    const clock = new ManualClock('2025-01-01T00:07:00Z');
    const first = await open({ clock });
    const src = await first.createConnector(WS, 'source', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const wf = await first.createWorkflow(WS, { ...localWorkflow('w'), source_id: src.id, schedule: 'every 15 minutes' });
    await first.close();
    // A crash left jobs unfinished, and a leftover on-demand workflow.
    await store.put('jobs', jobRow('crashed-1', WS, wf.id, 'IN_PROGRESS', '2025-01-01T00:05:00.000Z'));
    await store.put('jobs', jobRow('crashed-2', WS, wf.id, 'SCHEDULED', '2025-01-01T00:06:00.000Z'));
    await store.put('workflows', {
      ...(await store.get('workflows', WS, wf.id))!,
      id: 'ephemeral-1',
      name: 'on-demand x',
      ephemeral: true,
      schedule: undefined,
    });
    // Down over the 00:15 and 00:30 slots.
    clock.set('2025-01-01T00:31:00Z');
    const second = await open({ clock });
    expect(await second.getWorkflow(WS, wf.id)).toMatchObject({ name: 'w', sources: [src.id] });
    expect((await second.getConnector(WS, 'source', src.id)).name).toBe('inbox');
    const jobs = await second.listJobs(WS, { sort_direction: 'asc' });
    expect(jobs.map((j) => [j.id, j.status])).toEqual([
      ['crashed-1', 'FAILED'],
      ['crashed-2', 'FAILED'],
    ]);
    expect(jobs[0]!.message).toMatch(/stopped while this job was IN_PROGRESS/);
    expect((await second.listWorkflows(WS)).map((w) => w.id)).toEqual([wf.id]);
    expect(second.nextScheduledRun(WS, wf.id)?.toISOString()).toBe('2025-01-01T00:45:00.000Z');
  });
});
