/**
 * Wall-clock bounds for the hostile images of `hostile-images.test.ts`: the header check refuses
 * a huge image and libvips rejects corrupt data at once, where Skia and utif2 decoded for minutes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOSTILE_GENERATORS } from '../support/hostile-files.js';
import { probeFile } from '../support/hostile-probe.js';

const IMAGES = Object.keys(HOSTILE_GENERATORS).filter((name) => /\.(png|jpg|tiff|gif|webp|bmp)$/.test(name));

// Measured: 0.36-0.92 s from the start of partitioning to the child's exit (300 ms of which is
// the probe's grace period); before, 60 s and more for the huge ones.
const BOUND_MS = 10_000;

const dir = mkdtempSync(path.join(tmpdir(), 'hostile-images-timing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hostile images are refused quickly', () => {
  it.each(IMAGES)(
    '%s is refused within 10 s',
    async (name) => {
      const file = path.join(dir, name);
      writeFileSync(file, HOSTILE_GENERATORS[name]!().bytes);
      const r = await probeFile(file, { strategy: 'fast', timeoutMs: 60_000, heapMb: 1024 });
      expect(r.outcome, r.detail).toBe('error');
      expect(r.ms).toBeLessThan(BOUND_MS);
    },
    120_000,
  );
});
