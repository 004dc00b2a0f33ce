/**
 * E-mails attached to e-mails: attachments nested past QUARRY_MAX_EMBEDDING_DEPTH are left out
 * with one warning on the partition logger naming the file, the attachment and the variable; every
 * e-mail read keeps its body.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '@quarry/core';
import { partitionFile } from '../../src/index.js';
import { nestedEml } from '../support/hostile-files.js';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = (): void => undefined;
  return { warnings, debug: none, info: none, warn: (message: string) => void warnings.push(message), error: none };
}

const before = process.env.QUARRY_MAX_EMBEDDING_DEPTH;
afterEach(() => {
  if (before === undefined) delete process.env.QUARRY_MAX_EMBEDDING_DEPTH;
  else process.env.QUARRY_MAX_EMBEDDING_DEPTH = before;
});

describe('e-mails nested 200 deep', () => {
  it('reads 8 levels of attachments, each with its body, and warns once about the ninth', async () => {
    const logger = recordingLogger();
    const elements = await partitionFile(nestedEml(200), { filename: 'nested.eml', strategy: 'fast', logger });
    expect(elements.map((e) => e.text)).toEqual(Array.from({ length: 9 }, (_, i) => `Level ${200 - i}`));
    expect(elements.at(-1)?.metadata.attached_to_filename).toBe('level-193.eml');
    expect(logger.warnings).toEqual([
      'level-192.eml: attachment level-191.eml, nested 9 levels deep, past the limit of 8 levels left out (set QUARRY_MAX_EMBEDDING_DEPTH to raise it)',
    ]);
  });

  it('follows QUARRY_MAX_EMBEDDING_DEPTH', async () => {
    process.env.QUARRY_MAX_EMBEDDING_DEPTH = '2';
    const logger = recordingLogger();
    const elements = await partitionFile(nestedEml(200), { filename: 'nested.eml', strategy: 'fast', logger });
    expect(elements.map((e) => e.text)).toEqual(['Level 200', 'Level 199', 'Level 198']);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toBe(
      'level-198.eml: attachment level-197.eml, nested 3 levels deep, past the limit of 2 levels left out (set QUARRY_MAX_EMBEDDING_DEPTH to raise it)',
    );
  });
});
