import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOnWorkers } from './readme-example.js';
import { redisSkipReason, startRedisServer, type RedisServer } from './support/redis-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('README example', () => {
  it('is shown in the README exactly as tested', () => {
    const readme = path.resolve(here, '..', 'README.md');
    expect(existsSync(readme)).toBe(true);
    expect(readFileSync(readme, 'utf8')).toContain(readFileSync(path.join(here, 'readme-example.ts'), 'utf8').trim());
  });

  describe.skipIf(redisSkipReason !== undefined)(`runs${redisSkipReason ? ` (skipped: ${redisSkipReason})` : ''}`, () => {
    let redis: RedisServer;
    let tmp: string;
    beforeAll(async () => {
      redis = await startRedisServer();
      tmp = mkdtempSync(path.join(tmpdir(), 'quarry-readme-'));
    });
    afterAll(async () => {
      await redis?.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('partitions a folder on two workers', async () => {
      const input = path.join(tmp, 'notes');
      mkdirSync(input);
      writeFileSync(path.join(input, 'a.md'), '# Alpha\n\nThe first note is a full sentence with several words in it.\n');
      writeFileSync(path.join(input, 'b.txt'), 'Second note, plain text.\n');
      const summary = await partitionOnWorkers(redis.url, input, path.join(tmp, 'out'));
      expect(summary).toMatchObject({ status: 'COMPLETED', counts: { total: 2, written: 2, failed: 0 } });
      const a = JSON.parse(readFileSync(path.join(tmp, 'out', 'a.md.json'), 'utf8')) as Array<{ type: string; text: string }>;
      expect(a.map((e) => [e.type, e.text])).toEqual([
        ['Title', 'Alpha'],
        ['NarrativeText', 'The first note is a full sentence with several words in it.'],
      ]);
    });
  });
});
