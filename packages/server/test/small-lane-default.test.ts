import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, tempDir, type TestServer } from './support.js';

// A warmed server's pool: the general processes and the small lane's; with one lane process, a warm
// spare beside it (at background priority until a hand-off promotes it).
describe("the server's small lane", () => {
  const tmp = tempDir();
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('keeps two processes for small documents by default, and one with a spare when told', async () => {
    const priorities = () => t!.server.pool.pids.map((pid) => getPriority(pid));
    const [normal, background] = [getPriority(), Math.min(19, getPriority() + 10)];
    t = await startServer({ dataDir: tmp.dir, partitionPool: { size: 1, warm: true, backgroundPriority: true } });
    // 1 general + 2 lane processes, no spare.
    expect(priorities()).toEqual([background, normal, normal]);
    await t.close();
    t = await startServer({ dataDir: tmp.dir, partitionPool: { size: 1, smallLaneProcesses: 1, warm: true, backgroundPriority: true } });
    // 1 general + 1 lane + its spare.
    expect(priorities()).toEqual([background, normal, background]);
  }, 60_000);
});
