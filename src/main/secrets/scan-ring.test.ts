import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LedgerIndex } from '../core/ledger-index';
import { fixtureLedger } from './fixtures/planted-secrets';
import { scanBatch, type BatchFinding } from './scan-batch';
import { BatchRing, copyBytes } from './scan-ring';
import { BATCH_BYTES, ScanThread, type ScanThreadOptions } from './scan-thread';
import { SecretScanner } from './secret-scanner';

const threads: ScanThread[] = [];
afterAll(async () => {
  await Promise.all(threads.map((t) => t.stop()));
}, 60_000);

function ownThread(options?: ScanThreadOptions): ScanThread {
  const t = new ScanThread(undefined, options);
  threads.push(t);
  return t;
}

/** A small deterministic generator (mulberry32), so a failing session can be made again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A generated session: the fixture's lines (planted secrets, look-alikes), each a few times over,
 * between lines of prose and tool output of random lengths (a few bytes to ~200 KiB), in an order
 * the seed decides.
 */
function session(seed: number, lines: number): { lines: Buffer[]; ids: string[] } {
  const next = random(seed);
  const fixture = fixtureLedger().bytes.toString('utf8').split('\n').filter(Boolean);
  const words = ['the', 'quick', 'brown', 'fox', 'é', 'ls -la', '{"a":1}', 'deadbeefdeadbeefcafe', 'ok', '\\n'];
  const out: Buffer[] = [];
  const ids: string[] = [];
  for (let k = 0; k < lines; k++) {
    const id = `g${seed}-${k}`;
    ids.push(id);
    if (next() < 0.3) {
      const l = JSON.parse(fixture[Math.floor(next() * fixture.length)]) as Record<string, unknown>;
      out.push(Buffer.from(JSON.stringify({ ...l, id })));
      continue;
    }
    const long = next() < 0.05 ? 20_000 : 40;
    const n = Math.floor(next() * long);
    const text = Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(' ');
    out.push(Buffer.from(JSON.stringify({ id, kind: 'tool_result', text })));
  }
  return { lines: out, ids };
}

/** `lines` fed as a reader feeds them, in `chunks` reads with a pause (the scan thread catching up) after each. */
async function feed(scanner: SecretScanner, s: { lines: Buffer[]; ids: string[] }, chunks = 1): Promise<void> {
  const index = { ids: s.ids } as unknown as LedgerIndex;
  const per = Math.ceil(s.lines.length / chunks);
  for (let k = 0; k < s.lines.length; k++) {
    scanner.entryLine(s.lines[k], k + 1, index, k);
    if ((k + 1) % per === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The reference: every line in one batch, scanned here by the rules with the JavaScript gate. */
async function reference(s: { lines: Buffer[]; ids: string[] }): Promise<unknown[]> {
  const buf = Buffer.concat(s.lines);
  const ends: number[] = [];
  let at = 0;
  for (const l of s.lines) ends.push((at += l.length));
  const r = await scanBatch({
    buf: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length) as ArrayBuffer,
    ends,
    lineNos: s.lines.map((_, k) => k + 1),
    entries: s.lines.map((_, k) => k),
  });
  return r.findings.map(({ entry, ...rest }: BatchFinding) => ({ entryId: s.ids[entry], ...rest }));
}

describe('the ring of batch slots shared with the scan thread', () => {
  it('hands out each slot once, in turn, until all are held, and again once freed', () => {
    const ring = BatchRing.create(3, 64, 4);
    expect(ring).not.toBeNull();
    if (!ring) return;
    const got = [ring.acquire(), ring.acquire(), ring.acquire()].map((s) => s?.slot);
    expect(got).toEqual([0, 1, 2]);
    expect(ring.acquire()).toBeNull();
    expect(ring.free).toBe(0);
    ring.release(1);
    const again = ring.acquire();
    expect(again?.slot).toBe(1);
    expect(again && ring.slotOf(again.bytes)).toBe(1);
    expect(ring.slotOf(Buffer.alloc(64))).toBe(-1);
    ring.release(0);
    // Wrap-around: the search goes on from the last slot handed out.
    expect(ring.acquire()?.slot).toBe(0);
  });

  it("keeps a slot's lines and their numbers as the reading thread wrote them", () => {
    const ring = BatchRing.create(2, 64, 4);
    if (!ring) throw new Error('no shared memory');
    ring.acquire();
    const s = ring.acquire();
    if (!s) throw new Error('no slot');
    let used = 0;
    used += copyBytes(Buffer.from('{"a":"x"}'), s.bytes, used);
    used += copyBytes(Buffer.from(''), s.bytes, used);
    used += copyBytes(Buffer.from('{"b":2}'), s.bytes, used);
    expect(used).toBe(16);
    ring.write(s.slot, [9, 9, 16], [7, 8, 9], [0, 1, 2], [100, 2 ** 40, 2 ** 40 + 9]);
    const v = ring.lines(s.slot, 3);
    expect(v.bytes.toString()).toBe('{"a":"x"}{"b":2}');
    expect([...v.ends]).toEqual([9, 9, 16]);
    expect([...v.lineNos]).toEqual([7, 8, 9]);
    expect([...v.entries]).toEqual([0, 1, 2]);
    expect([...v.offsets]).toEqual([100, 2 ** 40, 2 ** 40 + 9]);
    expect(() => ring.write(s.slot, [1, 2, 3, 4, 5], [], [], null)).toThrow(RangeError);
  });

  it('finds what the reference scanner finds, in the same order, on generated sessions, the slots wrapping around', async () => {
    // Two slots, read in many small reads: the slots are used over and over.
    const thread = ownThread({ poolBuffers: 2 });
    for (const seed of [1, 2, 3]) {
      const s = session(seed, 1500);
      const scanner = new SecretScanner(thread);
      await feed(scanner, s, 12);
      await scanner.whenIdle();
      expect(scanner.linesScanned).toBe(s.lines.length);
      expect(scanner.count).toBeGreaterThan(0);
      expect(scanner.findings()).toEqual(await reference(s));
    }
    expect(thread.ringBatches).toBeGreaterThan(6);
    expect(thread.freeSlots).toBe(2);
  }, 120_000);

  it('sends a batch the unshared way when every slot is held, and the findings and their order stay', async () => {
    const thread = ownThread({ poolBuffers: 2 });
    const s = session(4, 3000);
    // One synchronous read while the thread starts: no slot can come back before it ends.
    const scanner = new SecretScanner(thread);
    await feed(scanner, s, 1);
    expect(thread.freeSlots).toBe(0);
    expect(thread.freshBuffers).toBeGreaterThan(0);
    await scanner.whenIdle();
    expect(scanner.linesLost).toBe(0);
    expect(scanner.linesScanned).toBe(s.lines.length);
    expect(scanner.findings()).toEqual(await reference(s));
    expect(thread.ringBatches).toBe(2);
    expect(thread.freeSlots).toBe(2);
  }, 120_000);

  it('finds the same as the buffers handed there and back (no ring)', async () => {
    const s = session(5, 2000);
    const ring = new SecretScanner(ownThread());
    const unshared = new SecretScanner(ownThread({ shared: false }));
    await feed(ring, s, 4);
    await feed(unshared, s, 4);
    await Promise.all([ring.whenIdle(), unshared.whenIdle()]);
    expect(ring.findings()).toEqual(unshared.findings());
  }, 120_000);

  it('neither blocks nor hangs the reading thread when the scan thread dies holding slots, and frees them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // Its lint thread holds a read's lines for a second: at its death they are not answered.
      const thread = ownThread({ poolBuffers: 2, lintQuietMs: 1000 });
      const first = new SecretScanner(thread);
      await feed(first, session(6, 50));
      await first.whenIdle();
      const s = session(7, 3000);
      const scanner = new SecretScanner(thread);
      // The thread dies as a read begins: the slots handed to it are never taken, nor freed by it.
      const dying = (thread as unknown as { worker: Worker }).worker.terminate();
      const sent = thread.ringBatches;
      await feed(scanner, s, 1);
      expect(thread.ringBatches).toBeGreaterThan(sent);
      await dying;
      await scanner.whenIdle();
      expect(scanner.linesLost).toBeGreaterThan(0);
      expect(scanner.linesLost + scanner.linesScanned).toBe(s.lines.length);
      expect(thread.freeSlots).toBe(2);
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/scan thread stopped/);
      // The next reading starts a new thread, in the ring again.
      const again = new SecretScanner(thread);
      const before = thread.ringBatches;
      await feed(again, s, 8);
      await again.whenIdle();
      expect(thread.ringBatches).toBeGreaterThan(before);
      expect(again.findings()).toEqual(await reference(s));
    } finally {
      warn.mockRestore();
    }
  }, 120_000);

  it('keeps a line longer than a slot in a buffer of its own', async () => {
    const thread = ownThread({ poolBuffers: 2 });
    const s = session(8, 40);
    const big = JSON.stringify({ id: 'big', kind: 'tool_result', text: 'word '.repeat(BATCH_BYTES / 4) });
    s.lines.splice(20, 0, Buffer.from(big));
    s.ids.splice(20, 0, 'big');
    const scanner = new SecretScanner(thread);
    await feed(scanner, s, 1);
    await scanner.whenIdle();
    expect(scanner.linesScanned).toBe(s.lines.length);
    expect(scanner.findings()).toEqual(await reference(s));
    expect(thread.freeSlots).toBe(2);
  }, 60_000);
});
