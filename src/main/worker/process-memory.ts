import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';

/**
 * How the process allocates: V8's and glibc's settings, set once as the core's worker first starts
 * (each is per process), and the memory the threads freed, given back after work. All are about
 * memory a session's work leaves behind.
 */

/**
 * V8's allocation-site pretenuring off. It allocates straight into the old generation from any
 * site whose objects mostly outlived a scavenge, and keeps doing so: by the time a chart's series
 * ran, the sites that parse an entry's Full shape were marked, and the series, which parses every
 * entry of a chain and drops each at once, filled the old generation with them until the next full
 * collection (profiled over a 1 GiB series: 184 MiB so allocated, the worker's heap at 318 MB
 * instead of 244). The serving process peaked ~90 MiB higher on an open from the kept index.
 */
function pretenuringOff(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * V8 grows a heap after a full collection by a factor it picks from how fast it collects, up to
 * 4× what is live; the core's worker, whose live heap is a big session's index and a chain's scan
 * (~200 MB at 1 GiB), then let a chart's series fill ~100 MiB more with what it parses and drops
 * before collecting. A fixed 1.5× keeps that peak near what is live: a 1 GiB session's first open
 * and chart peaked at 455–467 MiB instead of 524–542 (docs/performance.md, stop 30), for more
 * frequent full collections (the series took 5–35% longer there; at 1.3× it took half as long
 * again). Per process: the main thread's and the secret scan's small heaps grow by V8's minimum
 * step anyway.
 */
export const HEAP_GROWING_PERCENT = 50;
function heapGrowingFixed(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** glibc's `mallopt` parameter for the size from which a block is mapped on its own. */
const M_MMAP_THRESHOLD = -3;
/** glibc's initial threshold, kept: a block of 128 KiB or more is mapped on its own and unmapped when freed. */
export const MMAP_THRESHOLD_BYTES = 128 << 10;

/** What a call into glibc's malloc did: done, or why not. */
export type MmapThreshold = { fixed: number } | { skipped: string };
export type GaveBack = { trimmed: true } | { skipped: string };

interface Koffi {
  load(path: string): { func(signature: string): (...args: number[]) => number };
}

/** The two calls of glibc's malloc the process makes, or why they cannot be made here. */
type Glibc = { mallopt(param: number, value: number): number; mallocTrim(pad: number): number } | { skipped: string };
let glibc: Glibc | null = null;

/**
 * glibc, loaded once through koffi (the native module `flock` loads). Where there is no glibc
 * (musl, macOS, Windows) or the module cannot load, every saving here is skipped: a saving, never
 * a condition. (Electron keeps array buffers in V8's memory cage and much of its own memory in its
 * own allocator rather than in malloc's blocks: both may save less there; not measured, no Electron
 * binary here.)
 */
function loadGlibc(): Glibc {
  if (glibc) return glibc;
  if (process.platform !== 'linux') return (glibc = { skipped: `${process.platform} has no glibc malloc` });
  try {
    // (No glibc, as on musl: there is no libc.so.6 to load.)
    const libc = (createRequire(import.meta.url)('koffi') as Koffi).load('libc.so.6');
    glibc = {
      mallopt: libc.func('int mallopt(int param, int value)'),
      mallocTrim: libc.func('int malloc_trim(size_t pad)'),
    };
  } catch (e) {
    glibc = { skipped: `glibc's malloc could not be called: ${(e as Error).message}` };
  }
  return glibc;
}

/**
 * glibc's malloc maps a block of 128 KiB or more on its own and gives it back when freed, but each
 * such block freed raises that threshold to its size (up to 32 MiB): the big buffers after it (a
 * file's read slabs, a reply's text, the typed arrays of an index or a series' columns) are then
 * carved from the threads' arenas, which keep what is freed among blocks still in use. Over a
 * 1 GiB session's first open and chart the serving process then peaked 13–15 MiB higher
 * (docs/performance.md, stop 30). Setting the threshold turns that raising off.
 */
export function fixMmapThreshold(bytes = MMAP_THRESHOLD_BYTES): MmapThreshold {
  const c = loadGlibc();
  if ('skipped' in c) return c;
  return c.mallopt(M_MMAP_THRESHOLD, bytes) === 1 ? { fixed: bytes } : { skipped: 'mallopt refused it' };
}

/**
 * Gives the pages of what the threads freed back to the system (`malloc_trim(0)`). glibc keeps a
 * freed block's pages in its arena for the next allocation, and gives back only the arena's free
 * top, so after a session's open and a few leaves ~10 MiB of freed read slabs, lines and replies
 * stayed resident among the blocks still in use, until the process ended (a 100 MB session's
 * serving process: 211 → 202 MiB, the trim taking 1–1.5 ms). Walks every arena, one at a time
 * under its lock: a thread allocating from that arena meanwhile waits for it.
 */
export function giveFreedMallocBack(): GaveBack {
  const c = loadGlibc();
  if ('skipped' in c) return c;
  c.mallocTrim(0);
  return { trimmed: true };
}

/**
 * Growth of the process's resident memory since it was last lowest after work from which that
 * work's freed memory is given back. A click's work frees little, and the next click would only
 * fault those pages in again; an open or a chart's series grows the process by tens of MiB.
 */
export const TRIM_AFTER_GROWTH_BYTES = 4 << 20;

/**
 * After work, what the threads freed is given back (`giveFreedMallocBack`) when the process grew by
 * `TRIM_AFTER_GROWTH_BYTES` since the lowest it was seen at after work. Reading the resident size
 * costs microseconds; a trim, a millisecond and the pages it gives back.
 */
export class FreedMemory {
  private low: number;
  private trimmed = 0;

  constructor(
    private readonly rss: () => number = () => process.memoryUsage.rss(),
    private readonly trim: () => unknown = giveFreedMallocBack,
  ) {
    this.low = rss();
  }

  /** The work is over for now: gives back what it freed, if it grew the process enough. */
  afterWork(): void {
    const now = this.rss();
    if (now - this.low < TRIM_AFTER_GROWTH_BYTES) {
      this.low = Math.min(this.low, now);
      return;
    }
    this.trim();
    this.trimmed++;
    this.low = this.rss();
  }

  /** How many times it gave memory back. */
  get trims(): number {
    return this.trimmed;
  }
}

let v8Set = false;
let thresholdSet = false;

/** V8's settings once per process, before the first worker starts (its isolate takes V8's flags as they are then). */
export function v8SettingsOnce(): void {
  if (v8Set) return;
  v8Set = true;
  pretenuringOff();
  heapGrowingFixed();
}

/** The threshold fixed once per process; any time before a session is read (loading the module takes a few ms). */
export function mmapThresholdOnce(): void {
  if (thresholdSet) return;
  thresholdSet = true;
  fixMmapThreshold();
}
