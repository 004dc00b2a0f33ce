import { describe, expect, it } from 'vitest';
import { holdsSecrets, openConnectors, sealConnectors, type JobConnectors } from '../src/sealed-connectors.js';

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
    const data = Buffer.from(sealed.data, 'base64');
    data[0] = data[0]! ^ 1;
    await expect(openConnectors({ ...sealed, data: data.toString('base64') }, 'shared secret', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_KEY_MISMATCH' });
    await expect(openConnectors({ ...sealed, alg: 'rot13' as never }, 'shared secret', 'job-1')).rejects.toMatchObject({ code: 'DISTRIBUTED_JOB_INVALID' });
  });

  it('tells configs holding credentials from those without', () => {
    expect(holdsSecrets(connectors)).toBe(true);
    expect(holdsSecrets({ source: { type: 'local', config: { path: '/d' } }, destinations: [{ type: 'local', config: { path: '/o' } }] })).toBe(false);
    expect(holdsSecrets({ source: { type: 'local' }, destinations: [{ type: 'x', config: { nested: { password: 'p' } } }] })).toBe(true);
    expect(holdsSecrets({ source: { type: 'local' }, destinations: [{ type: 'x', config: { api_key: null } }] })).toBe(false);
  });
});
