import { hash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateSession } from '../../generator';
import { useTempDir } from '../../test-support/temp-dir';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import type { Ledger } from '../core/ledger';
import { planLeaf, projectionOf } from '../core/leaf-plan';
import { TreeLayout } from '../core/tree-layout';
import { turnCacheOf } from '../core/turn-cache';
import { IndexStore } from './index-store';
import { SessionCache } from './session-cache';

const tmp = useTempDir();
const KEY = 'agents/vak/sessions/h/s.jsonl';
const OTHER = 'agents/vak/sessions/h/t.jsonl';
const caches: SessionCache[] = [];
// Closed as the app closes them: the index writes still in flight end before the folder is removed.
afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
  vi.restoreAllMocks();
});

/** A home with two ~1.5 MiB generated sessions, each opened once so that its index is kept. */
async function setup(): Promise<{ home: string; file: string; dir: string }> {
  const root = tmp();
  const home = join(root, 'home');
  mkdirSync(join(home, 'agents/vak/sessions/h'), { recursive: true });
  for (const [key, seed] of [
    [OTHER, 4],
    [KEY, 3],
  ] as const) {
    const g = generateSession({ seed, bytes: 1_500_000, cwd: '/home/ana/projects/vak', branchChance: 0.05 });
    writeFileSync(join(home, key), g.bytes);
  }
  const dir = join(root, 'data', 'index-cache');
  for (const key of [OTHER, KEY]) {
    // (a leaf planned first: the closed turns' costs are kept with the index as it leaves)
    const c = new SessionCache(home, 4, new IndexStore(dir), 0);
    const s = await c.acquire(key);
    planLeaf(s.ledger, s.ledger.index.activeLeaf, OPTS);
    await c.flushKept();
    c.closeAll();
    await c.flushKept();
  }
  return { home, file: join(home, KEY), dir };
}

const OPTS = { plan: 'auto', profile: DEFAULT_PROFILE } as const;

function cacheWith(home: string, store: IndexStore | null): SessionCache {
  const c = new SessionCache(home, 4, store, 0);
  caches.push(c);
  return c;
}

/** What a reopen answers: the reading, the tree's rows (folded and not) and the active leaf's plan. */
function answers(s: { ledger: Ledger; layout: TreeLayout }): unknown {
  const l = s.ledger;
  const ix = l.index;
  const plan = planLeaf(l, ix.activeLeaf, OPTS);
  return {
    warnings: l.warnings(),
    activeLeaf: ix.ids[ix.activeLeaf],
    count: ix.count,
    ids: ix.ids.slice(0, ix.count),
    parents: [...ix.parent.subarray(0, ix.count)],
    last: l.lastPhysicalLine(),
    rows: [false, true].map((fold) => s.layout.rows(0, 1e6, fold)),
    summary: projectionOf(plan, []),
    messages: plan.messages(0, plan.messageCount),
  };
}

/** The same answers from a read of the whole file, with no kept index. */
async function wholeAnswers(home: string): Promise<unknown> {
  const s = await cacheWith(home, null).acquire(KEY);
  const built = TreeLayout.build(s.ledger.index);
  return answers({ ledger: s.ledger, layout: built });
}

function keptFileOf(dir: string, store: IndexStore, file: string): string {
  const kept = store.fileFor(realpathSync(file));
  expect(readdirSync(dir).map((f) => join(dir, f))).toContain(kept);
  return kept;
}

function appendLine(file: string, id: string): void {
  const text = readFileSync(file, 'utf8');
  const last = text.slice(text.lastIndexOf('\n', text.length - 2) + 1, -1);
  const line = {
    id,
    parent_id: (JSON.parse(last) as { id: string }).id,
    ts: '2026-12-01T00:00:00.000Z',
    prev_hash: hash('sha256', last, 'hex'),
    kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text: 'appended' }] },
  };
  appendFileSync(file, JSON.stringify(line) + '\n');
}

describe('the most recently used kept index, read ahead of its open', () => {
  it('is the one a reopen takes: no kept byte read again, no turn shaped, the same answers as a whole read', async () => {
    const { home, file, dir } = await setup();
    const store = new IndexStore(dir);
    expect(await store.readAhead(() => true)).toBe(realpathSync(file)); // kept last: the most recently used
    const s = await cacheWith(home, store).acquire(KEY);
    expect(store.stats).toEqual({ keptBytesRead: 0, aheadTaken: 1 });
    expect(s.ledger.stats.linesParsed).toBe(0);
    const got = answers(s);
    expect(turnCacheOf(s.ledger).stats.turnsProjected).toBe(0);
    expect(got).toEqual(await wholeAnswers(home));
  });

  it('takes the appended lines as any reopen does', async () => {
    const { home, file, dir } = await setup();
    const store = new IndexStore(dir);
    await store.readAhead(() => true);
    appendLine(file, 'after-1');
    appendLine(file, 'after-2');
    const s = await cacheWith(home, store).acquire(KEY);
    expect(store.stats.aheadTaken).toBe(1);
    expect(s.ledger.stats.linesParsed).toBe(2);
    expect(s.ledger.index.ids[s.ledger.index.activeLeaf]).toBe('after-2');
    expect(answers(s)).toEqual(await wholeAnswers(home));
  });

  it('is let go when another session opens first (and that one reads its own kept index)', async () => {
    const { home, dir } = await setup();
    const store = new IndexStore(dir);
    await store.readAhead(() => true);
    const c = cacheWith(home, store);
    await c.acquire(OTHER);
    await c.acquire(KEY);
    expect(store.stats.aheadTaken).toBe(0);
    expect(store.stats.keptBytesRead).toBeGreaterThan(0);
    expect(answers(await c.acquire(KEY))).toEqual(await wholeAnswers(home));
  });

  it('waits for the backend to be idle, and gives up once an open started meanwhile', async () => {
    const { home, dir } = await setup();
    const store = new IndexStore(dir);
    let idle = false;
    const ahead = store.readAhead(() => idle);
    await cacheWith(home, store).acquire(KEY); // the user's open comes first
    idle = true;
    expect(await ahead).toBeNull();
    expect(store.stats).toMatchObject({ aheadTaken: 0 });
  });

  it.each([
    [
      'kept again since (another generation: renamed over it)',
      (kept: string) => {
        writeFileSync(kept + '.new', readFileSync(kept));
        renameSync(kept + '.new', kept);
      },
      null,
    ],
    [
      'damaged in place since',
      (kept: string) => {
        const b = readFileSync(kept);
        b[b.length >> 1] ^= 0xff;
        writeFileSync(kept, b);
      },
      /checksum/,
    ],
    ['cut short since', (kept: string) => truncateSync(kept, 1000), /checksum|not a kept index|length/],
  ])('is not taken when the kept file was %s: the file is read again', async (_name, change, refused) => {
    const { home, dir, file } = await setup();
    const store = new IndexStore(dir);
    await store.readAhead(() => true);
    change(keptFileOf(dir, store, file));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const s = await cacheWith(home, store).acquire(KEY);
    expect(store.stats.aheadTaken).toBe(0);
    expect(store.stats.keptBytesRead).toBeGreaterThan(0);
    if (refused === null) {
      expect(warn).not.toHaveBeenCalled();
      expect(s.ledger.stats.linesParsed).toBe(0); // (the same index, read again from its new file)
    } else {
      expect(String(warn.mock.calls[0][0])).toMatch(refused);
      expect(s.ledger.stats.bytesRead).toBeGreaterThanOrEqual(statSync(file).size); // read whole
    }
    expect(answers(s)).toEqual(await wholeAnswers(home));
  });

  it.each([
    [
      'damaged',
      (kept: string) => {
        const b = readFileSync(kept);
        b[b.length >> 1] ^= 0xff;
        writeFileSync(kept, b);
      },
    ],
    ['cut short', (kept: string) => truncateSync(kept, 1000)],
  ])('reads nothing ahead from a %s kept file; its open refuses it and reads whole', async (_name, change) => {
    const { home, dir, file } = await setup();
    const store = new IndexStore(dir);
    change(keptFileOf(dir, store, file));
    expect(await store.readAhead(() => true)).toBeNull();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const s = await cacheWith(home, store).acquire(KEY);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(s.ledger.stats.bytesRead).toBeGreaterThanOrEqual(statSync(file).size);
    expect(answers(s)).toEqual(await wholeAnswers(home));
  });

  it('is checked against the ledger as any kept index: a ledger cut since is read whole', async () => {
    const { home, dir, file } = await setup();
    const store = new IndexStore(dir);
    await store.readAhead(() => true);
    truncateSync(file, readFileSync(file).length - 10);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const s = await cacheWith(home, store).acquire(KEY);
    expect(String(warn.mock.calls[0][0])).toMatch(/shrank/);
    expect(s.ledger.stats.bytesRead).toBeGreaterThanOrEqual(statSync(file).size);
    expect(answers(s)).toEqual(await wholeAnswers(home));
  });
});
