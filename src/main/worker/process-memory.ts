import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';

/**
 * How the process allocates, set once as the core's worker first starts: both settings are per
 * process, and both are about memory a big session's work leaves behind.
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

/** What `fixMmapThreshold` did: set, or why not. */
export type MmapThreshold = { fixed: number } | { skipped: string };

interface Mallopt {
  load(path: string): { func(signature: string): (param: number, value: number) => number };
}

/**
 * glibc's malloc maps a block of 128 KiB or more on its own and gives it back when freed, but each
 * such block freed raises that threshold to its size (up to 32 MiB): the big buffers after it (a
 * file's read slabs, a reply's text, the typed arrays of an index or a series' columns) are then
 * carved from the threads' arenas, which keep what is freed among blocks still in use. Over a
 * 1 GiB session's first open and chart the serving process then peaked 13–15 MiB higher
 * (docs/performance.md, stop 30). Setting the threshold turns that raising off.
 *
 * Where there is no glibc (musl, macOS, Windows) or the native module cannot load, nothing
 * changes: this is a saving, never a condition. (Electron keeps array buffers in V8's memory cage
 * rather than in malloc's blocks: it may save less there; not measured, no Electron binary here.)
 */
export function fixMmapThreshold(bytes = MMAP_THRESHOLD_BYTES): MmapThreshold {
  if (process.platform !== 'linux') return { skipped: `${process.platform} has no glibc malloc` };
  try {
    // (No glibc, as on musl: there is no libc.so.6 to load.)
    const koffi = createRequire(import.meta.url)('koffi') as Mallopt;
    const mallopt = koffi.load('libc.so.6').func('int mallopt(int param, int value)');
    return mallopt(M_MMAP_THRESHOLD, bytes) === 1 ? { fixed: bytes } : { skipped: 'mallopt refused it' };
  } catch (e) {
    return { skipped: `mallopt could not be called: ${(e as Error).message}` };
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
