import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { Ledger } from '../core/ledger';
import { fixtureLedger } from './fixtures/planted-secrets';
import { ScanThread, stopSharedScanThread, type ScanThreadOptions } from './scan-thread';
import { SecretScanner } from './secret-scanner';
import { firstScreenAnswered, newSessionScanner } from './session-secrets';

const threads: ScanThread[] = [];
const dir = mkdtempSync(join(tmpdir(), 'vak-scan-deferred-'));
afterAll(async () => {
  await Promise.all(threads.map((t) => t.stop()));
  await stopSharedScanThread();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

function ownThread(entry?: string, options?: ScanThreadOptions): ScanThread {
  const t = new ScanThread(entry, options);
  threads.push(t);
  return t;
}

let files = 0;
function fileWith(bytes: Buffer): string {
  const path = join(dir, `session-${++files}.jsonl`);
  writeFileSync(path, bytes);
  return path;
}

/** A scanner told the file it reads (as open-ledger.ts does), deferred or not. */
function scannerOf(path: string, thread: ScanThread, deferred: boolean): SecretScanner {
  const s = new SecretScanner(thread);
  const st = statSync(path);
  s.file = { path, dev: st.dev, ino: st.ino };
  if (deferred) s.deferUntilFirstScreen();
  return s;
}

/** The findings of a reading of `path` scanned as it is read (no deferral): the reference. */
async function scannedAsRead(path: string): Promise<SecretScanner> {
  const s = scannerOf(path, ownThread(), false);
  const ledger = await Ledger.open(path, { lineSink: s });
  await s.whenIdle();
  ledger.close();
  return s;
}

/** Once `s` is idle (its ledger then closed): the same lines and findings as a scan as read of `bytes`. */
async function expectAsReadOf(s: SecretScanner, ledger: Ledger, bytes: Buffer): Promise<void> {
  await s.whenIdle();
  ledger.close();
  const reference = await scannedAsRead(fileWith(bytes));
  expect(s.linesScanned).toBe(reference.linesScanned);
  expect(s.findings()).toEqual(reference.findings());
}

/** Generated sessions of a few MiB (several batches), and the planted-secrets fixture after one. */
const generated = (seed: number): Buffer => generateSession({ seed, bytes: 3 << 20, cwd: '/work/app' }).bytes;

describe('the secret scan deferred until a first screen', () => {
  it('hands the scan thread nothing while deferred, then finds what a scan as read finds, in the same order', async () => {
    const sessions = [
      fixtureLedger().bytes,
      generated(11),
      generated(12),
      ...['linear', 'branching', 'unicode', 'damaged', 'packets'].map((name) =>
        readFileSync(join(FIXTURES, `${name}.jsonl`)),
      ),
    ];
    for (const bytes of sessions) {
      const path = fileWith(bytes);
      const reference = await scannedAsRead(path);
      const thread = ownThread();
      const submit = vi.spyOn(thread, 'submit');
      const s = scannerOf(path, thread, true);
      const ledger = await Ledger.open(path, { lineSink: s });
      // The whole read went by: the scan holds only where the lines are.
      expect(submit).not.toHaveBeenCalled();
      expect(s.busy).toBe(true);
      expect(s.waiting).toBe(reference.linesScanned);
      s.endDeferral();
      expect(submit).toHaveBeenCalled();
      await s.whenIdle();
      ledger.close();
      expect(s.linesDeferred).toBe(reference.linesScanned);
      expect(s.linesScanned).toBe(reference.linesScanned);
      expect(s.linesReadBack).toBeGreaterThanOrEqual(s.linesDeferred);
      expect(s.linesChanged).toBe(0);
      expect(s.textsLinted).toBe(reference.textsLinted);
      expect(s.findings()).toEqual(reference.findings());
    }
    // Not a test that passes on nothing: the fixture has its secrets.
    expect((await scannedAsRead(fileWith(fixtureLedger().bytes))).count).toBeGreaterThanOrEqual(30);
  }, 120_000);

  it('reads each deferred line from the file once, however far behind the lint thread is', async () => {
    // Several batches of lines, with secrets in the last; the lint thread may hold only 64 KiB of
    // gated lines, less than a batch's: the read back must wait for it rather than let lines go.
    const path = fileWith(Buffer.concat([generated(41), generated(42), fixtureLedger().bytes]));
    const reference = await scannedAsRead(path);
    expect(reference.count).toBeGreaterThan(0);
    const s = scannerOf(path, ownThread(undefined, { heldBytes: 64 << 10 }), true);
    const ledger = await Ledger.open(path, { lineSink: s });
    s.endDeferral();
    await s.whenIdle();
    ledger.close();
    expect(s.linesDeferred).toBe(reference.linesScanned);
    expect(s.linesReadBack).toBe(s.linesDeferred);
    expect(s.linesScanned).toBe(reference.linesScanned);
    expect(s.textsLinted).toBe(reference.textsLinted);
    expect(s.findings()).toEqual(reference.findings());
  }, 60_000);

  it('drops the read back held for the lint thread when the reading starts over', async () => {
    const path = fileWith(Buffer.concat([generated(43), generated(44)]));
    const s = scannerOf(path, ownThread(undefined, { heldBytes: 64 << 10 }), true);
    const ledger = await Ledger.open(path, { lineSink: s });
    // Handed over: most of it waits in the scan thread for the lint thread.
    s.endDeferral();
    writeFileSync(path, fixtureLedger().bytes);
    expect((await ledger.refresh()).kind).toBe('reloaded');
    await expectAsReadOf(s, ledger, fixtureLedger().bytes);
  }, 60_000);

  it('scans the lines appended after the deferral ended after the deferred ones, as a scan as read', async () => {
    const all = generated(21);
    // The planted secrets in the appended part (the fixture's entries after its header).
    const planted = fixtureLedger()
      .bytes.toString('utf8')
      .split('\n')
      .filter(Boolean)
      .slice(1)
      .map((l) => l + '\n');
    const head = planted.slice(0, 20).join('');
    const tail = planted.slice(20).join('');
    const whole = fileWith(Buffer.concat([all, Buffer.from(head + tail)]));
    const reference = await scannedAsRead(whole);
    expect(reference.count).toBeGreaterThan(0);

    const path = fileWith(all);
    const s = scannerOf(path, ownThread(), true);
    const ledger = await Ledger.open(path, { lineSink: s });
    appendFileSync(path, head);
    await ledger.refresh(); // appended while deferred: deferred too
    s.endDeferral();
    appendFileSync(path, tail);
    await ledger.refresh(); // after: handed over as read, behind the deferred lines
    await s.whenIdle();
    ledger.close();
    expect(s.linesScanned).toBe(reference.linesScanned);
    expect(s.findings()).toEqual(reference.findings());
  }, 60_000);

  it('does not scan a line that no longer reads as a whole line when read back, and says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const bytes = fixtureLedger().bytes;
      const path = fileWith(bytes);
      const s = scannerOf(path, ownThread(), true);
      const ledger = await Ledger.open(path, { lineSink: s });
      // Rewritten in place, same length: every line split in two, so none reads as it was.
      const text = bytes.toString('latin1');
      writeFileSync(path, Buffer.from(text.replace(/("kind":)/g, '\n"kind"'), 'latin1'));
      s.endDeferral();
      await s.whenIdle();
      ledger.close();
      expect(s.linesChanged).toBe(s.linesDeferred);
      expect(s.linesScanned).toBe(s.linesDeferred);
      expect(s.count).toBe(0);
      const warned = warn.mock.calls.map((c) => String(c[0])).filter((m) => /changed on disk/.test(m));
      expect(warned).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  }, 60_000);

  it('drops the deferred lines when the session closes: nothing is scanned, nothing waits', async () => {
    const path = fileWith(fixtureLedger().bytes);
    const thread = ownThread();
    const submit = vi.spyOn(thread, 'submit');
    const s = scannerOf(path, thread, true);
    const ledger = await Ledger.open(path, { lineSink: s });
    const n = s.waiting;
    expect(n).toBeGreaterThan(0);
    ledger.close();
    expect(s.busy).toBe(false);
    expect(s.linesLost).toBe(n);
    await s.whenIdle();
    s.endDeferral();
    expect(submit).not.toHaveBeenCalled();
    expect(s.linesScanned).toBe(0);
  });

  it('drops the deferred lines of a reading that starts over, and scans the new reading only', async () => {
    const first = generated(31);
    const path = fileWith(first);
    const s = scannerOf(path, ownThread(), true);
    const ledger = await Ledger.open(path, { lineSink: s });
    expect(s.waiting).toBeGreaterThan(0);
    // Rewritten, not appended: the next refresh reads it again from byte 0.
    writeFileSync(path, fixtureLedger().bytes);
    const r = await ledger.refresh();
    expect(r.kind).toBe('reloaded');
    s.endDeferral();
    await expectAsReadOf(s, ledger, fixtureLedger().bytes);
  }, 60_000);

  it('ends the deferral by itself once no line has come for a while (no first screen asked)', async () => {
    const path = fileWith(fixtureLedger().bytes);
    const reference = await scannedAsRead(path);
    const s = scannerOf(path, ownThread(), true);
    const ledger = await Ledger.open(path, { lineSink: s });
    expect(s.deferred).toBe(true);
    await s.whenIdle();
    ledger.close();
    expect(s.deferred).toBe(false);
    expect(s.findings()).toEqual(reference.findings());
  });

  it('reads the deferred lines back on the reading thread when the scan thread cannot start', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const path = fileWith(fixtureLedger().bytes);
      const reference = await scannedAsRead(path);
      const s = scannerOf(path, ownThread('/nowhere/secret-scan-worker.js'), true);
      const ledger = await Ledger.open(path, { lineSink: s });
      s.endDeferral();
      await s.whenIdle();
      ledger.close();
      expect(s.scannedOn).toBeNull();
      expect(s.linesReadBack).toBe(s.linesDeferred);
      expect(s.findings()).toEqual(reference.findings());
    } finally {
      warn.mockRestore();
    }
  });

  it("ends a session's deferral when the backend says its first screen was answered", async () => {
    const path = fileWith(fixtureLedger().bytes);
    const reference = await scannedAsRead(path);
    const key = 'agents/a/sessions/0123456789abcdef/deferred.jsonl';
    const s = newSessionScanner(key);
    const st = statSync(path);
    s.file = { path, dev: st.dev, ino: st.ino };
    s.deferUntilFirstScreen();
    const ledger = await Ledger.open(path, { lineSink: s });
    expect(s.deferred).toBe(true);
    firstScreenAnswered(key);
    // Ended once the answer is on its way (the next turn), long before the deferral's own end.
    await new Promise((resolve) => setImmediate(resolve));
    expect(s.deferred).toBe(false);
    await s.whenIdle();
    ledger.close();
    expect(s.findings()).toEqual(reference.findings());
  });

  it('drops what a reading still deferred when a new reading of its session replaces it', async () => {
    const path = fileWith(fixtureLedger().bytes);
    const key = 'agents/a/sessions/0123456789abcdef/replaced.jsonl';
    const old = newSessionScanner(key);
    const st = statSync(path);
    old.file = { path, dev: st.dev, ino: st.ino };
    old.deferUntilFirstScreen();
    const ledger = await Ledger.open(path, { lineSink: old });
    const n = old.waiting;
    expect(n).toBeGreaterThan(0);
    newSessionScanner(key);
    expect(old.busy).toBe(false);
    expect(old.linesLost).toBe(n);
    ledger.close();
  });
});
