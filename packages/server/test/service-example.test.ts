import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { partitionInProcess } from './service-example.js';
import { tempDir } from './support.js';

const readme = readFileSync(fileURLToPath(new URL('../../core/README.md', import.meta.url)), 'utf8');
const section = readme.slice(readme.indexOf('## Workflow service'), readme.indexOf('\n## ', readme.indexOf('## Workflow service') + 1));
const example = readFileSync(fileURLToPath(new URL('./service-example.ts', import.meta.url)), 'utf8');

describe('the core README section on WorkflowService', () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  it('quotes this tested example verbatim, and it runs', async () => {
    expect(section).toContain(example);
    const r = await partitionInProcess(tmp.dir, 'Meeting notes\n\nWe agreed on the plan and closed the meeting early.');
    expect(r.status).toBe('COMPLETED');
    expect(r.elements.map((e) => e.text)).toEqual(['Meeting notes', 'We agreed on the plan and closed the meeting early.']);
  });
});
