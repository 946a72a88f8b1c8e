import { isUtf8 } from 'node:buffer';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChainItems, LeafView, RawLine, SessionInfo, SessionSummary, TreeRowsResult } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { Ledger } from '../core/ledger';
import { ApiError } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { makeWritable } from '../../test-support/make-writable';
import { RecordingClient } from '../../test-support/recording-client';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const CHILD = 'agents/reviewer/sessions/70929a3c84065db2/01a1f82c-5b45-725c-805f-4b4c88f15899.jsonl';
const VERIFY = JSON.parse(readFileSync(join(FIXTURES, 'demo-home.verify.json'), 'utf8')) as Record<
  string,
  { entries: number; active_leaf: string }
>;

let dir: string;
let backend: ExplorerBackend;

const leafReq = (key: string, leaf: string | null = null) => ({
  key,
  leaf,
  plan: 'auto' as const,
  profile: DEFAULT_PROFILE,
  overrides: {},
});

async function expectApiError(p: Promise<unknown>, code: string, msg?: RegExp): Promise<void> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  expect((e as ApiError).code).toBe(code);
  if (msg) expect((e as ApiError).message).toMatch(msg);
}

/** A valid entry line appended under `parentId` by another process (node -e). */
function appendFromOtherProcess(path: string, id: string, parentId: string): number {
  const l = Ledger.openSync(path);
  const prev = l.lastLineHash;
  l.close();
  const line =
    JSON.stringify({
      id,
      parent_id: parentId,
      ts: new Date().toISOString(),
      prev_hash: prev,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'appended by another process' }] },
    }) + '\n';
  execFileSync(process.execPath, ['-e', 'require("fs").appendFileSync(process.argv[1], process.argv[2])', path, line]);
  return Buffer.byteLength(line);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vak-backend-'));
  cpSync(join(FIXTURES, 'demo-home'), join(dir, 'home'), { recursive: true });
  makeWritable(join(dir, 'home'));
  backend = await ExplorerBackend.create({ home: join(dir, 'home'), isDemo: false, label: 'test', lockPollMs: 0 });
});
afterEach(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ExplorerBackend requests', () => {
  const c = new RecordingClient('c1');

  it('answers getHome and lists every session with real cwd and links', async () => {
    expect(await backend.call('getHome', {}, c)).toEqual({ home: join(dir, 'home'), isDemo: false, label: 'test' });
    const list = (await backend.call('listSessions', {}, c)) as SessionSummary[];
    expect(list).toHaveLength(7);
    expect(list.every((s) => s.cwd !== null && !s.cwdMismatch && s.title !== null)).toBe(true);
    expect(new Set(list.map((s) => s.cwd)).size).toBe(3);
    const child = list.find((s) => s.key === CHILD)!;
    expect(child.parentSession?.key).toBe(BIG);
  });

  it('opens a session with exact figures and child-run links', async () => {
    const info = (await backend.call('openSession', { key: BIG }, c)) as SessionInfo;
    expect(info.entryCount).toBe(VERIFY[BIG].entries);
    expect(info.activeLeaf).toBe(VERIFY[BIG].active_leaf);
    expect(info.warningCount).toBe(0);
    expect(info.summary.entriesExact).toBe(true);
    expect(info.summary.entries).toBe(info.entryCount);
    expect(info.childRuns).toHaveLength(1);
    expect(info.childRuns[0].key).toBe(CHILD);
    expect(info.rowCount).toBe(info.entryCount);
    expect(info.foldedRowCount).toBeLessThan(info.rowCount);
    expect(info.branchPoints).toBeGreaterThan(0);
    expect(info.usage.activeChain.messages).toBeGreaterThan(0);
    expect(info.usage.allBranches.output_tokens).toBeGreaterThanOrEqual(info.usage.activeChain.output_tokens);
  });

  it('serves windows of tree rows and finds rows in both modes', async () => {
    const rows = (await backend.call(
      'getTreeRows',
      { key: BIG, start: 100, count: 50, foldAudit: false },
      c,
    )) as TreeRowsResult;
    expect(rows.total).toBe(VERIFY[BIG].entries);
    expect(rows.rows).toHaveLength(50);
    expect(rows.rows[0]).toMatchObject({ row: 100, index: 100, folded: null });
    const folded = (await backend.call(
      'getTreeRows',
      { key: BIG, start: 0, count: 5000, foldAudit: true },
      c,
    )) as TreeRowsResult;
    expect(folded.rows.some((r) => r.folded && r.folded.count >= 2)).toBe(true);
    const active = folded.rows.find((r) => r.isActiveLeaf)!;
    expect(active.id).toBe(VERIFY[BIG].active_leaf);
    const target = rows.rows[10];
    expect(await backend.call('findRow', { key: BIG, id: target.id, foldAudit: false }, c)).toEqual({ row: 110 });
    const { row } = (await backend.call('findRow', { key: BIG, id: target.id, foldAudit: true }, c)) as { row: number };
    const r = folded.rows[row];
    expect(r.index <= 110 && 110 < r.index + (r.folded?.count ?? 1)).toBe(true);
    await expectApiError(backend.call('findRow', { key: BIG, id: 'nope', foldAudit: false }, c), 'not_found', /nope/);
  });

  it('returns one entry, clipped on request', async () => {
    const id = VERIFY[BIG].active_leaf;
    const e = (await backend.call('getEntry', { key: BIG, id }, c)) as {
      raw: string;
      json: { id: string };
      truncated: boolean;
    };
    expect(e.truncated).toBe(false);
    expect(e.json.id).toBe(id);
    expect(JSON.parse(e.raw).id).toBe(id);
    const cut = (await backend.call('getEntry', { key: BIG, id, maxBytes: 10 }, c)) as {
      raw: string;
      json: unknown;
      truncated: boolean;
    };
    expect(cut).toMatchObject({ truncated: true, json: null });
    expect(Buffer.byteLength(cut.raw)).toBeLessThanOrEqual(10);
  });

  it('gives a leaf view whose every chain entry is projected or says why not', async () => {
    const v = (await backend.call('getLeafView', leafReq(BIG), c)) as LeafView;
    expect(v.leaf).toBe(VERIFY[BIG].active_leaf);
    expect(v.chain[v.chain.length - 1].id).toBe(v.leaf);
    expect(v.chainStart + v.chain.length).toBe(v.chainLength);
    const all = (await backend.call('getChainItems', { ...leafReq(BIG), start: 0, count: 2000 }, c)) as ChainItems;
    expect(all.items).toHaveLength(v.chainLength);
    expect(all.items.slice(v.chainStart)).toEqual(v.chain);
    expect(all.items[0].hidden).toBe('header');
    for (const item of all.items) expect(item.projectedAs.length > 0 || item.hidden !== null).toBe(true);
    const sources = new Set(v.projection.messages.flatMap((m) => m.source_ids));
    for (const s of sources) expect(all.items[v.sourcePositions[s]].id).toBe(s);
    expect(v.clipped).toEqual([]);
    await expectApiError(backend.call('getLeafView', leafReq(BIG, 'missing-entry'), c), 'not_found');
  });

  it('clips long strings for transport and serves the message whole on request', async () => {
    const d = join(dir, 'home/agents/vak/sessions/cbf29ce484222325');
    mkdirSync(d, { recursive: true });
    const key = 'agents/vak/sessions/cbf29ce484222325/long.jsonl';
    writeFileSync(join(d, 'long.jsonl'), '');
    const h = JSON.stringify({
      id: 'h',
      parent_id: null,
      ts: '2026-01-01T00:00:00.000Z',
      prev_hash: null,
      kind: 'header',
      cwd: '',
    });
    writeFileSync(join(d, 'long.jsonl'), h + '\n');
    const big = 'y'.repeat(100_000);
    appendFromOtherProcess(join(d, 'long.jsonl'), 'd', 'h');
    const l = Ledger.openSync(join(d, 'long.jsonl'));
    const line = JSON.stringify({
      id: 'big',
      parent_id: 'd',
      ts: '2026-01-01T00:00:01.000Z',
      prev_hash: l.lastLineHash,
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: big }] },
    });
    l.close();
    writeFileSync(join(d, 'long.jsonl'), line + '\n', { flag: 'a' });
    const v = (await backend.call('getLeafView', leafReq(key), c)) as LeafView;
    const k = v.projection.messages.findIndex((m) => m.source_ids.includes('big'));
    expect(v.clipped).toContain(k);
    expect(JSON.stringify(v.projection.messages[k].content).length).toBeLessThan(70_000);
    const whole = (await backend.call('getProjectedMessage', { ...leafReq(key), message: k }, c)) as {
      content: { text: string }[];
    };
    expect(whole.content[0].text).toBe(big);
    await expectApiError(
      backend.call('getProjectedMessage', { ...leafReq(key), message: 99 }, c),
      'not_found',
      /out of range/,
    );
  });

  it('reports the verify warnings of a damaged session', async () => {
    const d = join(dir, 'home/agents/vak/sessions/0000000000000000');
    mkdirSync(d, { recursive: true });
    copyFileSync(join(FIXTURES, 'damaged.jsonl'), join(d, 'damaged.jsonl'));
    const key = 'agents/vak/sessions/0000000000000000/damaged.jsonl';
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'damaged.expected.json'), 'utf8')).verify.warnings as {
      code: string;
      line: number;
    }[];
    const w = (await backend.call('getWarnings', { key }, c)) as { code: string; line: number }[];
    expect(w.map((x) => [x.code, x.line])).toEqual(expected.map((x) => [x.code, x.line]));
    const v = (await backend.call('getLeafView', leafReq(key), c)) as LeafView;
    expect(v.chain.length).toBeGreaterThan(0);

    // Every warning's line can be read back as it is in the file, entry or not.
    const bytes = readFileSync(join(d, 'damaged.jsonl'));
    const all = w as unknown as { code: string; offset: number }[];
    for (const x of all) {
      const line = (await backend.call('getLine', { key, offset: x.offset }, c)) as RawLine;
      const end = bytes.indexOf(10, x.offset);
      const want = bytes.subarray(x.offset, end < 0 ? bytes.length : end);
      expect(line.length).toBe(want.length);
      expect(line.terminated).toBe(end >= 0);
      expect(line.text).toBe(want.toString('utf8'));
      expect(line.validUtf8).toBe(isUtf8(want));
    }
    const utf8 = all.find((x) => x.code === 'torn_line' && x.offset === 4101)!;
    expect(((await backend.call('getLine', { key, offset: utf8.offset }, c)) as RawLine).validUtf8).toBe(false);
    const clipped = (await backend.call('getLine', { key, offset: 0, maxBytes: 10 }, c)) as RawLine;
    expect(clipped).toMatchObject({ length: null, truncated: true, text: bytes.subarray(0, 10).toString('utf8') });
    await expectApiError(backend.call('getLine', { key, offset: -1 }, c), 'bad_request', /offset/);
  });

  it('serves the page holding the active leaf as getTreeRows serves it at that start, in both modes', async () => {
    const info = (await backend.call('openSession', { key: BIG }, c)) as SessionInfo;
    for (const foldAudit of [false, true]) {
      const row = foldAudit ? info.activeLeafRows!.foldedRow : info.activeLeafRows!.row;
      for (const count of [16, 100, 256]) {
        const page = (await backend.call(
          'getTreeRows',
          { key: BIG, start: 0, count, foldAudit, holding: 'activeLeaf' },
          c,
        )) as TreeRowsResult;
        const start = Math.floor(row / count) * count;
        expect(page.start).toBe(start);
        const plain = (await backend.call('getTreeRows', { key: BIG, start, count, foldAudit }, c)) as TreeRowsResult;
        expect(page).toEqual({ ...plain, start });
        expect(page.rows.find((r) => r.row === row)?.isActiveLeaf).toBe(true);
      }
    }
    await expectApiError(
      backend.call('getTreeRows', { key: BIG, start: 256, count: 256, foldAudit: false, holding: 'activeLeaf' }, c),
      'bad_request',
      /start is 0/,
    );
    await expectApiError(
      backend.call('getTreeRows', { key: BIG, start: 0, count: 256, foldAudit: false, holding: 'top' }, c),
      'bad_request',
    );
  });

  it('serves the page of the new active leaf once an append moves it', async () => {
    const watcher = new RecordingClient('holding');
    await backend.call('subscribe', { topic: 'session', key: BIG }, watcher);
    const id = randomUUID();
    appendFromOtherProcess(join(dir, 'home', BIG), id, VERIFY[BIG].active_leaf);
    await watcher.seenOrNext((e) => e.type === 'session' && e.change === 'appended');
    const page = (await backend.call(
      'getTreeRows',
      { key: BIG, start: 0, count: 16, foldAudit: false, holding: 'activeLeaf' },
      c,
    )) as TreeRowsResult;
    const active = page.rows.find((r) => r.isActiveLeaf);
    expect(active?.id).toBe(id);
    expect(page.start).toBe(Math.floor(active!.row / 16) * 16);
  });

  it('rejects bad requests with clear errors, never a crash', async () => {
    await expectApiError(backend.call('nope', {}, c), 'bad_request', /unknown method "nope"/);
    await expectApiError(backend.call('openSession', {}, c), 'bad_request', /key/);
    await expectApiError(backend.call('openSession', { key: 'agents/../x/sessions/a/b.jsonl' }, c), 'bad_request');
    await expectApiError(backend.call('openSession', { key: BIG, extra: 1 }, c), 'bad_request', /extra|unrecognized/i);
    await expectApiError(
      backend.call('getTreeRows', { key: BIG, start: -1, count: 5, foldAudit: false }, c),
      'bad_request',
      /start/,
    );
    await expectApiError(backend.call('getLeafView', { ...leafReq(BIG), plan: 'greedy' }, c), 'bad_request', /plan/);
    await expectApiError(backend.call('listSessions', null, c), 'bad_request');
    await expectApiError(
      backend.call('openSession', { key: 'agents/vak/sessions/ab/none.jsonl' }, c),
      'not_found',
      /no session/,
    );
    await expectApiError(backend.call('unsubscribe', { subscription: 'sub-999' }, c), 'not_found');
  });
});

describe('ExplorerBackend branch and live updates', () => {
  let holder: ChildProcess | null = null;
  afterEach(() => {
    if (holder) {
      try {
        process.kill(-holder.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
    holder = null;
  });

  it('branches, and the append reaches session and library subscribers', async () => {
    const c = new RecordingClient('c2');
    await backend.call('subscribe', { topic: 'session', key: BIG }, c);
    await backend.call('subscribe', { topic: 'library' }, c);
    const parent = VERIFY[BIG].active_leaf;
    const r = (await backend.call(
      'branch',
      { key: BIG, parentId: parent, text: 'try another way', idempotencyKey: randomUUID() },
      c,
    )) as {
      id: string;
    };
    const e = await c.seenOrNext((x) => x.type === 'session' && x.change === 'appended');
    expect(e).toMatchObject({ key: BIG, activeLeaf: r.id, newIds: [r.id], entryCount: VERIFY[BIG].entries + 1 });
    const lib = await c.seenOrNext((x) => x.type === 'library');
    expect(lib.type === 'library' && lib.changed[0].key).toBe(BIG);
    await expectApiError(
      backend.call('branch', { key: BIG, parentId: parent, text: '  ', idempotencyKey: randomUUID() }, c),
      'refused',
      /empty/,
    );
    await expectApiError(
      backend.call('branch', { key: BIG, parentId: 'ghost', text: 'x', idempotencyKey: randomUUID() }, c),
      'refused',
      /ghost/,
    );
  });

  it('a branch is answered once its session has read the new line: the new leaf is there at once', async () => {
    const c = new RecordingClient('c3');
    const parent = VERIFY[BIG].active_leaf;
    const r = (await backend.call(
      'branch',
      { key: BIG, parentId: parent, text: 'and now the new leaf', idempotencyKey: randomUUID() },
      c,
    )) as { id: string };
    // Asked in the answer's own task, as a window does when it selects the new leaf.
    const view = (await backend.call('getLeafView', leafReq(BIG, r.id), c)) as LeafView;
    expect(view.leaf).toBe(r.id);
  });

  it('refuses to branch while an agent holds the lock', async () => {
    const c = new RecordingClient('c3');
    const path = join(dir, 'home', BIG);
    const before = statSync(path).size;
    // The holder says when it has the lock: a branch tried before that would be appended.
    holder = spawn('flock', ['-n', path, '-c', 'echo held; sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      holder!.stdout!.once('data', () => resolve());
      holder!.once('exit', (code) => reject(new Error(`flock exited (${code}) before it held the lock`)));
    });
    const err = await backend
      .call('branch', { key: BIG, parentId: VERIFY[BIG].active_leaf, text: 'hi', idempotencyKey: randomUUID() }, c)
      .catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('locked');
    expect((err as ApiError).message).toMatch(/lock/);
    expect(statSync(path).size).toBe(before);
  });

  it('reads only the appended bytes when another process appends', async () => {
    const c = new RecordingClient('c4');
    await backend.call('subscribe', { topic: 'session', key: BIG }, c);
    const s = backend.cache.get(BIG)!;
    let read = 0;
    const src = s.ledger.source;
    const orig = src.readInto.bind(src);
    src.readInto = (into, offset, length) => {
      const n = orig(into, offset, length);
      read += n;
      return n;
    };
    const path = join(dir, 'home', BIG);
    const lastLine = s.ledger.index.length[s.ledger.index.count - 1] + 1;
    const appended = appendFromOtherProcess(path, 'other-1', VERIFY[BIG].active_leaf);
    const e = await c.seenOrNext((x) => x.type === 'session' && x.change === 'appended');
    expect(e).toMatchObject({ newIds: ['other-1'], activeLeaf: 'other-1' });
    // The new bytes (twice: indexed, then read back for the delta's row text), plus the last
    // line already read (the append-only check), nothing more.
    expect(read).toBeLessThanOrEqual(2 * appended + lastLine);
    expect(read).toBeGreaterThanOrEqual(appended);
    expect(read).toBeLessThan(statSync(path).size / 10);
  });

  it('reports a shrunk or rewritten file as a reload with a reason, and keeps serving', async () => {
    const c = new RecordingClient('c5');
    await backend.call('subscribe', { topic: 'session', key: BIG }, c);
    const path = join(dir, 'home', BIG);
    truncateSync(path, statSync(path).size - 500);
    const e = await c.seenOrNext((x) => x.type === 'session' && x.change === 'reloaded');
    expect(e.type === 'session' && e.reason).toMatch(/shrank/);
    const info = (await backend.call('openSession', { key: BIG }, c)) as SessionInfo;
    expect(info.appendOnlyBreaks.map((b) => b.reason)).toEqual(['shrunk']);
    expect(info.warningCount).toBeGreaterThan(0); // the cut line is now an unterminated tail
    // Rewrite an early byte of the last line, same size.
    c.events = [];
    const bytes = readFileSync(path);
    const s = backend.cache.get(BIG)!;
    const ix = s.ledger.index;
    const at = ix.offset[ix.count - 1] + 10;
    bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61;
    writeFileSync(path, bytes);
    const e2 = await c.seenOrNext((x) => x.type === 'session' && x.change === 'reloaded');
    expect(e2.type === 'session' && e2.reason).toMatch(/changed/);
  });

  it('sees new agents and sessions, and deletions', async () => {
    const c = new RecordingClient('c6');
    await backend.call('subscribe', { topic: 'library' }, c);
    await backend.call('subscribe', { topic: 'session', key: CHILD }, c);
    const d = join(dir, 'home/agents/newbie/sessions/70929a3c84065db2');
    mkdirSync(d, { recursive: true });
    copyFileSync(join(dir, 'home', CHILD), join(d, 'fresh.jsonl'));
    const added = await c.seenOrNext((x) => x.type === 'library' && x.changed.some((s) => s.agent === 'newbie'));
    expect(added.type === 'library' && added.changed[0].key).toBe(
      'agents/newbie/sessions/70929a3c84065db2/fresh.jsonl',
    );
    rmSync(join(dir, 'home', CHILD));
    const gone = await c.seenOrNext((x) => x.type === 'library' && x.removed.includes(CHILD));
    expect(gone).toBeTruthy();
    await c.seenOrNext((x) => x.type === 'session' && x.change === 'removed' && x.key === CHILD);
    const list = (await backend.call('listSessions', {}, c)) as SessionSummary[];
    expect(list.map((s) => s.key)).not.toContain(CHILD);
  });

  it('drops a client and its subscriptions on disconnect', async () => {
    const c = new RecordingClient('c7');
    const witness = new RecordingClient('c7-witness');
    const { subscription } = (await backend.call('subscribe', { topic: 'session', key: BIG }, c)) as {
      subscription: string;
    };
    await backend.call('subscribe', { topic: 'session', key: BIG }, witness);
    backend.disconnect(c);
    await expectApiError(backend.call('unsubscribe', { subscription }, c), 'not_found');
    appendFromOtherProcess(join(dir, 'home', BIG), 'after-disconnect', VERIFY[BIG].active_leaf);
    // A client still subscribed hears of the append: by then the one that left would have too.
    await witness.seenOrNext((e) => e.type === 'session' && e.key === BIG, 15_000);
    expect(c.events).toEqual([]);
  });
});

describe('a session’s figures', () => {
  it('carry the active leaf’s row, folded and not, as findRow answers it', async () => {
    const info = (await backend.call('openSession', { key: BIG }, new RecordingClient('c-info'))) as SessionInfo;
    const find = (foldAudit: boolean) =>
      backend.call('findRow', { key: BIG, id: info.activeLeaf, foldAudit }, new RecordingClient('c-info'));
    expect(info.activeLeafRows).toEqual({
      row: ((await find(false)) as { row: number }).row,
      foldedRow: ((await find(true)) as { row: number }).row,
    });
    // Folding audit runs moves the row in this session: both are needed.
    expect(info.activeLeafRows!.foldedRow).toBeLessThan(info.activeLeafRows!.row);
  });
});
