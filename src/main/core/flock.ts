import { createRequire } from 'node:module';

/**
 * flock(2) through koffi: the same advisory lock the Rust agent takes with
 * `File::try_lock` (LEDGER.md §1). fcntl/OFD locks and lock directories do not
 * see it on Linux, so nothing else will do. Only the §7 branch append locks; reading
 * never does, not even to probe (proc-locks.ts tells whether an agent holds a file).
 */
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const EWOULDBLOCK_LINUX = 11;
const EWOULDBLOCK_DARWIN = 35;

type FlockFn = (fd: number, op: number) => number;
interface Koffi {
  load(path: string): { func(signature: string): FlockFn };
  errno(): number;
}

let bound: { flock: FlockFn; koffi: Koffi } | null = null;
let calls = 0;

/**
 * flock(2) calls this process made so far. The branch append is the only caller; the
 * tests assert that listing, opening and reading sessions leave this count unchanged.
 */
export function flockCalls(): number {
  return calls;
}

function binding(): { flock: FlockFn; koffi: Koffi } {
  if (bound) return bound;
  if (process.platform !== 'linux' && process.platform !== 'darwin') {
    throw new Error(`locking a ledger needs flock(2), which ${process.platform} does not have`);
  }
  // Loaded on first use: reading ledgers must work even where the native module cannot load.
  const koffi = createRequire(import.meta.url)('koffi') as Koffi;
  const lib = koffi.load(process.platform === 'darwin' ? 'libSystem.B.dylib' : 'libc.so.6');
  bound = { flock: lib.func('int flock(int fd, int operation)'), koffi };
  return bound;
}

export type TryLockResult = 'locked' | 'busy';

/** flock(fd, LOCK_EX | LOCK_NB): 'busy' when another open file description holds it. */
export function tryLockExclusive(fd: number): TryLockResult {
  const { flock, koffi } = binding();
  calls++;
  if (flock(fd, LOCK_EX | LOCK_NB) === 0) return 'locked';
  const err = koffi.errno();
  if (err === EWOULDBLOCK_LINUX || err === EWOULDBLOCK_DARWIN) return 'busy';
  throw new Error(`flock failed with errno ${err}`);
}

/** flock(fd, LOCK_UN): releases the lock this descriptor holds. */
export function unlock(fd: number): void {
  calls++;
  binding().flock(fd, LOCK_UN);
}
