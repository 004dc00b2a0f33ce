import { describe, expect, it } from 'vitest';
import { holdsSecrets, openConnectors, openJobSpec, sealConnectors, sealJobSpec, type JobConnectors } from '../src/sealed-connectors.js';
import type { JobSpec } from '../src/task.js';

const connectors: JobConnectors = {
  source: { type: 'local', config: { path: '/shared/docs' } },
  destinations: [{ type: 'search_index', config: { hosts: ['https://es:9200'], index_name: 'docs', search_api_key: 'c2VjcmV0LWtleS12YWx1ZQ==' } }],
};

describe('sealed connectors', () => {
  it('round-trips with the same secret and job, and keeps nothing of the configs readable', async () => {
    const sealed = await sealConnectors(connectors, 'shared secret', 'job-1');
    const stored = JSON.stringify(sealed);
    for (const visible of ['c2VjcmV0LWtleS12YWx1ZQ==', 'search_api_key', '/shared/docs', 'es:9200']) expect(stored).not.toContain(visible);
    expect(await openConnectors(sealed, 'shared secret', 'job-1')).toEqual(connectors);
    // A fresh salt and nonce every time.
    expect((await sealConnectors(connectors, 'shared secret', 'job-1')).data).not.toBe(sealed.data);
  });

  it('refuses without a secret, with another secret, under another job id, or altered', async () => {
    const sealed = await sealConnectors(connectors, 'shared secret', 'job-1');
    await expect(openConnectors(sealed, undefined, 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_REQUIRED', details: { job_id: 'job-1' } });
    await expect(openConnectors(sealed, '', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_REQUIRED' });
    await expect(openConnectors(sealed, 'other secret', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_MISMATCH' });
    await expect(openConnectors(sealed, 'shared secret', 'job-2')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_MISMATCH' });
    await expect(openConnectors(sealed, 'shared secret', 'job-1', { workflow_version: 'x' })).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_MISMATCH' });
    const bound = await sealConnectors(connectors, 'shared secret', 'job-1', { workflow_version: 'x', n: 1 });
    expect(await openConnectors(bound, 'shared secret', 'job-1', { n: 1, workflow_version: 'x' })).toEqual(connectors);
    await expect(openConnectors(bound, 'shared secret', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_MISMATCH' });
    const data = Buffer.from(sealed.data, 'base64');
    data[0] = data[0]! ^ 1;
    await expect(openConnectors({ ...sealed, data: data.toString('base64') }, 'shared secret', 'job-1')).rejects.toMatchObject({
      code: 'DISTRIBUTED_KEY_MISMATCH',
    });
    await expect(openConnectors({ ...sealed, alg: 'rot13' as never }, 'shared secret', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_JOB_INVALID' });
  });

  it('authenticates the rest of the job spec with the connectors: a workflow version swapped in Redis is refused', async () => {
    const spec: JobSpec = {
      job_id: 'job-1',
      workflow_id: 'wf',
      workflow_version: '0123456789abcdef',
      stall_warning_ms: 60_000,
      node_timeout_ms: 0,
      ...connectors,
    };
    const sealed = await sealJobSpec(spec, 'shared secret');
    const stored = JSON.parse(JSON.stringify(sealed.stored)) as typeof sealed.stored;
    expect(stored).toMatchObject({ workflow_version: '0123456789abcdef' });
    expect(stored).not.toHaveProperty('source');
    const opened = await openJobSpec(stored, 'shared secret', 'job-1');
    expect(opened.spec).toEqual(spec);
    for (const altered of [{ workflow_version: 'fedcba9876543210' }, { workflow_id: 'other' }, { node_timeout_ms: 1 }, { stall_warning_ms: 0 }]) {
      await expect(openJobSpec({ ...stored, ...altered }, 'shared secret', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_MISMATCH' });
    }
    // Without a secret nothing is sealed, nor authenticated, nor signed.
    const clear = await sealJobSpec(spec, undefined);
    expect(clear.taskKey).toBeUndefined();
    expect(await openJobSpec(clear.stored, undefined, 'job-1')).toEqual({ spec, taskKey: undefined });
  });

  it('gives the coordinator and the worker the same task key, and each job its own', async () => {
    const spec: JobSpec = {
      job_id: 'job-1',
      workflow_id: 'wf',
      workflow_version: '0123456789abcdef',
      stall_warning_ms: 60_000,
      node_timeout_ms: 0,
      ...connectors,
    };
    const a = await sealJobSpec(spec, 'shared secret');
    const b = await sealJobSpec({ ...spec, job_id: 'job-2' }, 'shared secret');
    expect(a.taskKey).toHaveLength(32);
    expect((await openJobSpec(a.stored, 'shared secret', 'job-1')).taskKey?.equals(a.taskKey as Buffer)).toBe(true);
    expect(b.taskKey?.equals(a.taskKey as Buffer)).toBe(false);
  });

  it('tells configs holding credentials from those without', () => {
    expect(holdsSecrets(connectors)).toBe(true);
    expect(holdsSecrets({ source: { type: 'local', config: { path: '/d' } }, destinations: [{ type: 'local', config: { path: '/o' } }] })).toBe(false);
    expect(holdsSecrets({ source: { type: 'local' }, destinations: [{ type: 'x', config: { nested: { password: 'p' } } }] })).toBe(true);
    expect(holdsSecrets({ source: { type: 'local' }, destinations: [{ type: 'x', config: { api_key: null } }] })).toBe(false);
    // A password written in a host URL is a credential too.
    expect(
      holdsSecrets({
        source: { type: 'local' },
        destinations: [{ type: 'search_index', config: { hosts: ['https://elastic:pw@es:9200'], index_name: 'docs' } }],
      }),
    ).toBe(true);
  });
});
