import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Ledger } from '../core/ledger';
import type { LedgerIndex } from '../core/ledger-index';
import { fixtureLedger } from './fixtures/planted-secrets';
import { GATED_BYTES, KEPT_GATED_BYTES } from './scan-protocol';
import { BATCH_BYTES, ScanThread, type ScanThreadOptions } from './scan-thread';
import { SCAN_NICE } from './scan-priority';
import { SecretScanner } from './secret-scanner';

const threads: ScanThread[] = [];
const dir = mkdtempSync(join(tmpdir(), 'vak-scan-thread-'));
afterAll(async () => {
  await Promise.all(threads.map((t) => t.stop()));
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The fixture's lines, `times` over, as a reader hands them to a sink (ids made unique per copy). */
function feed(scanner: SecretScanner, times: number, firstLine = 1): number {
  const f = fixtureLedger();
  const lines = f.bytes.toString('utf8').split('\n').filter(Boolean);
  const ids: string[] = [];
  const index = { ids } as unknown as LedgerIndex;
  let lineNo = firstLine;
  for (let t = 0; t < times; t++) {
    for (const l of lines) {
      ids.push(`${t}:${(JSON.parse(l) as { id: string }).id}`);
      scanner.entryLine(Buffer.from(l), lineNo++, index, ids.length - 1);
    }
  }
  return lineNo - firstLine;
}

/**
 * The fixture's lines, `times` over, written to a file and fed as a reading of that file feeds
 * them (each line's offset in the index, the scanner told the file). `onDisk` rewrites each line's
 * bytes in the file (same length) after it was fed, as if changed since.
 */
function feedFromFile(scanner: SecretScanner, times: number, onDisk: (line: string) => string = (l) => l): number {
  const lines = fixtureLedger().bytes.toString('utf8').split('\n').filter(Boolean);
  const ids: string[] = [];
  const offset: number[] = [];
  const index = { ids, offset } as unknown as LedgerIndex;
  const path = join(dir, `session-${times}-${ids.length}-${Math.random().toString(36).slice(2)}.jsonl`);
  const file: string[] = [];
  let at = 0;
  let lineNo = 1;
  for (let t = 0; t < times; t++) {
    for (const l of lines) {
      const disk = onDisk(l);
      expect(Buffer.byteLength(disk)).toBe(Buffer.byteLength(l));
      file.push(disk);
      ids.push(`${t}:${(JSON.parse(l) as { id: string }).id}`);
      offset.push(at);
      at += Buffer.byteLength(l) + 1;
    }
  }
  writeFileSync(path, file.join('\n') + '\n');
  const st = statSync(path);
  scanner.file = { path, dev: st.dev, ino: st.ino };
  for (let k = 0; k < ids.length; k++) scanner.entryLine(Buffer.from(lines[k % lines.length]), lineNo++, index, k);
  return lineNo - 1;
}

/** `count` lines of about 64 KiB of prose (none passes the gate), numbered from `firstLine`. */
function feedProse(scanner: SecretScanner, count: number, firstLine: number): number {
  const ids: string[] = [];
  const index = { ids } as unknown as LedgerIndex;
  const text = 'the quick brown fox jumps over a lazy dog; '.repeat(1500);
  for (let k = 0; k < count; k++) {
    ids.push(`prose-${firstLine + k}`);
    scanner.entryLine(Buffer.from(JSON.stringify({ id: ids[k], text })), firstLine + k, index, k);
  }
  return count;
}

function ownThread(entry?: string, options?: ScanThreadOptions): ScanThread {
  const t = new ScanThread(entry, options);
  threads.push(t);
  return t;
}

describe('the secret scan on a thread of its own', () => {
  it('scans on another thread than the one reading', async () => {
    const scanner = new SecretScanner(ownThread());
    const n = feed(scanner, 1);
    await scanner.whenIdle();
    expect(scanner.linesScanned).toBe(n);
    expect(scanner.count).toBeGreaterThanOrEqual(30);
    expect(typeof scanner.scannedOn).toBe('number');
    expect(scanner.scannedOn).not.toBe(threadId);
  });

  it('gates on its thread with the WebAssembly gate, and finds what the JavaScript gate lets find', async () => {
    const thread = ownThread();
    const scanner = new SecretScanner(thread);
    const n = feed(scanner, 1);
    await scanner.whenIdle();
    expect(thread.gateKind).toBe('wasm');
    expect(scanner.linesScanned).toBe(n);
    // The fixture's recall is measured through the JavaScript gate (secret-scanner.test.ts); the
    // same lines reach the rules here.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const inline = new SecretScanner(ownThread('/no/such/entry.js'));
    feed(inline, 1);
    await inline.whenIdle();
    warn.mockRestore();
    expect(scanner.count).toBe(inline.count);
  });

  it("leaves the reading thread's event loop free while a large session is scanned", async () => {
    const scanner = new SecretScanner(ownThread());
    // About 18 MB of lines, each with the fixture's secrets: seconds of gate, parse and rules.
    const n = feed(scanner, 400);
    const before = performance.eventLoopUtilization();
    await scanner.whenIdle();
    const elu = performance.eventLoopUtilization(before);
    expect(scanner.linesScanned).toBe(n);
    // Scanning here (in steps between other work) keeps this loop busy nearly all that time.
    expect(elu.utilization).toBeLessThan(0.25);
  }, 180_000);

  it("drops the old reading's findings when the reading starts over mid-scan", async () => {
    const scanner = new SecretScanner(ownThread());
    feed(scanner, 60);
    // Mid-scan: the first findings are in, many lines are still waiting.
    await new Promise<void>((resolve) => {
      const off = scanner.onChange(() => {
        off();
        resolve();
      });
    });
    expect(scanner.waiting).toBeGreaterThan(0);
    scanner.restart(1);
    expect(scanner.count).toBe(0);
    const n = feed(scanner, 1);
    await scanner.whenIdle();
    const once = new SecretScanner(ownThread());
    feed(once, 1);
    await once.whenIdle();
    expect(scanner.count).toBe(once.count);
    expect(new Set(scanner.findings().map((f) => f.entryId.split(':')[0]))).toEqual(new Set(['0']));
    expect(Math.max(...scanner.findings().map((f) => f.line))).toBeLessThanOrEqual(n);
  }, 120_000);

  it('scans on the reading thread, and says so, when the thread cannot start', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const scanner = new SecretScanner(ownThread('/nowhere/secret-scan-worker.js'));
      feed(scanner, 1);
      await scanner.whenIdle();
      expect(scanner.count).toBeGreaterThanOrEqual(30);
      expect(scanner.scannedOn).toBeNull();
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(
        /secret scan thread could not start .*scanning on the reading thread/,
      );
    } finally {
      warn.mockRestore();
    }
  });

  it.runIf(process.platform === 'linux')(
    "runs the scan thread's lint thread at the lowest priority, that thread alone",
    async () => {
      const thread = ownThread();
      const scanner = new SecretScanner(thread);
      feed(scanner, 1);
      await scanner.whenIdle();
      const tid = thread.osThreadId;
      expect(tid).not.toBeNull();
      const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      // Field 19 of stat is the nice value; the fields after the command's `)` start at field 3.
      expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(SCAN_NICE);
      const mine = readFileSync('/proc/thread-self/stat', 'utf8');
      expect(Number(mine.slice(mine.lastIndexOf(')') + 2).split(' ')[16])).not.toBe(SCAN_NICE);
      expect(scanner.count).toBeGreaterThanOrEqual(30);
    },
  );

  it('reuses its pool of batch buffers from one read to the next', async () => {
    const thread = ownThread(undefined, { poolBuffers: 4 });
    const scanner = new SecretScanner(thread);
    let line = 1;
    for (let round = 0; round < 3; round++) {
      // About 3 MiB: three full batches and one filling, all from the pool.
      line += feedProse(scanner, 48, line);
      await scanner.whenIdle();
    }
    expect(scanner.linesScanned).toBe(line - 1);
    expect(thread.freshBuffers).toBe(0);
  });

  it('copies the lines its gate passes into buffers it made ahead, while they last', async () => {
    const thread = ownThread(undefined, { lintQuietMs: 1000 });
    const scanner = new SecretScanner(thread);
    // A read of 20 MiB whose every 1 MiB batch holds the fixture's lines, which pass the gate.
    let line = 1;
    for (let k = 0; k < 20; k++) {
      line += feed(scanner, 1, line);
      line += feedProse(scanner, 16, line);
    }
    await scanner.whenIdle();
    expect(scanner.linesScanned).toBe(line - 1);
    expect(thread.gatedBuffersMade).toBe(0);
    const once = new SecretScanner(ownThread());
    feed(once, 1);
    await once.whenIdle();
    expect(scanner.count).toBe(20 * once.count);
  }, 60_000);

  it('holds a backlog past the buffers it keeps in fresh ones, and scans every line', async () => {
    // The lint thread waits out the whole read: every batch's gated lines are held meanwhile.
    const thread = ownThread(undefined, { lintQuietMs: 2000 });
    const scanner = new SecretScanner(thread);
    const kept = KEPT_GATED_BYTES / GATED_BYTES;
    const batches = kept + 6;
    let line = 1;
    for (let k = 0; k < batches; k++) {
      line += feed(scanner, 1, line);
      line += feedProse(scanner, 16, line);
    }
    await scanner.whenIdle();
    expect(scanner.linesScanned).toBe(line - 1);
    // One gated buffer a batch: those past the kept ones were made (none, had the lint started early).
    expect(thread.gatedBuffersMade).toBeGreaterThan(0);
    expect(thread.gatedBuffersMade).toBeLessThanOrEqual(batches - kept);
    const once = new SecretScanner(ownThread());
    feed(once, 1);
    await once.whenIdle();
    expect(scanner.count).toBe(batches * once.count);
  }, 60_000);

  it('scans every line when the scan lags behind the read, in buffers made beyond the pool', async () => {
    const thread = ownThread(undefined, { poolBuffers: 2 });
    const scanner = new SecretScanner(thread);
    // One synchronous read: no buffer can come back before it ends, whatever the scan thread does.
    const prose = feedProse(scanner, 160, 1);
    const n = prose + feed(scanner, 1, prose + 1);
    const batches = Math.ceil((prose * 64 * 1024) / BATCH_BYTES);
    expect(thread.freshBuffers).toBeGreaterThanOrEqual(batches - 2);
    await scanner.whenIdle();
    expect(scanner.linesLost).toBe(0);
    expect(scanner.linesScanned).toBe(n);
    const once = new SecretScanner(ownThread());
    feed(once, 1);
    await once.whenIdle();
    expect(scanner.count).toBe(once.count);
    expect(Math.min(...scanner.findings().map((f) => f.line))).toBeGreaterThan(prose);
  }, 60_000);

  it('waits while a read is in progress, then scans every line, with the same findings', async () => {
    // The lint thread at this thread's priority: only the wait can hold it back.
    const thread = ownThread(undefined, { nice: null, lintQuietMs: 1000 });
    // Started, with its rules loaded (lines that come in small batches are linted at once).
    const first = new SecretScanner(thread);
    feed(first, 1);
    await first.whenIdle();
    const scanner = new SecretScanner(thread);
    // The fixture's secrets first, then a read going on: a full batch (1 MiB of prose) every 20 ms.
    let line = 1 + feed(scanner, 1);
    for (let tick = 0; tick < 25; tick++) {
      line += feedProse(scanner, 16, line);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await scanner.whenIdle();
    expect(scanner.linesScanned).toBe(line - 1);
    const once = new SecretScanner(ownThread());
    feed(once, 1);
    await once.whenIdle();
    expect(scanner.findings()).toEqual(once.findings());
  }, 60_000);

  it('started ahead of any session, answers for the session only', async () => {
    const thread = ownThread();
    thread.prepare();
    const scanner = new SecretScanner(thread);
    const n = feed(scanner, 1);
    await scanner.whenIdle();
    expect(scanner.linesScanned).toBe(n);
    const once = new SecretScanner(ownThread());
    feed(once, 1);
    await once.whenIdle();
    expect(scanner.findings()).toEqual(once.findings());
  });

  it('reads a backlog beyond what its lint thread may hold back from the file, with the same findings in the same order', async () => {
    // Three batches: all of them read back, or the first held and the others read back.
    const held = new SecretScanner(ownThread());
    feed(held, 60);
    await held.whenIdle();
    for (const heldBytes of [0, 1 << 19]) {
      const scanner = new SecretScanner(ownThread(undefined, { heldBytes }));
      const n = feedFromFile(scanner, 60);
      await scanner.whenIdle();
      expect(scanner.linesScanned).toBe(n);
      expect(scanner.linesReadBack).toBeGreaterThan(0);
      if (heldBytes > 0) expect(scanner.linesReadBack).toBeLessThan(n);
      expect(scanner.linesChanged).toBe(0);
      expect(scanner.findings()).toEqual(held.findings());
    }
  }, 60_000);

  it('does not scan a line that changed on disk before it was read back, and says so', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const scanner = new SecretScanner(ownThread(undefined, { heldBytes: 0 }));
      // Every secret-looking run of letters and digits rewritten: a scan of the file would find none.
      const n = feedFromFile(scanner, 2, (l) => l.replace(/[A-Za-z0-9]/g, 'x'));
      await scanner.whenIdle();
      expect(scanner.linesScanned).toBe(n);
      expect(scanner.linesChanged).toBeGreaterThan(0);
      expect(scanner.linesChanged).toBe(scanner.linesReadBack);
      expect(scanner.count).toBe(0);
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/changed on disk .*not scanned/);
    } finally {
      warn.mockRestore();
    }
  }, 60_000);

  it("reads back a real reading's lines at the offsets its index records", async () => {
    const path = join(dir, 'real-reading.jsonl');
    writeFileSync(path, fixtureLedger().bytes);
    const st = statSync(path);
    const scan = async (heldBytes?: number): Promise<SecretScanner> => {
      const scanner = new SecretScanner(ownThread(undefined, { heldBytes }));
      if (heldBytes !== undefined) scanner.file = { path, dev: st.dev, ino: st.ino };
      const ledger = await Ledger.open(path, { lineSink: scanner });
      await scanner.whenIdle();
      ledger.close();
      return scanner;
    };
    const held = await scan();
    const back = await scan(0);
    expect(back.linesReadBack).toBeGreaterThan(0);
    expect(back.linesChanged).toBe(0);
    expect(back.count).toBeGreaterThanOrEqual(30);
    expect(back.findings()).toEqual(held.findings());
  }, 60_000);
});
