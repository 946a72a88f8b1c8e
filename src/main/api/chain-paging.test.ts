import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './api-backend';
import type { ChainItem, ChainItems, LeafView, PlanTurns, PlanTurnsRequest } from '../../shared/api';
import { SCREEN_CHAIN } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { chainToRoot } from '../core/chain';
import { entryPreview } from '../core/entry-preview';
import { cwdHash } from '../core/fnv1a64';
import { Ledger } from '../core/ledger';
import { project } from '../core/projection';
import { allPlanRows } from '../../shared/plan-rows';
import { chainVisibility } from '../core/visibility';
import { ExplorerBackend } from './explorer-backend';
import { leafContext } from './leaf-context';

const FIXTURES = join(__dirname, '../../../../shared/fixtures');
const CWD = '/home/ana/projects/long';
const GEN_KEY = `agents/vak/sessions/${cwdHash(CWD)}/gen-20k.jsonl`;
const PACKETS_KEY = 'agents/vak/sessions/0000000000000000/packets.jsonl';
const client: ApiClient = { id: 'test', push: () => undefined };

let dir: string;
let backend: ExplorerBackend;

const req = (key: string, plan: 'auto' | 'none' = 'auto') => ({
  key,
  leaf: null,
  plan,
  profile: DEFAULT_PROFILE,
  overrides: {},
});

/** Every chain item of the active leaf the way the explorer computed them before paging: all at once. */
function fullChain(path: string, plan: 'auto' | 'none'): ChainItem[] {
  const l = Ledger.openSync(path);
  try {
    const ix = l.index;
    const leaf = ix.activeLeaf;
    const chain = chainToRoot(ix, leaf);
    const whole = project(l, leaf, { plan, profile: DEFAULT_PROFILE });
    const vis = chainVisibility(l, chain, whole);
    return Array.from(chain, (i, pos) => {
      const e = l.entry(i);
      const p = entryPreview(e);
      return {
        pos,
        id: ix.ids[i],
        index: i,
        kind: ix.kindName(i),
        role: p.role,
        control: p.control,
        line: ix.line[i],
        ts: e.ts,
        text: p.text,
        turnId: vis[pos].turnId,
        projectedAs: vis[pos].projectedAs,
        projectedFidelity: vis[pos].projectedAs.map((m) => whole.messages[m].fidelity),
        hidden: vis[pos].hidden,
      };
    });
  } finally {
    l.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vak-chain-paging-'));
  const home = join(dir, 'home');
  mkdirSync(join(home, 'agents/vak/sessions', cwdHash(CWD)), { recursive: true });
  generateSession({ seed: 7, entries: 20_000, cwd: CWD, path: join(home, GEN_KEY), toolResultBytes: [200, 800] });
  mkdirSync(join(home, 'agents/vak/sessions/0000000000000000'), { recursive: true });
  copyFileSync(join(FIXTURES, 'packets.jsonl'), join(home, PACKETS_KEY));
  backend = await ExplorerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, watch: false });
});
afterAll(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('chain paging on a 20,000-entry generated session', () => {
  it('a leaf view carries the last window, kind counts and source positions of the whole chain', async () => {
    const full = fullChain(join(dir, 'home', GEN_KEY), 'auto');
    const v = (await backend.call('getLeafView', req(GEN_KEY), client)) as LeafView;
    expect(v.chainLength).toBe(full.length);
    expect(full.length).toBeGreaterThan(5000);
    expect(v.chain).toHaveLength(SCREEN_CHAIN);
    expect(v.chainStart).toBe(full.length - SCREEN_CHAIN);
    expect(v.chain).toEqual(full.slice(full.length - SCREEN_CHAIN));
    const counts: Record<string, number> = {};
    for (const c of full) counts[c.kind] = (counts[c.kind] ?? 0) + 1;
    expect(v.kindCounts).toEqual(counts);
    const sources = new Set(v.projection.messages.flatMap((m) => m.source_ids));
    expect(Object.keys(v.sourcePositions).sort()).toEqual([...sources].sort());
    for (const [id, pos] of Object.entries(v.sourcePositions)) expect(full[pos].id).toBe(id);
  });

  it('a window in the middle, across the newest reset, matches the full computation', async () => {
    for (const plan of ['auto', 'none'] as const) {
      const full = fullChain(join(dir, 'home', GEN_KEY), plan);
      const reset = full.findLastIndex((c) => c.kind === 'compaction' && c.projectedAs.length > 0 && !c.turnId);
      expect(reset).toBeGreaterThan(300);
      const start = reset - 150;
      const w = (await backend.call(
        'getChainItems',
        { ...req(GEN_KEY, plan), start, count: 400 },
        client,
      )) as ChainItems;
      expect(w).toMatchObject({ chainLength: full.length, total: full.length, start });
      expect(w.items).toEqual(full.slice(start, start + 400));
      expect(w.items.some((c) => c.hidden === 'before reset')).toBe(true);
      const mid = Math.floor(full.length / 2);
      const m = (await backend.call(
        'getChainItems',
        { ...req(GEN_KEY, plan), start: mid, count: 2000 },
        client,
      )) as ChainItems;
      expect(m.items).toEqual(full.slice(mid, mid + 2000));
    }
  });

  it('pages only entries of the asked kinds, each with its chain position', async () => {
    const full = fullChain(join(dir, 'home', GEN_KEY), 'auto');
    const kinds = ['compaction', 'turn_card'];
    const matching = full.filter((c) => kinds.includes(c.kind));
    const w = (await backend.call(
      'getChainItems',
      { ...req(GEN_KEY), start: 3, count: 50, kinds },
      client,
    )) as ChainItems;
    expect(w.total).toBe(matching.length);
    expect(w.items).toEqual(matching.slice(3, 53));
    const past = (await backend.call(
      'getChainItems',
      { ...req(GEN_KEY), start: 1e9, count: 10, kinds },
      client,
    )) as ChainItems;
    expect(past).toMatchObject({ start: matching.length, items: [] });
  });

  it('keeps the computed context: paging and reordered overrides reuse it', async () => {
    const s = await backend.cache.acquire(GEN_KEY);
    const a = leafContext(s, { ...req(GEN_KEY), overrides: { x: { fidelity: 'full' }, y: { fidelity: 'card' } } });
    const b = leafContext(s, { ...req(GEN_KEY), overrides: { y: { fidelity: 'card' }, x: { fidelity: 'full' } } });
    expect(b).toBe(a);
    expect(leafContext(s, { ...req(GEN_KEY), plan: 'none' })).not.toBe(a);
  });

  it('refuses windows over the page limit', async () => {
    await expect(
      backend.call('getChainItems', { ...req(GEN_KEY), start: 0, count: 2001 }, client),
    ).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('plan turns', () => {
  const turns = async (r: PlanTurnsRequest): Promise<PlanTurns> =>
    (await backend.call('getPlanTurns', r, client)) as PlanTurns;

  it('say which closed turns have a card and which usable packets cover each', async () => {
    const v = (await backend.call('getLeafView', req(PACKETS_KEY), client)) as LeafView;
    const all = await turns({ ...req(PACKETS_KEY), start: 0, count: 100 });
    const p21 = { packet_id: 'e0021', first_turn_id: 'e0007', last_turn_id: 'e0016' };
    const p27 = { packet_id: 'e0027', first_turn_id: 'e0002', last_turn_id: 'e0012' };
    // e0033 names its turns in the wrong order and e0037 covers the open turn e0034: never offered.
    expect(all.turns.map((t) => ({ turn_id: t.turn_id, hasCard: t.hasCard, packets: t.packets }))).toEqual([
      { turn_id: 'e0002', hasCard: true, packets: [p27] },
      { turn_id: 'e0007', hasCard: true, packets: [p21, p27] },
      { turn_id: 'e0012', hasCard: false, packets: [p21, p27] },
      { turn_id: 'e0016', hasCard: true, packets: [p21] },
      { turn_id: 'e0022', hasCard: true, packets: [] },
      { turn_id: 'e0028', hasCard: true, packets: [] },
    ]);
    // The rows are the §6 plan's, in its order; the view counts them.
    const s = await backend.cache.acquire(PACKETS_KEY);
    const plan = allPlanRows(leafContext(s, req(PACKETS_KEY)).lp.planRows);
    expect(
      all.turns.map(({ turn_id, fidelity, packet_id, tokens }) => ({ turn_id, fidelity, packet_id, tokens })),
    ).toEqual(plan);
    expect(all.turns.map((t) => t.index)).toEqual(plan.map((_, k) => k));
    expect(all.total).toBe(plan.length);
    expect(v.plan.turns).toBe(plan.length);
    expect(v.plan.full + v.plan.card + v.plan.packet).toBe(plan.length);
    expect(v.plan.strip.reduce((n, g) => n + g.count, 0)).toBe(plan.length);
    // Each turn names its directive by the text its chain row shows.
    for (const t of all.turns) {
      expect(t.directive).not.toBe('');
      expect(t.directive).toBe(v.chain.find((c) => c.id === t.turn_id)?.text);
    }
  });

  it('a leaf view and a window of plan turns make a row object only for the rows they send', async () => {
    const s = await backend.cache.acquire(GEN_KEY);
    // A profile no other test asks: a context of its own, planned here.
    const r = { ...req(GEN_KEY), profile: { ...DEFAULT_PROFILE, window: DEFAULT_PROFILE.window - 1 } };
    const rows = leafContext(s, r).lp.planRows;
    expect(rows.length).toBeGreaterThan(50);
    let made = 0;
    const row = rows.row;
    rows.row = (k) => {
      made++;
      return row(k);
    };
    const v = (await backend.call('getLeafView', { ...r, pagedMessages: true }, client)) as LeafView;
    expect(v.plan.turns).toBe(rows.length);
    expect(v.plan.full + v.plan.card + v.plan.packet).toBe(rows.length);
    expect(made).toBe(0);
    const page = await turns({ ...r, start: 40, count: 10 });
    expect(page.turns.map((t) => t.index)).toEqual(Array.from({ length: 10 }, (_, j) => 40 + j));
    expect(made).toBe(10);
  });

  it('a window builds no lookup of the turns by id (a long chain pays it on every click); ids build it once', async () => {
    const s = await backend.cache.acquire(PACKETS_KEY);
    const r = { ...req(PACKETS_KEY), overrides: { e0007: { fidelity: 'full' as const } } };
    await turns({ ...r, start: 0, count: 3 });
    const c = leafContext(s, r);
    expect(c.memo.plan).toBeUndefined();
    await turns({ ...r, ids: ['e0002'] });
    const built = c.memo.plan;
    expect(built?.position.get('e0002')).toBe(0);
    await turns({ ...r, ids: ['e0007'] });
    expect(c.memo.plan).toBe(built);
  });

  it('come by window and by id; ids that are no closed turn are left out', async () => {
    const all = await turns({ ...req(PACKETS_KEY), start: 0, count: 100 });
    const page = await turns({ ...req(PACKETS_KEY), start: 2, count: 2 });
    expect(page.turns).toEqual(all.turns.slice(2, 4));
    expect((await turns({ ...req(PACKETS_KEY), start: 99, count: 5 })).turns).toEqual([]);
    // e0034 is the open turn, e0001 no turn at all; answered in plan order, once each.
    const byId = await turns({ ...req(PACKETS_KEY), ids: ['e0022', 'e0034', 'e0002', 'e0001', 'e0022'] });
    expect(byId.turns.map((t) => t.turn_id)).toEqual(['e0002', 'e0022']);
    expect(byId.turns[1]).toEqual(all.turns[4]);
    await expect(
      backend.call('getPlanTurns', { ...req(PACKETS_KEY), start: 0, count: 1001 }, client),
    ).rejects.toMatchObject({ code: 'bad_request' });
    await expect(
      backend.call('getPlanTurns', { ...req(PACKETS_KEY), start: 0, count: 1, ids: ['e0002'] }, client),
    ).rejects.toMatchObject({ code: 'bad_request' });
  });
});
