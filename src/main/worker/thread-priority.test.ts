import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir';
import { currentThreadId, WORKER_NICE_INCREMENT } from './thread-priority';
import { WorkerBackend } from './worker-backend';

const tempDir = useTempDir('vak-nice-');
const open: WorkerBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

/** This process's threads and their nice values (Linux /proc; field 19 of `stat`). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      out.set(Number(t), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('the backend worker runs below the main thread (event-loop delay)', () => {
  it('names the calling thread', () => {
    const tid = currentThreadId();
    expect(tid).not.toBeNull();
    expect(threadNices().has(tid as number)).toBe(true);
  });

  it("a WorkerBackend's thread is nicer than the thread that routes its calls, which keeps its priority", async (ctx) => {
    const me = currentThreadId() as number;
    const mine = getPriority(me);
    if (mine + WORKER_NICE_INCREMENT > 19) {
      ctx.skip(`this test runs at nice ${mine}: no room to run a thread ${WORKER_NICE_INCREMENT} nicer`);
    }
    const b = await WorkerBackend.create({
      home: tempDir(),
      isDemo: false,
      label: 'test',
      lockPollMs: 0,
      watch: false,
    });
    open.push(b);
    // The worker names its own thread: other test files' workers may start in this process meanwhile.
    const { osThread } = await b.stats();
    expect(osThread).not.toBeNull();
    expect(osThread).not.toBe(me);
    expect(threadNices().get(osThread as number)).toBe(mine + WORKER_NICE_INCREMENT);
    expect(getPriority(me)).toBe(mine);
  });
});
