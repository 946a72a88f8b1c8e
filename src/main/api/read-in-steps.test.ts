import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent, LeafView, SessionInfo, SessionSummary, TreeRowsResult, WorkItems } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';

/**
 * "show first rows while a first open is still reading": a session bigger than
 * `firstReadBytes` answers its open early and reads the rest in steps, each announced like an
 * append. What it shows once read to the end is exactly what a whole read shows — on every
 * fixture (damaged, torn, missing header) and with steps that split lines anywhere.
 */

const tmp = useTempDir('vak-steps-');
const KEY = 'agents/vak/sessions/h/s.jsonl';
const backends: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

class Client implements ApiClient {
  events: ApiEvent[] = [];
  constructor(readonly id: string) {}
  push(e: ApiEvent): void {
    this.events.push(e);
  }
  async until(pred: (e: ApiEvent) => boolean, ms = 10_000): Promise<ApiEvent> {
    const end = Date.now() + ms;
    for (;;) {
      const e = this.events.find(pred);
      if (e) return e;
      if (Date.now() > end) throw new Error(`no such event in ${ms} ms: ${JSON.stringify(this.events.slice(-3))}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

/** A home holding `bytes` as its one session. */
function homeWith(bytes: Buffer): { home: string; file: string } {
  const home = join(tmp(), 'home');
  mkdirSync(join(home, 'agents/vak/sessions/h'), { recursive: true });
  const file = join(home, KEY);
  writeFileSync(file, bytes);
  return { home, file };
}

/** `bytes` and one more user message, child of their last line, with id `id`. */
function withLine(bytes: Buffer, id: string): Buffer {
  const lines = bytes.toString('utf8').trimEnd().split('\n');
  const last = lines[lines.length - 1];
  const line = JSON.stringify({
    id,
    parent_id: (JSON.parse(last) as { id: string }).id,
    ts: '2026-12-02T10:00:00.000Z',
    prev_hash: hash('sha256', last, 'hex'),
    kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text: 'one more' }] },
  });
  return Buffer.concat([bytes, Buffer.from(line + '\n')]);
}

async function backendOn(home: string, firstReadBytes: number, userDataDir?: string): Promise<ExplorerBackend> {
  const b = await ExplorerBackend.create({
    home,
    isDemo: false,
    label: 't',
    lockPollMs: 0,
    watch: false,
    firstReadBytes,
    ...(userDataDir ? { userDataDir } : {}),
  });
  backends.push(b);
  return b;
}

/** Every tree row, page by page. */
async function allRows(b: ExplorerBackend, c: ApiClient, foldAudit: boolean): Promise<TreeRowsResult[]> {
  const pages: TreeRowsResult[] = [];
  for (let start = 0; ; start += 5000) {
    const p = (await b.call('getTreeRows', { key: KEY, start, count: 5000, foldAudit }, c)) as TreeRowsResult;
    pages.push(p);
    if (start + 5000 >= p.total) return pages;
  }
}

/**
 * What the UI shows of a session: its figures (the library row aside, and the generation, which
 * names one backend's reading), every tree row, the warnings.
 */
async function shown(b: ExplorerBackend, c: ApiClient): Promise<unknown> {
  const {
    summary: _summary,
    generation: _generation,
    ...info
  } = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
  const rows = await allRows(b, c, false);
  const folded = await allRows(b, c, true);
  return { info, rows, folded, warnings: await b.call('getWarnings', { key: KEY }, c) };
}

/** Opens in steps of `step` bytes, follows every step's event, and returns what is shown at the end. */
async function readInSteps(
  home: string,
  step: number,
): Promise<{ first: SessionInfo; events: ApiEvent[]; end: unknown }> {
  const b = await backendOn(home, step);
  const c = new Client('steps');
  await b.call('subscribe', { topic: 'session', key: KEY }, c);
  const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
  if (first.reading) {
    await c.until((e) => e.type === 'session' && e.reading === null);
    // Its hash chain is checked after the read: then its warnings are whole.
    expect(first.checkingHashes).toBe(true);
    await c.until((e) => e.type === 'session' && e.change === 'checked');
  }
  return { first, events: c.events, end: await shown(b, c) };
}

const fixtureFiles = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

describe('a first open read in steps', () => {
  it.each(fixtureFiles)('%s: ends showing exactly what a whole read shows', async (name) => {
    const bytes = readFileSync(join(FIXTURES, name));
    const { home } = homeWith(bytes);
    const whole = await shown(await backendOn(home, Infinity), new Client('whole'));
    // 97 bytes: steps end inside lines, inside UTF-8 sequences, before and after the header.
    const r = await readInSteps(home, 97);
    expect(r.first.reading).toEqual({ bytesRead: 97, bytesTotal: bytes.length, entriesRead: r.first.entryCount });
    expect(r.end).toEqual(whole);
    // Every step was told, in order, and only the last says the reading ended.
    const steps = r.events.filter((e) => e.type === 'session' && e.reading !== undefined);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.slice(0, -1).every((e) => e.type === 'session' && e.reading !== null)).toBe(true);
    // Each entry announced once: the steps' new entries add up to what the first answer lacked.
    const announced = steps.reduce((n, e) => n + (e.type === 'session' ? (e.delta?.newEntries ?? 0) : 0), 0);
    expect(r.first.entryCount + announced).toBe((r.end as { info: SessionInfo }).info.entryCount);
    expect(steps.every((e) => e.type === 'session' && e.newIds.length === 0)).toBe(true);
    // The usage totals, added up step by step (each step adds what it read), end as a whole read's.
    const last = steps.at(-1);
    expect(last?.type === 'session' && last.delta?.usage).toEqual((r.end as { info: SessionInfo }).info.usage);
    // The last step brings what openSession answers (bar the hash check's findings, which come
    // after it): the follower asks for nothing more. No other step carries it.
    expect(steps.slice(0, -1).some((e) => e.type === 'session' && e.info !== undefined)).toBe(false);
    const told = last?.type === 'session' ? last.info : undefined;
    expect(told).toBeDefined();
    const { summary: _s, checkingHashes: _c, warningCount: _w, generation: _g, ...got } = told!;
    const { checkingHashes: _c2, warningCount: _w2, ...want } = (r.end as { info: SessionInfo }).info;
    expect(got).toEqual(want);
  });

  it('a big session answers after its first bytes, shows their rows, and reads each line once', async () => {
    const g = generateSession({ seed: 5, bytes: 1_200_000, cwd: '/home/ana/projects/vak', branchChance: 0.05 });
    const { home, file } = homeWith(g.bytes);
    // The bytes a whole read reads for the same requests: the file, and the payloads of what is shown.
    const wb = await backendOn(home, Infinity);
    await wb.call('openSession', { key: KEY }, new Client('whole'));
    await wb.call('getTreeRows', { key: KEY, start: 0, count: 50, foldAudit: false }, new Client('whole'));
    const wholeBytes = wb.cache.peek(KEY)?.ledger.stats.bytesRead ?? 0;
    const whole = await shown(wb, new Client('whole'));
    // The read's end brings the whole session's figures (what the follower used to ask openSession
    // for then): they read again what the whole read's open and first rows read beyond the file.
    const infoBytes = wholeBytes - statSync(file).size;
    const b = await backendOn(home, 256 << 10);
    const c = new Client('steps');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.reading?.bytesRead).toBe(256 << 10);
    expect(first.entryCount).toBeGreaterThan(0);
    expect(first.entryCount).toBeLessThan(g.entries);
    expect(first.warningCount).toBe(0); // a step that ends inside a line is no torn tail
    const rows = (await b.call(
      'getTreeRows',
      { key: KEY, start: 0, count: 50, foldAudit: false },
      c,
    )) as TreeRowsResult;
    expect(rows.rows.length).toBe(Math.min(50, first.rowCount));
    await c.until((e) => e.type === 'session' && e.reading === null);
    await c.until((e) => e.type === 'session' && e.change === 'checked');
    // Each line parsed once; besides the first rows' payloads (50 rows), a step re-reads only
    // the last complete line (the append-only check), and the hash check, done after the read,
    // reads every line but the last once more (it hashes them; the reader hashed only each
    // chunk's last line).
    const stats = b.cache.peek(KEY)?.ledger.stats;
    const lines = g.bytes.toString('utf8').split('\n');
    expect(stats?.linesParsed).toBe(lines.length - 1);
    const steps = c.events.filter((e) => e.type === 'session' && e.reading !== undefined).length;
    const longest = Math.max(...lines.map((l) => Buffer.byteLength(l) + 1));
    const size = statSync(file).size;
    expect(stats?.bytesRead).toBeGreaterThanOrEqual(2 * size - longest);
    expect(stats?.bytesRead).toBeLessThanOrEqual(wholeBytes + infoBytes + steps * longest + size);
    expect(await shown(b, c)).toEqual(whole);
  });

  // The leaf that waited for the read is planned before the step that announces the read's end
  // (which sums every entry and makes a page redraw its tree): the panes come first, and are the
  // whole file's active leaf, the one that announcement names.
  it("the active leaf's panes asked while the file is read are the whole file's, answered before its end is announced", async () => {
    // Over 4 MiB after the first step: the rest is read in two parts, with a turn of the event loop
    // between them in which the next step is asked for (queued behind that read).
    const g = generateSession({ seed: 6, bytes: 5_000_000, cwd: '/home/ana/projects/vak' });
    const { home } = homeWith(g.bytes);
    const b = await backendOn(home, 128 << 10);
    const c = new Client('steps');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.reading).not.toBeNull();
    const req = { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true };
    const ended = (e: ApiEvent): boolean => e.type === 'session' && e.reading === null;
    // Every piece of work seems to take 50 ms: work in steps would pause after each one.
    let t = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (t += 50));
    let view: LeafView;
    try {
      view = (await b.call('getLeafView', req, c)) as LeafView;
    } finally {
      now.mockRestore();
    }
    const announcedFirst = c.events.some(ended);
    const end = await c.until(ended);
    expect(announcedFirst).toBe(false);
    // The panes were the whole file's active leaf's, which the announcement then names.
    expect(end.type === 'session' && [end.entryCount, end.activeLeaf]).toEqual([g.entries, view.leaf]);
  });

  // The panes that wait for the whole file read its rest in one go, announced at its end: the
  // reading's progress is what tells the entries read meanwhile.
  it('while the panes wait for a first read, its progress counts the entries read so far', async () => {
    const g = generateSession({ seed: 7, bytes: 6_000_000, cwd: '/home/ana/projects/vak' });
    const { home, file } = homeWith(g.bytes);
    const b = await backendOn(home, 128 << 10);
    const c = new Client('steps');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.reading?.entriesRead).toBe(first.entryCount);
    const req = { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true };
    await b.call('getLeafView', req, c);
    const progress = c.events.flatMap((e) => (e.type === 'progress' ? [e] : []));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((p, i) => i === 0 || p.entriesRead >= progress[i - 1].entriesRead)).toBe(true);
    // The last tells the whole file read, every entry in it, before its end is announced.
    expect(progress.at(-1)).toMatchObject({ bytesRead: statSync(file).size, entriesRead: g.entries });
    const announced = c.events.flatMap((e) => (e.type === 'session' && e.reading ? [e.entryCount] : []));
    expect(Math.max(first.entryCount, ...announced)).toBeLessThan(g.entries);
    await c.until((e) => e.type === 'session' && e.reading === null);
  });

  it('a rows request sent while a first open reads in steps is answered before the next step reads', async () => {
    const g = generateSession({ seed: 6, bytes: 2_000_000, cwd: '/home/ana/projects/vak' });
    const { home } = homeWith(g.bytes);
    const b = await backendOn(home, 256 << 10);
    const order: string[] = [];
    const c = new Client('c');
    const push = c.push.bind(c);
    c.push = (e) => {
      if (e.type === 'session' && e.change === 'appended' && e.reading !== undefined) order.push('step');
      push(e);
    };
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.reading).not.toBeNull();
    // The next step was asked for at the open (its job due in this turn): the rows come in the same turn, after it.
    const rows = await new Promise<TreeRowsResult>((resolve, reject) =>
      setImmediate(() => {
        order.push('asked');
        b.call('getTreeRows', { key: KEY, start: 0, count: 200, foldAudit: false }, c).then((r) => {
          order.push('rows');
          resolve(r as TreeRowsResult);
        }, reject);
      }),
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    await c.until((e) => e.type === 'session' && e.reading === null);
    expect(order.slice(0, 3)).toEqual(['asked', 'rows', 'step']);
  });

  it('cost (read like the series and export) reads the rest first: the whole file’s figures', async () => {
    const g = generateSession({ seed: 6, bytes: 600_000, cwd: '/home/ana/projects/vak' });
    const { home } = homeWith(g.bytes);
    const b = await backendOn(home, 64 << 10);
    const c = new Client('c');
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.reading).not.toBeNull();
    const cost = (await b.call('getCost', { key: KEY, leaf: null }, c)) as { leaf: string };
    const whole = await backendOn(home, Infinity);
    const wholeCost = await whole.call('getCost', { key: KEY, leaf: null }, new Client('w'));
    expect(cost).toEqual(wholeCost);
    expect(b.cache.peek(KEY)?.reading).toBe(false);
  });

  it('a branch on a session still read in steps links to the file’s real last line', async () => {
    const g = generateSession({ seed: 7, bytes: 400_000, cwd: '/home/ana/projects/vak' });
    const { home } = homeWith(g.bytes);
    const b = await backendOn(home, 32 << 10);
    const c = new Client('c');
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.reading).not.toBeNull();
    const parent = first.activeLeaf ?? '';
    await b.call(
      'branch',
      {
        key: KEY,
        parentId: parent,
        text: 'from the first rows',
        idempotencyKey: '0190a6a4-1d2c-7c3e-9f00-000000000001',
      },
      c,
    );
    const check = await backendOn(home, Infinity);
    const after = (await check.call('openSession', { key: KEY }, new Client('w'))) as SessionInfo;
    expect(after.entryCount).toBe(g.entries + 1);
    expect(after.warningCount).toBe(0); // the new line's prev_hash is the hash of the file's last line
  });

  it("a reopen's first leaf shapes no closed turn the last process shaped (their costs are kept with the index)", async () => {
    const g = generateSession({ seed: 9, bytes: 2_000_000, cwd: '/home/ana/projects/vak', shape: 'uncompacted' });
    // A last line whose id sorts before the generated (UUIDv7) ones: ids that no longer increase are
    // mapped, between requests after a reopen (ids that increase are searched, never mapped).
    const { home } = homeWith(withLine(g.bytes, '00-sorts-first'));
    const userDataDir = join(tmp(), 'data');
    const req = { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {}, pagedMessages: true };
    const first = await backendOn(home, Infinity, userDataDir);
    await first.call('openSession', { key: KEY }, new Client('c'));
    await first.cache.flushKept(); // kept as soon after the open as it is, before any leaf is shown
    const before = (await first.call('getLeafView', req, new Client('c'))) as LeafView;
    expect(first.coreWork().turnsProjected).toBeGreaterThan(50);
    await first.close(); // kept again, now with the turns' costs

    const again = await backendOn(home, Infinity, userDataDir);
    const view = (await again.call('getLeafView', req, new Client('d'))) as LeafView;
    // Its first screen's sources were found on the chain, no id looked up (they are mapped between
    // requests, which on a loaded machine may happen before the view is answered: not counted).
    expect(again.cache.peek(KEY)?.ledger.index.lookupsThatMapped).toBe(0);
    expect(again.coreWork()).toMatchObject({ turnsProjected: 0, linesParsed: 0 });
    expect(again.coreWork().turnsReused).toBeGreaterThan(50);
    expect(view).toEqual(before);
  });

  it('a session read in steps is kept whole: the next backend on the same data folder reads only the kept last line', async () => {
    const g = generateSession({ seed: 8, bytes: 2_000_000, cwd: '/home/ana/projects/vak' });
    const { home } = homeWith(g.bytes);
    const userDataDir = join(tmp(), 'data');
    const first = await backendOn(home, 256 << 10, userDataDir);
    const c = new Client('c');
    await first.call('subscribe', { topic: 'session', key: KEY }, c);
    expect(((await first.call('openSession', { key: KEY }, c)) as SessionInfo).reading).not.toBeNull();
    await c.until((e) => e.type === 'session' && e.reading === null);
    await first.close(); // writes the kept index
    const again = await backendOn(home, 256 << 10, userDataDir);
    const info = (await again.call('openSession', { key: KEY }, new Client('d'))) as SessionInfo;
    expect(info.reading).toBeNull();
    expect(info.entryCount).toBe(g.entries);
    // The kept last line is read to check it, nothing else of the file.
    expect(again.cache.peek(KEY)?.ledger.stats.bytesRead).toBeLessThan(64 << 10);
    // The active chain's work came kept with the index (folded before it was kept, though no
    // one asked for the whole session's figures): the reopen parsed none of its work entries.
    const whole = await backendOn(home, Infinity);
    const expected = (await whole.call('openSession', { key: KEY }, new Client('e'))) as SessionInfo;
    expect(expected.work.count).toBeGreaterThan(3);
    expect(info.work).toEqual(expected.work);
    const items = (await again.call('getWork', { key: KEY }, new Client('d'))) as WorkItems;
    expect(items).toEqual(await whole.call('getWork', { key: KEY }, new Client('e')));
    expect(items.items).toHaveLength(expected.work.count);
    expect(again.coreWork().entriesMaterialised).toBe(1); // the header, for the session's header info
  });

  it("checks a first read's hash chain after it: the first answers do not wait, then followers hear what it found", async () => {
    // Three entries whose prev_hash is wrong, spread over a 1 MB session (the lines after them
    // then do not link either: they hashed the lines as first written).
    const g = generateSession({ seed: 21, bytes: 1_000_000, cwd: '/home/ana/projects/vak' });
    const lines = g.bytes.toString('utf8').trimEnd().split('\n');
    for (const k of [5, Math.floor(lines.length / 2), lines.length - 2]) {
      lines[k] = lines[k].replace(
        /"prev_hash":"([0-9a-f])/,
        (_m, c: string) => `"prev_hash":"${c === '0' ? '1' : '0'}`,
      );
    }
    const { home } = homeWith(Buffer.from(lines.join('\n') + '\n'));
    const wb = await backendOn(home, Infinity);
    const whole = await shown(wb, new Client('whole'));
    const wholeWarnings = (whole as { warnings: { code: string }[] }).warnings;
    const mismatches = wholeWarnings.filter((w) => w.code === 'hash_mismatch').length;
    expect(mismatches).toBe(6);

    const b = await backendOn(home, 128 << 10);
    const c = new Client('steps');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    await b.call('subscribe', { topic: 'library' }, c);
    const first = (await b.call('openSession', { key: KEY }, c)) as SessionInfo;
    expect(first.checkingHashes).toBe(true);
    // Lines 6 and 7 do not link, within the first 128 KB: not counted before the check.
    expect(first.warningCount).toBe(0);
    // The active leaf's panes come once the file is read (the check runs after).
    const view = (await b.call(
      'getLeafView',
      { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} },
      c,
    )) as LeafView;
    expect(view.leaf).toBe((JSON.parse(lines.at(-1)!) as { id: string }).id);

    const checked = await c.until((e) => e.type === 'session' && e.change === 'checked');
    expect(checked).toMatchObject({ hashMismatches: mismatches });
    expect(await shown(b, c)).toEqual(whole);
    // The library row counts them too (its event came after the check).
    const row = c.events.findLast((e) => e.type === 'library' && e.changed.some((s) => s.key === KEY));
    expect(row?.type === 'library' && row.changed.find((s) => s.key === KEY)?.warnings).toBe(mismatches);
  });

  it('a library subscriber that subscribes after a hash check ended still gets its warning count', async () => {
    // A reload asks for its session before the library: the listing can be answered before the
    // check ends, and the library's subscription come after it.
    const g = generateSession({ seed: 23, bytes: 600_000, cwd: '/home/ana/projects/vak' });
    const lines = g.bytes.toString('utf8').trimEnd().split('\n');
    lines[9] = lines[9].replace(/"prev_hash":"[0-9a-f]/, '"prev_hash":"X');
    const { home } = homeWith(Buffer.from(lines.join('\n') + '\n'));
    const b = await backendOn(home, 64 << 10);
    const c = new Client('late');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    expect(((await b.call('openSession', { key: KEY }, c)) as SessionInfo).checkingHashes).toBe(true);
    const listed = (await b.call('listSessions', {}, c)) as SessionSummary[];
    expect(listed.find((s) => s.key === KEY)?.warnings ?? 0).not.toBe(2);
    expect(await c.until((e) => e.type === 'session' && e.change === 'checked')).toMatchObject({ hashMismatches: 2 });
    expect(c.events.some((e) => e.type === 'library')).toBe(false);

    await b.call('subscribe', { topic: 'library' }, c);
    const row = c.events.findLast((e) => e.type === 'library' && e.changed.some((s) => s.key === KEY));
    expect(row?.type === 'library' && row.changed.find((s) => s.key === KEY)?.warnings).toBe(2);
  });

  it('getWarnings while the hash check is pending answers every warning (it finishes the check first)', async () => {
    const g = generateSession({ seed: 22, bytes: 600_000, cwd: '/home/ana/projects/vak' });
    const lines = g.bytes.toString('utf8').trimEnd().split('\n');
    lines[9] = lines[9].replace(/"prev_hash":"[0-9a-f]/, '"prev_hash":"X');
    const { home } = homeWith(Buffer.from(lines.join('\n') + '\n'));
    const whole = await (await backendOn(home, Infinity)).call('getWarnings', { key: KEY }, new Client('w'));
    const b = await backendOn(home, 64 << 10);
    const c = new Client('c');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    expect(((await b.call('openSession', { key: KEY }, c)) as SessionInfo).checkingHashes).toBe(true);
    expect(await b.call('getWarnings', { key: KEY }, c)).toEqual(whole);
    expect(whole).toEqual([
      expect.objectContaining({ code: 'hash_mismatch', line: 10 }),
      expect.objectContaining({ code: 'hash_mismatch', line: 11 }),
    ]);
    // The session still says it was checked, with what was found.
    await c.until((e) => e.type === 'session' && e.reading === null);
    expect(await c.until((e) => e.type === 'session' && e.change === 'checked')).toMatchObject({ hashMismatches: 2 });
  });

  it('a step reads the file on, not the library row: no stat, head or lock table read again per step', async () => {
    const g = generateSession({ seed: 6, bytes: 600_000, cwd: '/home/ana/projects/vak' });
    const { home } = homeWith(g.bytes);
    const b = await backendOn(home, 64 << 10);
    const fromDisk = vi.spyOn(b.library, 'refresh');
    const c = new Client('steps');
    await b.call('subscribe', { topic: 'session', key: KEY }, c);
    await b.call('openSession', { key: KEY }, c);
    await c.until((e) => e.type === 'session' && e.reading === null);
    expect(c.events.filter((e) => e.type === 'session' && e.reading !== undefined).length).toBeGreaterThan(5);
    expect(fromDisk).not.toHaveBeenCalled();
    // The row the library shows at the end has the whole read's figures all the same.
    const row = b.library.get(KEY);
    expect(row?.entries).toBe(b.cache.peek(KEY)?.ledger.index.count);
  });
});
