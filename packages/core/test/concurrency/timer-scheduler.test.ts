import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BatchQueue } from '../../src/concurrency/batch-queue.js';
import { timers } from '../../src/concurrency/timer-scheduler.js';

const source = fileURLToPath(new URL('../../src/concurrency/timer-scheduler.ts', import.meta.url));

/** Runs a module script in a fresh Node with the sources; returns its exit and output. */
function runScript(script: string): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  expect(r.stderr).toBe('');
  return { status: r.status, stdout: r.stdout.trim() };
}

describe('timers, the real clock of the queue', () => {
  it('runs work after its delay, and not once unsubscribed', async () => {
    const clock = timers();
    const ran: string[] = [];
    clock.schedule(() => ran.push('kept'), 20);
    clock.schedule(() => ran.push('cleared'), 10).unsubscribe();
    await new Promise((r) => setTimeout(r, 60));
    expect(ran).toEqual(['kept']);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(5);
  });

  it('is the default clock of BatchQueue: a partial batch goes flushMs after its first item', async () => {
    const sent: string[][] = [];
    const queue = new BatchQueue<string>({ maxItems: 10, flushMs: 30 }, { run: async (batch) => void sent.push(batch) });
    queue.push('a');
    queue.push('b');
    await new Promise((r) => setTimeout(r, 5));
    expect(sent).toEqual([]);
    await queue.idle();
    expect(sent).toEqual([['a', 'b']]);
  });

  it('keeps the process alive for a pending timer unless keepAlive is false', () => {
    const script = (keepAlive: boolean): string =>
      `import { timers } from ${JSON.stringify(source)};
       timers({ keepAlive: ${keepAlive} }).schedule(() => console.log('fired'), 1500);
       console.log('armed');`;
    const kept = runScript(script(true));
    expect([kept.status, kept.stdout]).toEqual([0, 'armed\nfired']);
    const unref = runScript(script(false));
    expect([unref.status, unref.stdout]).toEqual([0, 'armed']);
  }, 60_000);
});
