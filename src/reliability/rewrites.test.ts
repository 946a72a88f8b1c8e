/**
 * Attacks on what the explorer trusts between two reads of a ledger: a rewrite in place that keeps
 * the file's size and last line, a kept index crafted with a valid checksum, a kept index whose
 * lines were broken since, and branches under entries that are no longer there. Each runs on real
 * files in a temp home, against the backend as the app runs it; the expected answer is always what
 * a fresh full read (the CLI's `verify`) gives.
 */
import { randomUUID } from 'node:crypto';
import { openSync, readFileSync, realpathSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent, LeafView, TreeRowsResult } from '../shared/api';
import type { ContextSeries, PackedContextSeries } from '../shared/api-series';
import { DEFAULT_PROFILE } from '../shared/ledger-types';
import { ApiError, type ApiClient } from '../main/api/api-backend';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { appendBranch, BranchError } from '../main/core/branch-append';
import { Ledger } from '../main/core/ledger';
import { decodeSnapshot, encodeSnapshot } from '../main/core/snapshot-codec';
import { IndexStore } from '../main/library/index-store';
import { useTempDir } from '../test-support/temp-dir';
import { cliInProcess } from './cli-run';
import { ledgerBytes, userMsg } from './ledger-lines';
import { header, sessionKey, writeSession } from './temp-home';
import { unpackSeries } from '../shared/series-packed';

const tmp = useTempDir('vak-rewrites-');
const backends: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
  vi.restoreAllMocks();
});

const KEY = sessionKey();

/** A chain h ← e1 ← … ← eN (line k+1 holds ek), each directive `pad` bytes of text, usage on each. */
function chain(n: number, pad = 16): Buffer {
  const entries: Record<string, unknown>[] = [header()];
  for (let k = 1; k <= n; k++) {
    entries.push({
      id: `e${k}`,
      parent_id: k === 1 ? 'h' : `e${k - 1}`,
      kind: 'message',
      message:
        k % 2 === 1
          ? userMsg(`ask ${k} ${'x'.repeat(pad)}`)
          : { role: 'assistant', content: [{ type: 'text', text: `answer ${k} ${'y'.repeat(pad)}` }] },
      ...(k % 2 === 0 ? { meta: { usage: { input_tokens: 100 * k, output_tokens: 10 } } } : {}),
    });
  }
  return ledgerBytes(entries);
}

/** Overwrites bytes of the file in place (same size: its last line and length unchanged). */
function overwrite(file: string, find: string, replace: string, from = 0): void {
  expect(Buffer.byteLength(replace)).toBe(Buffer.byteLength(find));
  const bytes = readFileSync(file);
  const at = bytes.indexOf(find, from);
  expect(at).toBeGreaterThanOrEqual(0);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.from(replace), 0, Buffer.byteLength(replace), at);
  } finally {
    closeSync(fd);
  }
}

/** The offset where line `line` (1-based) starts. */
function lineOffset(bytes: Buffer, line: number): number {
  let at = 0;
  for (let k = 1; k < line; k++) at = bytes.indexOf(10, at) + 1;
  return at;
}

class Client implements ApiClient {
  events: ApiEvent[] = [];
  constructor(readonly id: string) {}
  push(e: ApiEvent): void {
    this.events.push(e);
  }
  /** Resolves with the first event matching `pred`, as soon as it comes. */
  next(pred: (e: ApiEvent) => boolean, ms = 20_000): Promise<ApiEvent> {
    return new Promise((resolve, reject) => {
      const found = this.events.find(pred);
      if (found) return resolve(found);
      const push = this.push.bind(this);
      const timer = setTimeout(() => reject(new Error(`no matching event; got ${JSON.stringify(this.events)}`)), ms);
      this.push = (e) => {
        push(e);
        if (pred(e)) {
          clearTimeout(timer);
          resolve(e);
        }
      };
    });
  }
}

async function backendOf(home: string, opts: { watch?: boolean; userDataDir?: string } = {}): Promise<ExplorerBackend> {
  const b = await ExplorerBackend.create({
    home,
    isDemo: false,
    label: 'rewrites',
    watch: opts.watch ?? false,
    rescanMs: 0,
    lockPollMs: 0,
    userDataDir: opts.userDataDir,
    firstReadBytes: Infinity,
  });
  backends.push(b);
  return b;
}

/** What `vak-explorer verify FILE --json` reports: the warnings a fresh full read gives. */
async function verify(
  file: string,
): Promise<{ code: string; line: number; offset: number; id?: string; message: string }[]> {
  const r = await cliInProcess(['verify', file, '--json']);
  return (JSON.parse(r.out) as { warnings: [] }).warnings;
}

async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

const leafReq = { key: KEY, leaf: null, plan: 'auto' as const, profile: DEFAULT_PROFILE, overrides: {} };

async function allRows(b: ExplorerBackend, c: Client): Promise<TreeRowsResult> {
  const rows: TreeRowsResult['rows'] = [];
  for (let start = 0; ; start += 5000) {
    const page = (await b.call('getTreeRows', { key: KEY, start, count: 5000, foldAudit: false }, c)) as TreeRowsResult;
    rows.push(...page.rows);
    if (page.rows.length < 5000) return { ...page, rows };
  }
}

describe('a rewrite in place that keeps the size and the last line', () => {
  it('an open session: the change event reads it again and shows exactly verify’s warnings', async () => {
    const home = tmp();
    const file = writeSession(home, chain(1000));
    const b = await backendOf(home, { watch: true });
    const c = new Client('c');
    await b.call('openSession', { key: KEY }, c);
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual([]);

    overwrite(file, '"id":"e90"', '"id":"x90"');
    const e = await c.next((x) => x.type === 'session' && x.change === 'reloaded');
    expect(e.type === 'session' && e.reason).toMatch(/rewritten in place/);

    const want = await verify(file);
    expect(want.map((w) => `${w.code}@${w.line}`)).toEqual(['hash_mismatch@92', 'orphan@92']);
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual(want);
    // The entry read before is gone; the edited line is shown as the entry it now is.
    expect((await apiError(b.call('getEntry', { key: KEY, id: 'e90' }, c))).code).toBe('not_found');
    expect(await b.call('getEntry', { key: KEY, id: 'x90' }, c)).toMatchObject({ id: 'x90', line: 91 });
    const ids = (await allRows(b, c)).rows.map((r) => r.id);
    expect(ids).toContain('x90');
    expect(ids).not.toContain('e90');
  });

  it('a branch under an id whose line was rewritten is refused, and not a byte is written', async () => {
    const home = tmp();
    const file = writeSession(home, chain(1000));
    const b = await backendOf(home); // no watcher: nothing reads the file between the edit and the branch
    const c = new Client('c');
    await b.call('openSession', { key: KEY }, c);
    overwrite(file, '"id":"e90"', '"id":"x90"');
    const before = readFileSync(file);

    const e = await apiError(
      b.call('branch', { key: KEY, parentId: 'e90', text: 'go on', idempotencyKey: randomUUID() }, c),
    );
    expect(e.code).toBe('refused');
    expect(e.message).toMatch(/line 91 no longer holds entry e90/);
    expect(readFileSync(file).equals(before)).toBe(true);
    // The refusal read the file again: what is shown is a full read's.
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual(await verify(file));
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a branch when the file no longer ends with the line read is refused (the change lands after the catch-up)', async () => {
    const home = tmp();
    const file = writeSession(home, chain(200));
    const ledger = await Ledger.open(file);
    try {
      const n = ledger.index.count;
      const last = ledger.index.ids[n - 1];
      // The last line rewritten, same size, after the branch's catch-up outside the lock.
      vi.spyOn(ledger, 'refresh').mockImplementation(async () => {
        overwrite(file, 'answer 200 ', 'ANSWER 200 ');
        return { kind: 'unchanged' };
      });
      const before = readFileSync(file);
      const e = await appendBranch(ledger, last, 'go on').then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(BranchError);
      expect((e as BranchError).reason).toBe('changed');
      expect((e as BranchError).message).toMatch(/last line \(line 201\) is not the one read/);
      const after = readFileSync(file);
      expect(after.length).toBe(before.length);
      expect(after.subarray(0, lineOffset(after, 201)).equals(before.subarray(0, lineOffset(before, 201)))).toBe(true);
    } finally {
      ledger.close();
    }
  });
});

/** A home whose session (> 1 MiB, so its index is kept) was opened once and its index kept. */
async function keptHome(): Promise<{ home: string; file: string; data: string; keptFile: string }> {
  const root = tmp();
  const home = join(root, 'home');
  const data = join(root, 'data');
  const file = writeSession(home, chain(300, 4000));
  const a = await backendOf(home, { userDataDir: data });
  await a.call('openSession', { key: KEY }, new Client('a'));
  await a.close(); // keeps the index
  const keptFile = new IndexStore(join(data, 'index-cache')).fileFor(realpathSync(file));
  expect(readFileSync(keptFile).length).toBeGreaterThan(0);
  return { home, file, data, keptFile };
}

describe('a kept index is checked, never trusted', () => {
  it('crafted with a valid checksum and a rewritten id: never listed, never branched under', async () => {
    const { home, file, data, keptFile } = await keptHome();
    const kept = decodeSnapshot(readFileSync(keptFile));
    kept.snapshot.ids[5] = 'FAKE-ID-5';
    writeFileSync(keptFile, encodeSnapshot(kept.snapshot, kept.key, { work: null, turns: null, layout: kept.layout }));
    const fileBefore = readFileSync(file);

    const b = await backendOf(home, { userDataDir: data });
    const c = new Client('c');
    await b.call('openSession', { key: KEY }, c);
    const ids = (await allRows(b, c)).rows.map((r) => r.id);
    expect(ids).not.toContain('FAKE-ID-5');
    expect(ids).toContain('e5');
    expect((await apiError(b.call('findRow', { key: KEY, id: 'FAKE-ID-5', foldAudit: false }, c))).code).toBe(
      'not_found',
    );
    const e = await apiError(
      b.call('branch', { key: KEY, parentId: 'FAKE-ID-5', text: 'x', idempotencyKey: randomUUID() }, c),
    );
    expect(['refused', 'not_found']).toContain(e.code);
    expect(readFileSync(file).equals(fileBefore)).toBe(true);
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual(await verify(file));
  });

  it('crafted with a valid checksum, first rows shown at once: the check after them reads the file again', async () => {
    const { home, file, data, keptFile } = await keptHome();
    const kept = decodeSnapshot(readFileSync(keptFile));
    // A usage no row shows: only the check that follows the first rows finds it.
    kept.snapshot.usage[4 * 10] += 1;
    writeFileSync(keptFile, encodeSnapshot(kept.snapshot, kept.key, { work: null, turns: null, layout: kept.layout }));
    const b = await backendOf(home, { userDataDir: data });
    const c = new Client('c');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    const e = await c.next((x) => x.type === 'session' && x.change === 'reloaded');
    expect(e.type === 'session' && e.reason).toMatch(/kept index did not match/);
    expect(b.cache.peek(KEY)?.ledger.index.usage[40]).toBe(1000);
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual(await verify(file));
    // Dropped: a later open reads whole (or keeps a new, checked one).
    expect(() => decodeSnapshot(readFileSync(keptFile))).toThrow();
  });

  it('pointing at a line broken since: getEntry and getLeafView answer from the file, never `internal`', async () => {
    const { home, file, data } = await keptHome();
    // Line 6 (e5) broken in place, same size; the last line untouched: the kept index still "matches".
    const bytes = readFileSync(file);
    const at = lineOffset(bytes, 6);
    const end = bytes.indexOf(10, at);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.from('{'.padEnd(end - at, '#')), 0, end - at, at);
    closeSync(fd);

    const b = await backendOf(home, { userDataDir: data });
    const c = new Client('c');
    await b.call('openSession', { key: KEY }, c);
    const e = await apiError(b.call('getEntry', { key: KEY, id: 'e5' }, c));
    expect(e.code).toBe('not_found');
    const view = (await b.call('getLeafView', leafReq, c)) as LeafView;
    expect(view.leaf).toBe('e300');
    expect(view.chainLength).toBe(295); // e6 … e300: e6 is an orphan now
    expect(await b.call('getEntry', { key: KEY, id: 'e6' }, c)).toMatchObject({ id: 'e6', line: 7 });
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual(await verify(file));
  });
});

describe('derived caches follow the reading', () => {
  it('the context chart after an edit that keeps the entry count equals a fresh open’s', async () => {
    const home = tmp();
    const file = writeSession(home, chain(60));
    const b = await backendOf(home, { watch: true });
    const c = new Client('c');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    const before = unpackSeries((await b.call('getContextSeries', leafReq, c)) as PackedContextSeries);
    // Line 4 (e3) grows by 16 bytes: the file grows, its last line moves, the count stays.
    const bytes = readFileSync(file);
    const at = bytes.indexOf('ask 3 ');
    writeFileSync(file, Buffer.concat([bytes.subarray(0, at), Buffer.from('sixteen more by '), bytes.subarray(at)]));
    await c.next((x) => x.type === 'session' && x.change === 'reloaded');

    const after = unpackSeries((await b.call('getContextSeries', leafReq, c)) as PackedContextSeries);
    const fresh = await backendOf(home);
    const want = unpackSeries((await fresh.call('getContextSeries', leafReq, new Client('f'))) as PackedContextSeries);
    const totals = (s: ContextSeries): unknown => s.points.map((p) => JSON.stringify(p));
    expect(totals(want)).not.toEqual(totals(before));
    expect(totals(after)).toEqual(totals(want));
  });
});
