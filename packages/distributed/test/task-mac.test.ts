import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasValidMac, taskKeyOf, taskMac } from '../src/task-mac.js';
import type { TaskData } from '../src/task.js';

const key = taskKeyOf(randomBytes(32));
const task: TaskData = {
  job_id: 'job-1',
  workflow_id: 'wf',
  workflow_version: '0123456789abcdef',
  record: { record_id: 'a.pdf', filename: 'a.pdf', data_source: { url: 'file:///d/a.pdf', version: 'v1' } },
};

describe('task signatures', () => {
  it('verify a task as it comes back from JSON, whatever its key order', () => {
    const signed: TaskData = { ...task, mac: taskMac(key, task) };
    expect(hasValidMac(key, JSON.parse(JSON.stringify(signed)) as TaskData)).toBe(true);
    const reordered = {
      mac: signed.mac,
      record: { data_source: task.record.data_source, filename: 'a.pdf', record_id: 'a.pdf' },
      workflow_version: task.workflow_version,
      workflow_id: 'wf',
      job_id: 'job-1',
    } as TaskData;
    expect(hasValidMac(key, reordered)).toBe(true);
  });

  it('refuse an unsigned task, another record, another job, another key or a mangled signature', () => {
    const mac = taskMac(key, task);
    expect(hasValidMac(key, task)).toBe(false);
    expect(hasValidMac(key, { ...task, record: { ...task.record, record_id: 'b.pdf' }, mac })).toBe(false);
    expect(hasValidMac(key, { ...task, job_id: 'job-2', mac })).toBe(false);
    expect(hasValidMac(taskKeyOf(randomBytes(32)), { ...task, mac })).toBe(false);
    expect(hasValidMac(key, { ...task, mac: mac.slice(0, -2) })).toBe(false);
    expect(hasValidMac(key, { ...task, mac: 7 as unknown as string })).toBe(false);
  });
});
