import { afterEach, describe, expect, it } from 'vitest';
import { startServer, tempDir, type TestServer } from './support.js';

// A warmed server's pool: the general processes, the small lane's, and the lane's warm spare.
describe("the server's small lane", () => {
  const tmp = tempDir();
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('keeps two processes for small documents by default, and one when told', async () => {
    t = await startServer({ dataDir: tmp.dir, partitionPool: { size: 1, warm: true } });
    // 1 general + 2 lane + 1 spare.
    expect(t.server.pool.pids).toHaveLength(4);
    await t.close();
    t = await startServer({ dataDir: tmp.dir, partitionPool: { size: 1, smallLaneProcesses: 1, warm: true } });
    expect(t.server.pool.pids).toHaveLength(3);
  }, 60_000);
});
