import { performance } from 'node:perf_hooks';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LedgerIndex } from '../core/ledger-index';
import { fixtureLedger } from './fixtures/planted-secrets';
import { ScanThread } from './scan-thread';
import { SecretScanner } from './secret-scanner';

const threads: ScanThread[] = [];
afterAll(async () => {
  for (const t of threads) await t.stop();
});

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

function ownThread(entry?: string): ScanThread {
  const t = new ScanThread(entry);
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
});
