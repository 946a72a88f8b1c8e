import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionKey } from '../../shared/api';
import { ledgerBytes, userMsg } from '../../reliability/ledger-lines';
import { useTempDir } from '../../test-support/temp-dir';
import { PerReading } from '../core/per-reading';
import { turnCacheOf } from '../core/turn-cache';
import { IndexStore } from './index-store';
import { SessionCache } from './session-cache';

const tmp = useTempDir('vak-lifecycle-');
const KEY: SessionKey = 'agents/vak/sessions/h/s.jsonl';
const caches: SessionCache[] = [];
afterEach(() => {
  for (const c of caches.splice(0)) c.closeAll();
});

/** A home with one linear session of `n` messages (each ~`pad` bytes), and an index store beside it. */
function setup(n: number, pad: number): { home: string; file: string; store: IndexStore } {
  const root = tmp();
  const home = join(root, 'home');
  mkdirSync(join(home, 'agents/vak/sessions/h'), { recursive: true });
  const entries: Record<string, unknown>[] = [
    { id: 'h', parent_id: null, kind: 'header', system_prompt: 's', tools: [] },
  ];
  for (let k = 1; k <= n; k++) {
    const text = `m${k} ` + 'x'.repeat(pad);
    entries.push({ id: `e${k}`, parent_id: k === 1 ? 'h' : `e${k - 1}`, kind: 'message', message: userMsg(text) });
  }
  const file = join(home, KEY);
  writeFileSync(file, ledgerBytes(entries));
  // Every session is worth keeping here (the default keeps only those of 1 MiB or more).
  return { home, file, store: new IndexStore(join(root, 'index-cache'), { minBytes: 1 }) };
}

function cacheOf(home: string, store: IndexStore | null, keepDelayMs: number): SessionCache {
  const c = new SessionCache(home, 4, store, keepDelayMs);
  caches.push(c);
  return c;
}

/** Overwrites the first `find` in `file` with `replace` (same length): a rewrite in place. */
function overwrite(file: string, find: string, replace: string): void {
  const at = readFileSync(file).indexOf(find);
  expect(at).toBeGreaterThan(0);
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.from(replace), 0, Buffer.byteLength(replace), at);
  closeSync(fd);
}

/** Holds the cache's checks until `lull()`, counting how often they asked for the calls' lull. */
function holdChecks(c: { checksWaitFor(f: () => Promise<void>): void }): { lull: () => void; asked: () => number } {
  let lull = (): void => undefined;
  const waiting = new Promise<void>((r) => (lull = r));
  let asked = 0;
  c.checksWaitFor(() => {
    asked++;
    return waiting;
  });
  return { lull: () => lull(), asked: () => asked };
}

/**
 * A session of `n` messages read once (its index kept), then reopened from the kept index in a new
 * cache whose checks are held (holdChecks): resolves once the kept check waits for the lull.
 */
async function reopenHeld(n: number, pad: number) {
  const { home, store } = setup(n, pad);
  const first = cacheOf(home, store, 0);
  await first.acquire(KEY);
  await first.close();
  const c = cacheOf(home, store, 60_000);
  const gate = holdChecks(c);
  const s = await c.acquire(KEY);
  await vi.waitFor(() => expect(gate.asked()).toBe(1));
  return { c, s, gate };
}

describe('an open session moves through its lifecycle, one generation at a time', () => {
  it('read in steps: reading → whole awaiting its hash check → verified → kept', async () => {
    const { home, store } = setup(400, 200);
    const c = cacheOf(home, store, 0);
    const phases: string[] = [];
    const note = (): void => {
      const p = c.peek(KEY)?.phase;
      const name = p?.name === 'whole' ? `whole (${p.awaiting})` : (p?.name ?? 'closed');
      if (phases[phases.length - 1] !== name) phases.push(name);
    };
    let checked!: () => void;
    const hashesChecked = new Promise<void>((r) => (checked = r));
    c.readInSteps({
      firstBytes: 16 << 10,
      stepBytes: 16 << 10,
      onStep: (key) => void c.refresh(key).then(note),
      onHashesChecked: () => {
        note();
        checked();
      },
    });
    const s = await c.acquire(KEY);
    note();
    await hashesChecked;
    expect(s.phase.generation).toBe(0); // no reading started over
    await c.flushKept();
    await vi.waitFor(() => expect(s.phase.name).toBe('kept'));
    note();
    expect(phases).toEqual(['reading', 'whole (hash-check)', 'verified', 'kept']);
    expect(existsSync(store.fileFor(s.realPath))).toBe(true);
  });

  it("a first read's deferred hash check waits for the calls' lull (checksWaitFor), then runs", async () => {
    const { home } = setup(400, 200);
    const c = cacheOf(home, null, 0);
    const gate = holdChecks(c);
    let checked = 0;
    c.readInSteps({
      firstBytes: 16 << 10,
      stepBytes: 16 << 10,
      onStep: (key) => void c.refresh(key),
      onHashesChecked: () => void checked++,
    });
    const s = await c.acquire(KEY);
    await vi.waitFor(() => expect(gate.asked()).toBe(1));
    // Read to its end, and the check not started while the calls go on (the first screen's are answered first).
    expect(s.reading).toBe(false);
    for (let k = 0; k < 5; k++) await new Promise((r) => setTimeout(r, 0));
    expect(s.phase).toEqual({ name: 'whole', generation: 0, awaiting: 'hash-check' });
    expect(s.jobs.has('hash-check')).toBe(true);
    expect(checked).toBe(0);
    gate.lull();
    await vi.waitFor(() => expect(checked).toBe(1));
    expect(s.phase.name).toBe('verified');
    expect(gate.asked()).toBe(1);
  });

  it('a reopen from a kept index: whole awaiting the kept check, then verified', async () => {
    const { home, store } = setup(50, 100);
    const first = cacheOf(home, store, 0);
    await first.acquire(KEY);
    await first.close();
    const c = cacheOf(home, store, 60_000);
    const s = await c.acquire(KEY);
    expect(s.phase).toEqual({ name: 'whole', generation: 0, awaiting: 'kept-check' });
    await vi.waitFor(() => expect(s.phase.name).toBe('verified'));
    expect(s.ledger.keptUnverified).toBe(false);
  });

  it("a reopen's kept check waits for the calls' lull (checksWaitFor), then runs", async () => {
    const { s, gate } = await reopenHeld(50, 100);
    // Not checked while the calls go on: the file is not read again meanwhile.
    await new Promise((r) => setImmediate(r));
    expect(s.ledger.keptUnverified).toBe(true);
    expect(s.jobs.has('kept-check')).toBe(true);
    gate.lull();
    await vi.waitFor(() => expect(s.phase.name).toBe('verified'));
    expect(s.ledger.keptUnverified).toBe(false);
    expect(gate.asked()).toBe(1);
  });

  it('a session closed while its kept check reads says nothing: the close ended the check, nothing failed', async () => {
    // Over one check step (4 MiB): the check reads the file again in several turns.
    const { c, s, gate } = await reopenHeld(5000, 1000);
    const read = s.ledger.checkReading.bind(s.ledger);
    let checking = (): void => undefined;
    const started = new Promise<void>((r) => (checking = r));
    let ended: Promise<unknown> = Promise.resolve();
    s.ledger.checkReading = (step) => {
      const run = read(step);
      ended = run.then(
        () => 'read',
        (e: unknown) => e,
      );
      checking();
      return run;
    };
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      gate.lull();
      await started;
      c.closeAll(); // as the backend's stop, or an eviction, while the check is between two steps
      // The check ended on the closed file: it failed, and that is not the user's business.
      expect(await ended).toBeInstanceOf(Error);
      for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
      expect(warned.mock.calls.map((a) => String(a[0]))).toEqual([]);
    } finally {
      warned.mockRestore();
    }
  });

  it('a reading started over is a new generation: the work and the caches of the last one are dropped', async () => {
    const { home, file, store } = setup(50, 100);
    const c = cacheOf(home, store, 60_000); // a keep waits: it is pending when the file changes
    const s = await c.acquire(KEY);
    expect(s.phase).toEqual({ name: 'verified', generation: 0 });
    expect(s.jobs.has('keep')).toBe(true);
    const probe = new PerReading<object>('probe');
    const value = {};
    probe.set(s.ledger, value);
    turnCacheOf(s.ledger);
    expect(s.ledger.derived.names(s.ledger.generation).sort()).toEqual(['probe', 'turn costs']);

    overwrite(file, 'm7 ', 'm8 '); // same size, another entry: read again whole
    expect(await c.refresh(KEY, true)).toEqual({ kind: 'reloaded', reason: 'rewritten' });
    expect(s.phase).toEqual({ name: 'verified', generation: 1 });
    // The keep made for generation 0 was dropped (it would have kept a reading that is gone).
    expect(s.jobs.has('keep')).toBe(false);
    expect(probe.get(s.ledger)).toBeUndefined();
    expect(s.ledger.derived.names(s.ledger.generation)).toEqual([]);
    await c.flushKept();
    expect(existsSync(store.fileFor(s.realPath))).toBe(false);
  });

  it('a removed session runs none of its work, and takes no event', async () => {
    const { home, store } = setup(50, 100);
    const c = cacheOf(home, store, 60_000);
    const s = await c.acquire(KEY);
    expect(s.jobs.has('keep')).toBe(true);
    c.drop(KEY);
    expect(s.phase).toEqual({ name: 'removed', generation: 1 });
    expect(s.jobs.size).toBe(0);
    expect(s.move({ type: 'kept' })).toEqual({ name: 'removed', generation: 1 });
    await c.flushKept();
    expect(existsSync(store.fileFor(s.realPath))).toBe(false);
  });
});
