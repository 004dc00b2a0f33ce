import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { partitionSchedulingOptions, partitionSchedulingPoolOptions } from '../src/partition-scheduling.js';

function parse(args: string[]): Record<string, unknown> {
  const command = partitionSchedulingOptions(new Command('serve').exitOverride().configureOutput({ writeErr: () => {} }));
  command.parse(args, { from: 'user' });
  return command.opts();
}

describe('quarry serve scheduling flags', () => {
  it('turn into the partition pool options, and leave the defaults alone when absent', () => {
    const opts = parse([
      '--small-document-mb',
      '0.5',
      '--small-lane-processes',
      '0',
      '--max-documents-per-process',
      '20',
      '--idle-recycle',
      '10',
      '--partition-deadline',
      '120',
    ]);
    expect(opts).toMatchObject({ partitionDeadline: 120 });
    expect(partitionSchedulingPoolOptions(opts)).toEqual({
      smallDocumentBytes: 524288,
      smallLaneProcesses: 0,
      maxDocumentsPerProcess: 20,
      idleTimeoutMs: 10_000,
      backgroundPriority: true,
    });
    expect(partitionSchedulingPoolOptions(parse([]))).toEqual({ backgroundPriority: true });
    expect(partitionSchedulingPoolOptions(parse(['--no-background-priority']))).toEqual({ backgroundPriority: false });
  });

  it('refuse values that are not counts or sizes, naming what they expected', () => {
    expect(() => parse(['--idle-recycle', '-1'])).toThrow(/expected a whole number, 0 or more, got "-1"/);
    expect(() => parse(['--small-document-mb', '0'])).toThrow(/expected a positive number, got "0"/);
  });
});
