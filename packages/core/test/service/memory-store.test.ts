import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/service/index.js';
import { storeConformance, workflowRow } from './store-conformance.js';

storeConformance('MemoryStore', async () => new MemoryStore());

describe('MemoryStore', () => {
  it('refuses to move an id into another workspace', async () => {
    const s = new MemoryStore();
    await s.put('workflows', workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z'));
    await expect(s.put('workflows', workflowRow('w1', 'beta', '2025-01-01T00:00:00.000Z'))).rejects.toThrow(/another workspace/);
  });

  it('is unusable once closed', async () => {
    const s = new MemoryStore();
    await s.close();
    await expect(s.list('jobs', {})).rejects.toThrow(/closed/);
  });
});
