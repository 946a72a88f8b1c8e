import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../../test-support/temp-dir';
import { linuxMajor, linuxMinor, parseProcLocks, readLockTable } from './proc-locks';

const tmp = useTempDir('vak-proc-locks-');

/** glibc's makedev(), to check the decomposition both ways. */
function makedev(major: bigint, minor: bigint): bigint {
  return (minor & 0xffn) | ((major & 0xfffn) << 8n) | ((minor & ~0xffn) << 12n) | ((major & ~0xfffn) << 32n);
}

describe('parseProcLocks', () => {
  const text = [
    '1: FLOCK  ADVISORY  WRITE 9330 fe:00:2147151 0 EOF',
    '1: -> FLOCK  ADVISORY  WRITE 9331 fe:00:99 0 EOF',
    '2: POSIX  ADVISORY  WRITE 812 00:19:1234 0 EOF',
    '3: OFDLCK ADVISORY  WRITE -1 00:19:777 0 EOF',
    '4: FLOCK  ADVISORY  READ 811 00:19:555 0 EOF',
    '5: FLOCK  ADVISORY  WRITE 1 103:12c:18446744073709551615 0 EOF',
    'garbage',
    '',
  ].join('\n');
  const t = parseProcLocks(text);

  it('keeps only exclusive flock holders, not waiters, fcntl, OFD or shared locks', () => {
    expect(t.size).toBe(2);
    expect(t.stateOf(makedev(0xfen, 0n), 2147151n)).toBe('held');
    expect(t.stateOf(makedev(0xfen, 0n), 99n)).toBe('free'); // a waiter holds nothing
    expect(t.stateOf(makedev(0n, 0x19n), 1234n)).toBe('free');
    expect(t.stateOf(makedev(0n, 0x19n), 777n)).toBe('free');
    expect(t.stateOf(makedev(0n, 0x19n), 555n)).toBe('free');
  });

  it('matches devices with a big minor number and 64-bit inodes', () => {
    expect(t.stateOf(makedev(0x103n, 0x12cn), 18446744073709551615n)).toBe('held');
    expect(t.stateOf(makedev(0x103n, 0x12dn), 18446744073709551615n)).toBe('free');
  });

  it('decomposes dev_t as Linux encodes it', () => {
    for (const [maj, min] of [
      [8n, 1n],
      [254n, 0n],
      [259n, 300n],
      [4095n, 255n],
      [4096n, 1048575n],
    ] as const) {
      const dev = makedev(maj, min);
      expect([linuxMajor(dev), linuxMinor(dev)]).toEqual([maj, min]);
    }
  });
});

const HAVE_PROC_LOCKS = process.platform === 'linux' && existsSync('/proc/locks');
const HAVE_FLOCK = spawnSync('flock', ['--version']).status === 0;
if (!HAVE_PROC_LOCKS || !HAVE_FLOCK) {
  console.log('SKIPPED real /proc/locks test: needs Linux /proc/locks and util-linux flock(1)');
}

describe.runIf(HAVE_PROC_LOCKS && HAVE_FLOCK)('readLockTable against a real flock holder', () => {
  let holder: ChildProcess | null = null;
  afterEach(() => {
    if (holder?.pid !== undefined) {
      try {
        process.kill(-holder.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    holder = null;
  });

  it('says held while util-linux flock holds the file, free once it is gone', async () => {
    const file = join(tmp(), 'held.jsonl');
    writeFileSync(file, '{}\n');
    const st = statSync(file, { bigint: true });
    expect(readLockTable()!.stateOf(st.dev, st.ino)).toBe('free');
    holder = spawn('flock', ['-n', file, '-c', 'echo locked; sleep 30'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      holder!.stdout!.once('data', () => resolve());
      holder!.once('exit', (code) => reject(new Error(`flock exited ${code}`)));
    });
    expect(readLockTable()!.stateOf(st.dev, st.ino)).toBe('held');
    const exited = new Promise((r) => holder!.once('exit', r));
    process.kill(-holder.pid!, 'SIGKILL');
    await exited;
    holder = null;
    // The shell and its sleep die with the group; the lock goes with the last of them.
    let state = 'held';
    for (let k = 0; k < 200 && state === 'held'; k++) {
      await new Promise((r) => setTimeout(r, 10));
      state = readLockTable()!.stateOf(st.dev, st.ino);
    }
    expect(state).toBe('free');
  });
});
