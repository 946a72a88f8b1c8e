import { fstatSync, readFileSync } from 'node:fs';

/**
 * Whether an agent holds a ledger's flock, seen without taking it (LEDGER.md §1,
 * docs/security.md). Probing with `flock(LOCK_EX|LOCK_NB)` would make the agent's own
 * `try_lock` fail with `Locked` whenever it lands on our probe, so the explorer never
 * does that: on Linux it reads the kernel's table of locks, `/proc/locks`, once per
 * listing, and matches device and inode. Where there is no such table the answer is
 * 'unknown', never a guess.
 *
 * A line of /proc/locks reads `1: FLOCK  ADVISORY  WRITE 9330 fe:00:2147151 0 EOF`
 * (blocked waiters carry `->` after the number and hold nothing). The device is
 * printed as the kernel's MAJOR:MINOR in hex.
 */

/** The flock(LOCK_EX) holders of the system at one moment: `major:minor:inode` keys. */
export class LockTable {
  constructor(private readonly held: ReadonlySet<string>) {}

  /** 'held' when some process holds an exclusive flock on the file with this device and inode. */
  stateOf(dev: bigint, ino: bigint): 'held' | 'free' {
    return this.held.has(lockKey(linuxMajor(dev), linuxMinor(dev), ino)) ? 'held' : 'free';
  }

  /** The state of an open descriptor's file (one fstat; no lock taken). */
  stateOfFd(fd: number): 'held' | 'free' {
    const st = fstatSync(fd, { bigint: true });
    return this.stateOf(st.dev, st.ino);
  }

  get size(): number {
    return this.held.size;
  }
}

// The masks are glibc's 32-bit ones: with BigInt, `~0xff` would keep the major's high
// bits (shifted into the minor's range) instead of cutting them off.

/** glibc's major(): the device number Node's stat gives, decomposed as Linux encodes it. */
export function linuxMajor(dev: bigint): bigint {
  return ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n);
}

/** glibc's minor(). */
export function linuxMinor(dev: bigint): bigint {
  return (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n);
}

function lockKey(major: bigint, minor: bigint, ino: bigint): string {
  return `${major}:${minor}:${ino}`;
}

/** The FLOCK WRITE locks held (not waited for) in the text of /proc/locks. */
export function parseProcLocks(text: string): LockTable {
  const held = new Set<string>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    // f: ["1:", "FLOCK", "ADVISORY", "WRITE", pid, "maj:min:ino", start, end]; waiters have "->" at f[1].
    if (f.length < 6 || f[1] !== 'FLOCK' || f[3] !== 'WRITE') continue;
    const m = /^([0-9a-f]+):([0-9a-f]+):(\d+)$/i.exec(f[5]);
    if (!m) continue;
    held.add(lockKey(BigInt('0x' + m[1]), BigInt('0x' + m[2]), BigInt(m[3])));
  }
  return new LockTable(held);
}

/** Where the kernel lists locks (a parameter for tests). */
export const PROC_LOCKS = '/proc/locks';

/**
 * Reads the system's lock table once, or null where there is none to read (not
 * Linux, or /proc not mounted): then every session's lock state is 'unknown'.
 */
export function readLockTable(path: string = PROC_LOCKS): LockTable | null {
  if (process.platform !== 'linux') return null;
  try {
    return parseProcLocks(readFileSync(path, 'latin1'));
  } catch {
    return null;
  }
}
