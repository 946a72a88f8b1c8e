/**
 * The process's malloc settings, in real processes:
 * - the fixed threshold: after a big block is freed, glibc by default carves the next big blocks
 *   from its arenas; with the threshold fixed each is mapped on its own (and so unmapped when
 *   freed). Counted by glibc itself (`mallinfo2().hblks`, blocks mapped).
 * - the memory given back after work: freed blocks among blocks still in use stay resident until
 *   trimmed. Read from the kernel (`VmRSS`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FreedMemory, TRIM_AFTER_GROWTH_BYTES } from './process-memory';

const MODULE = pathToFileURL(resolve('src/main/worker/process-memory.ts')).href;

/** A child that frees an 8 MiB block, then holds five 1 MiB ones: how many of those glibc mapped, and what fixing said. */
const CHILD = `
import { createRequire } from 'node:module';
import { fixMmapThreshold } from ${JSON.stringify(MODULE)};
const koffi = createRequire(${JSON.stringify(MODULE)})('koffi');
const libc = koffi.load('libc.so.6');
const malloc = libc.func('void *malloc(size_t size)');
const free = libc.func('void free(void *ptr)');
const fields = ['arena', 'ordblks', 'smblks', 'hblks', 'hblkhd', 'usmblks', 'fsmblks', 'uordblks', 'fordblks', 'keepcost'];
const mallinfo2 = libc.func('mallinfo2', koffi.struct('mallinfo2', Object.fromEntries(fields.map((f) => [f, 'size_t']))), []);
const fixed = process.argv[2] === 'fixed' ? fixMmapThreshold() : null;
free(malloc(8 << 20));
const before = Number(mallinfo2().hblks);
const held = Array.from({ length: 5 }, () => malloc(1 << 20));
const mapped = Number(mallinfo2().hblks) - before;
held.forEach((p) => free(p));
console.log(JSON.stringify({ fixed, mapped }));
`;

/**
 * A child that holds 16 MiB of 64 KiB blocks with 16 MiB freed among them (each freed block
 * between two held ones, so none joins the arena's free top), all written to: its RSS before and
 * after giving freed memory back (or not), in MiB.
 */
const TRIM_CHILD = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { giveFreedMallocBack } from ${JSON.stringify(MODULE)};
const koffi = createRequire(${JSON.stringify(MODULE)})('koffi');
const libc = koffi.load('libc.so.6');
const malloc = libc.func('void *malloc(size_t size)');
const free = libc.func('void free(void *ptr)');
const memset = libc.func('void *memset(void *s, int c, size_t n)');
const rss = () => Number(/VmRSS:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const SIZE = 64 << 10;
const held = [];
const freed = [];
for (let k = 0; k < 256; k++) {
  for (const list of [freed, held]) {
    const p = malloc(SIZE);
    memset(p, 1, SIZE);
    list.push(p);
  }
}
freed.forEach((p) => free(p));
const before = rss();
const gave = process.argv[2] === 'trim' ? giveFreedMallocBack() : null;
console.log(JSON.stringify({ gave, before, after: rss() }));
held.forEach((p) => free(p));
`;

function run<T>(child: string, mode: string): T {
  const dir = mkdtempSync(join(tmpdir(), 'vak-malloc-'));
  try {
    const file = join(dir, 'child.mts');
    writeFileSync(file, child);
    const r = spawnSync(process.execPath, ['bin/run-ts.mjs', file, mode], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
type Mapped = { fixed: unknown; mapped: number };
type Trimmed = { gave: unknown; before: number; after: number };

const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
const glibc = process.platform === 'linux' && Boolean(report?.header?.glibcVersionRuntime);
if (!glibc) console.log('process-memory.test: skipped, this machine has no glibc (the setting is skipped there too)');

describe.skipIf(!glibc)("the serving process's malloc settings", () => {
  it('maps big blocks on their own after a bigger one was freed; by default glibc carves them from its arena', () => {
    const dflt = run<Mapped>(CHILD, 'default');
    // The default raised its threshold to 8 MiB with the free: no 1 MiB block is mapped.
    expect(dflt.mapped).toBeLessThan(5);
    const fixed = run<Mapped>(CHILD, 'fixed');
    expect(fixed.fixed).toEqual({ fixed: 128 << 10 });
    expect(fixed.mapped).toBeGreaterThanOrEqual(5);
  });

  it('gives the pages of freed blocks back to the system; without it they stay resident', () => {
    const kept = run<Trimmed>(TRIM_CHILD, 'keep');
    expect(kept.gave).toBeNull();
    expect(kept.before - kept.after).toBeLessThan(2);
    const trimmed = run<Trimmed>(TRIM_CHILD, 'trim');
    expect(trimmed.gave).toEqual({ trimmed: true });
    // Of the 16 MiB freed, all but each block's first page (its header's) goes back.
    expect(trimmed.before - trimmed.after).toBeGreaterThan(12);
  });
});

describe('freed memory given back after work that grew the process', () => {
  it('trims once the process grew by the threshold since its lowest after work, not for less', () => {
    let rss = 100 << 20;
    const trims: number[] = [];
    const freed = new FreedMemory(
      () => rss,
      () => {
        trims.push(rss);
        rss -= 2 << 20; // what the trim gave back
      },
    );
    // A click's work: the process grew by less than the threshold.
    rss += TRIM_AFTER_GROWTH_BYTES - 1;
    freed.afterWork();
    expect(trims).toHaveLength(0);
    // An open: it grew past it (counted from the lowest seen, not from the last reading).
    rss += 1;
    freed.afterWork();
    expect(trims).toEqual([(100 << 20) + TRIM_AFTER_GROWTH_BYTES]);
    // The process fell (V8 gave its heap back): growth now counts from there.
    rss -= 10 << 20;
    freed.afterWork();
    rss += TRIM_AFTER_GROWTH_BYTES;
    freed.afterWork();
    expect(trims).toHaveLength(2);
    expect(freed.trims).toBe(2);
  });
});
