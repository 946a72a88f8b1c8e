/**
 * The fixed malloc threshold, in real processes: after a big block is freed, glibc by default
 * carves the next big blocks from its arenas; with the threshold fixed each is mapped on its own
 * (and so unmapped when freed). Counted by glibc itself (`mallinfo2().hblks`, blocks mapped).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

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

function run(mode: 'fixed' | 'default'): { fixed: unknown; mapped: number } {
  const dir = mkdtempSync(join(tmpdir(), 'vak-malloc-'));
  try {
    const file = join(dir, 'child.mts');
    writeFileSync(file, CHILD);
    const r = spawnSync(process.execPath, ['bin/run-ts.mjs', file, mode], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { fixed: unknown; mapped: number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
const glibc = process.platform === 'linux' && Boolean(report?.header?.glibcVersionRuntime);
if (!glibc) console.log('process-memory.test: skipped, this machine has no glibc (the setting is skipped there too)');

describe.skipIf(!glibc)('the malloc threshold fixed for the serving process', () => {
  it('maps big blocks on their own after a bigger one was freed; by default glibc carves them from its arena', () => {
    const dflt = run('default');
    // The default raised its threshold to 8 MiB with the free: no 1 MiB block is mapped.
    expect(dflt.mapped).toBeLessThan(5);
    const fixed = run('fixed');
    expect(fixed.fixed).toEqual({ fixed: 128 << 10 });
    expect(fixed.mapped).toBeGreaterThanOrEqual(5);
  });
});
