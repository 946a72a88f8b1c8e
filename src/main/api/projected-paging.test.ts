import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROJECTED_PAGE, SCREEN_CHAIN, SCREEN_TAIL, type LeafView, type ProjectedMessages } from '../../shared/api';
import { DEFAULT_PROFILE, type Json, type ProjectedMessage } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { cwdHash } from '../core/fnv1a64';
import { Ledger } from '../core/ledger';
import { project } from '../core/projection';
import type { ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { clipForTransport } from './transport-clip';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const CWD = '/home/ana/projects/paged';
const GEN_KEY = `agents/vak/sessions/${cwdHash(CWD)}/gen-6k.jsonl`;
const FIXTURE_DIR = 'agents/vak/sessions/0000000000000000';
const client: ApiClient = { id: 'test', push: () => undefined };

let dir: string;
let home: string;
let backend: ExplorerBackend;
const keys: string[] = [];

const req = (key: string, leaf: string | null, plan: 'auto' | 'none') => ({
  key,
  leaf,
  plan,
  profile: { ...DEFAULT_PROFILE, window: 60_000 },
  overrides: {},
});

/** What the core projects for a leaf, clipped as the transport clips it. */
function expected(key: string, leaf: number, plan: 'auto' | 'none'): ProjectedMessage[] {
  const l = Ledger.openSync(join(home, key));
  try {
    return project(l, leaf, { plan, profile: req(key, null, plan).profile }).messages.map((m) => {
      const r = clipForTransport(m.content);
      return r.clipped ? { ...m, content: r.value as Json[] } : m;
    });
  } finally {
    l.close();
  }
}

/** Every message of a leaf's projection, read the paged way: the first screen, then pages. */
async function pagedMessages(key: string, leaf: string | null, plan: 'auto' | 'none'): Promise<ProjectedMessage[]> {
  const v = (await backend.call('getLeafView', { ...req(key, leaf, plan), pagedMessages: true }, client)) as LeafView;
  expect(v.projection.messages).toEqual([]);
  const out: ProjectedMessage[] = new Array<ProjectedMessage>(v.messageCount);
  for (const p of v.messagePages) p.messages.forEach((m, k) => (out[p.start + k] = m));
  const screen = v.messagePages.reduce((n, p) => n + p.messages.length, 0);
  expect(screen).toBe(Math.min(v.messageCount, SCREEN_TAIL));
  for (let start = 0; start < v.messageCount; start += 37) {
    const page = (await backend.call(
      'getProjectedMessages',
      { ...req(key, leaf, plan), start, count: 37 },
      client,
    )) as ProjectedMessages;
    expect(page.total).toBe(v.messageCount);
    expect(page.start).toBe(start);
    page.messages.forEach((m, k) => (out[start + k] = m));
    for (const m of page.messages)
      for (const id of m.source_ids) expect(page.sourcePositions[id]).toBeGreaterThanOrEqual(0);
  }
  return out;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vak-projected-paging-'));
  home = join(dir, 'home');
  mkdirSync(join(home, 'agents/vak/sessions', cwdHash(CWD)), { recursive: true });
  generateSession({ seed: 11, entries: 6000, cwd: CWD, path: join(home, GEN_KEY), toolResultBytes: [200, 800] });
  keys.push(GEN_KEY);
  mkdirSync(join(home, FIXTURE_DIR), { recursive: true });
  for (const f of readdirSync(FIXTURES).filter((n) => n.endsWith('.jsonl'))) {
    copyFileSync(join(FIXTURES, f), join(home, FIXTURE_DIR, f));
    keys.push(`${FIXTURE_DIR}/${f}`);
  }
  backend = await ExplorerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, watch: false });
});
afterAll(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the projected pane in pages', () => {
  it('first screen plus pages are exactly the core projection, for every leaf of every fixture, both plans', async () => {
    let compared = 0;
    for (const key of keys) {
      const l = Ledger.openSync(join(home, key));
      const leaves = l.index.leaves().slice(-12);
      const ids = leaves.map((i) => l.index.ids[i]);
      l.close();
      for (const [k, leaf] of leaves.entries()) {
        for (const plan of ['auto', 'none'] as const) {
          expect(await pagedMessages(key, ids[k], plan)).toEqual(expected(key, leaf, plan));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('the paged view keeps the plan and token totals of the whole projection, and the whole view is unchanged', async () => {
    const whole = (await backend.call('getLeafView', req(GEN_KEY, null, 'auto'), client)) as LeafView;
    const paged = (await backend.call(
      'getLeafView',
      { ...req(GEN_KEY, null, 'auto'), pagedMessages: true },
      client,
    )) as LeafView;
    expect(whole.messagePages).toEqual([]);
    expect(whole.messageCount).toBe(whole.projection.messages.length);
    expect(whole.messageCount).toBeGreaterThan(SCREEN_TAIL);
    expect({ ...paged.projection, messages: [] }).toEqual({ ...whole.projection, messages: [] });
    expect(paged.messageCount).toBe(whole.messageCount);
    // Its first screen is the pane's end, where it opens: the head comes by page.
    expect(paged.messagePages.map((p) => p.start)).toEqual([whole.messageCount - SCREEN_TAIL]);
  });

  it("sends the screen it is asked for: the History's rows at the leaf end and the pane's last messages", async () => {
    const whole = (await backend.call('getLeafView', req(GEN_KEY, null, 'auto'), client)) as LeafView;
    const screen = { chainRows: 9, messages: 4 };
    const v = (await backend.call(
      'getLeafView',
      { ...req(GEN_KEY, null, 'auto'), pagedMessages: true, screen },
      client,
    )) as LeafView;
    expect(v.chain.map((c) => c.pos)).toEqual([...Array(9).keys()].map((k) => v.chainLength - 9 + k));
    expect(v.chainStart).toBe(v.chainLength - 9);
    expect(v.messagePages).toHaveLength(1);
    expect(v.messagePages[0].start).toBe(whole.messageCount - 4);
    expect(v.messagePages[0].messages).toEqual(whole.projection.messages.slice(-4));
    // A screen taller than the bounds gets the bounds; a screen of no rows is refused.
    const tall = (await backend.call(
      'getLeafView',
      { ...req(GEN_KEY, null, 'auto'), pagedMessages: true, screen: { chainRows: 2000, messages: 500 } },
      client,
    )) as LeafView;
    expect(tall.messagePages[0].messages).toHaveLength(SCREEN_TAIL);
    expect(tall.chain).toHaveLength(SCREEN_CHAIN);
    await expect(
      backend.call(
        'getLeafView',
        { ...req(GEN_KEY, null, 'auto'), pagedMessages: true, screen: { chainRows: 0, messages: 4 } },
        client,
      ),
    ).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('refuses a page over MAX_PROJECTED_PAGE and clamps a start past the end', async () => {
    await expect(
      backend.call(
        'getProjectedMessages',
        { ...req(GEN_KEY, null, 'auto'), start: 0, count: MAX_PROJECTED_PAGE + 1 },
        client,
      ),
    ).rejects.toMatchObject({ code: 'bad_request' });
    const p = (await backend.call(
      'getProjectedMessages',
      { ...req(GEN_KEY, null, 'auto'), start: 1e9, count: 10 },
      client,
    )) as ProjectedMessages;
    expect(p.messages).toEqual([]);
    expect(p.start).toBe(p.total);
  });
});
