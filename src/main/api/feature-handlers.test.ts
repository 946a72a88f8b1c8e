import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntryFate, PriceTable, ProjectedSearch, SearchPage, SessionCost } from '../../shared/api-features';
import type { PackedContextSeries } from '../../shared/api-series';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { scanHome } from '../core/home';
import { readWholeExport, type ExportCall } from '../../test-support/read-export';
import { useTempDir } from '../../test-support/temp-dir';
import { testBackendOptions } from '../../test-support/test-backend';
import { ApiError, type ApiClient } from './api-backend';
import { ExplorerBackend } from './explorer-backend';
import { unpackSeries } from '../../shared/series-packed';

const DEMO = join(import.meta.dirname, '../../../resources/demo-home');
const tempDir = useTempDir('vak-features-');
const client = (id: string): ApiClient => ({ id, push: () => undefined });
let backend: ExplorerBackend | null = null;

afterEach(async () => {
  await backend?.close();
  backend = null;
});

async function demoBackend(userDataDir?: string): Promise<{ b: ExplorerBackend; home: string; key: string }> {
  const home = join(tempDir(), 'home');
  cpSync(DEMO, home, { recursive: true });
  backend = await ExplorerBackend.create(testBackendOptions(home, { userDataDir }));
  // The biggest demo session: turns, packets, cards.
  const key = scanHome(home)
    .map((f) => ({ key: f.key, size: readFileSync(f.path).length }))
    .sort((a, z) => z.size - a.size)[0].key;
  return { b: backend, home, key };
}

describe('feature methods over the backend', () => {
  it('getContextSeries, getCost, exports: one leaf, through the validated API', async () => {
    const { b, key } = await demoBackend();
    const c = client('c1');
    const series = unpackSeries(
      (await b.call(
        'getContextSeries',
        { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE },
        c,
      )) as PackedContextSeries,
    );
    expect(series.points.length).toBeGreaterThan(1);
    expect(series.window).toBe(DEFAULT_PROFILE.window);
    const last = series.points[series.points.length - 1];
    expect(last.leaf).toBe(series.leaf);

    const cost = (await b.call('getCost', { key }, c)) as SessionCost;
    expect(cost.leaf).toBe(series.leaf);
    expect(cost.prices.source).toBe('bundled');
    expect(cost.prices.path).toBeNull();
    expect(cost.turns.length).toBeGreaterThan(0);

    const call: ExportCall = (m, r) => b.call(m, r, c);
    const planned = { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE } as const;
    const html = await readWholeExport(call, { ...planned, leaf: last.leaf, format: 'html' });
    expect(html.text.startsWith('<!doctype html>')).toBe(true);
    // The page's data holds the projected context of each leaf it includes, keyed by its id.
    const data = /<script type="application\/json" id="vak-data">([^]*?)<\/script>/.exec(html.text)?.[1] ?? '{}';
    expect(Object.keys((JSON.parse(data) as { projections: object }).projections)).toContain(last.leaf);

    const json = await readWholeExport(call, { ...planned, format: 'json' });
    expect((JSON.parse(json.text) as { tokens: { total: number } }).tokens.total).toBe(last.total);
    const md = await readWholeExport(call, { ...planned, plan: 'none', format: 'markdown' });
    expect(md.mimeType).toBe('text/markdown');
  });

  it('an entry id of an open session is answered from its index: no byte scanned, no file read', async () => {
    const { b, home, key } = await demoBackend();
    const c = client('c1');
    await b.call('openSession', { key }, c);
    const lines = readFileSync(join(home, key), 'utf8').split('\n').filter(Boolean);
    const k = Math.floor(lines.length / 2);
    const id = (JSON.parse(lines[k]) as { id: string }).id;
    const page = (await b.call(
      'search',
      { searchId: 'g', query: id, scope: { kind: 'home' }, filters: {}, limit: 8, match: 'id' },
      c,
    )) as SearchPage;
    expect(page.sessions.map((g) => [g.key, g.hits.map((h) => [h.entryId, h.line])])).toEqual([[key, [[id, k + 1]]]]);
    expect(page.scannedBytes).toBe(0);
    // The backend's own counters (private to it): the open index answered, nothing was probed.
    const work = (b as unknown as { features(): { searches: { work: Record<string, number> } } }).features().searches
      .work;
    expect(work).toMatchObject({ fromOpenIndex: 1, fromFileWindow: 0, probedBytes: 0, scannedBytes: 0 });
  });

  it('search over the home, a page at a time, and cancelSearch', async () => {
    const { b } = await demoBackend();
    const c = client('c1');
    const page = (await b.call(
      'search',
      { searchId: 'a', query: 'the', scope: { kind: 'home' }, filters: {}, limit: 3 },
      c,
    )) as SearchPage;
    expect(page.hits).toBe(3);
    expect(page.cursor).not.toBeNull();
    const next = (await b.call(
      'search',
      { searchId: 'a', query: 'the', scope: { kind: 'home' }, filters: {}, limit: 3, cursor: page.cursor },
      c,
    )) as SearchPage;
    expect(next.hits).toBeGreaterThan(0);
    expect(await b.call('cancelSearch', { searchId: 'a' }, c)).toEqual({ cancelled: true });
    // A client's disconnect stops its searches too.
    await b.call('search', { searchId: 'b', query: 'the', scope: { kind: 'home' }, filters: {}, limit: 1 }, c);
    b.disconnect(c);
    expect(await b.call('cancelSearch', { searchId: 'b' }, c)).toEqual({ cancelled: false });
  });

  it('validates every feature request at runtime', async () => {
    const { b, key } = await demoBackend();
    const c = client('c1');
    const bad = async (method: string, req: unknown): Promise<string> => {
      try {
        await b.call(method, req, c);
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        return (e as ApiError).code;
      }
      return 'accepted';
    };
    expect(await bad('search', { searchId: 'a', query: '', scope: { kind: 'home' }, filters: {}, limit: 3 })).toBe(
      'bad_request',
    );
    expect(await bad('search', { searchId: 'a', query: 'x', scope: { kind: 'home' }, filters: {}, limit: 0 })).toBe(
      'bad_request',
    );
    expect(
      await bad('search', {
        searchId: 'a',
        query: 'x',
        scope: { kind: 'session', key: '../x' },
        filters: {},
        limit: 1,
      }),
    ).toBe('bad_request');
    expect(await bad('getCost', { key, leaf: 'no-such-entry' })).toBe('not_found');
    expect(await bad('beginExport', { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, format: 'pdf' })).toBe(
      'bad_request',
    );
    // Exports are read in chunks only: the one-reply methods are gone.
    expect(
      await bad('exportProjection', { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, format: 'json' }),
    ).toBe('bad_request');
    expect(await bad('exportSessionHtml', { key, leaf: null })).toBe('bad_request');
    expect(await bad('getContextSeries', { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, extra: 1 })).toBe(
      'bad_request',
    );
    expect(await bad('getPriceTable', {})).toBe('accepted');
    // Overrides are ledger turn ids: one named __proto__ is an ordinary key, not a prototype.
    const overrides = JSON.parse('{"__proto__": {"fidelity": "card"}}') as unknown;
    expect(await bad('getContextSeries', { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides })).toBe(
      'accepted',
    );
  });

  it('getEntryFate and searchProjected: through the validated API, one row per turn end', async () => {
    const { b, key } = await demoBackend();
    const c = client('c1');
    const req = { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE };
    const series = unpackSeries((await b.call('getContextSeries', req, c)) as PackedContextSeries);
    const view = (await b.call('getChainItems', { ...req, overrides: {}, start: 0, count: 40 }, c)) as {
      items: { id: string; role: string | null }[];
    };
    const entry = view.items.find((i) => i.role === 'user')!.id;
    const fate = (await b.call('getEntryFate', { ...req, entry }, c)) as EntryFate;
    expect(fate.entry).toBe(entry);
    // Every turn end of the chain from the entry's own on: the chart's points.
    expect(fate.rows.map((r) => r.at)).toEqual(series.points.map((p) => p.leaf).slice(-fate.rows.length));
    const bad = (r: unknown) =>
      b.call('getEntryFate', r, c).then(
        () => 'accepted',
        (e: ApiError) => e.code,
      );
    expect(await bad({ ...req })).toBe('bad_request');
    expect(await bad({ ...req, entry: 'no-such-entry' })).toBe('not_found');
    expect(await bad({ ...req, entry, extra: 1 })).toBe('bad_request');
    const found = (await b.call(
      'searchProjected',
      { ...req, query: 'the', across: 'turn-ends', limit: 5 },
      c,
    )) as ProjectedSearch;
    expect(found.turnEnds).toBe(series.points.length);
    expect(found.hits.length).toBeGreaterThan(0);
    const badSearch = (r: unknown) =>
      b.call('searchProjected', r, c).then(
        () => 'accepted',
        (e: ApiError) => e.code,
      );
    expect(await badSearch({ ...req, query: 'x', across: 'everywhere', limit: 5 })).toBe('bad_request');
    expect(await badSearch({ ...req, query: '', across: 'leaf', limit: 5 })).toBe('bad_request');
  });

  it("getPriceTable reads the user data folder's prices.json and says what is wrong with it", async () => {
    const data = tempDir();
    const { b } = await demoBackend(data);
    const c = client('c1');
    const absent = (await b.call('getPriceTable', {}, c)) as PriceTable;
    expect(absent).toMatchObject({ path: join(data, 'prices.json'), source: 'bundled', errors: [] });
    writeFileSync(join(data, 'prices.json'), JSON.stringify({ models: { m: { input: 'free' } } }));
    const broken = (await b.call('getPriceTable', {}, c)) as PriceTable;
    expect(broken.source).toBe('bundled');
    expect(broken.errors).toContain(
      `${join(data, 'prices.json')}: model 1 in "models": "input" must be a number from 0 to 1000000 (USD per million tokens)`,
    );
    writeFileSync(
      join(data, 'prices.json'),
      JSON.stringify({ models: { m: { input: 1, output: 2, cache_read: 0, cache_write: 0 } } }),
    );
    expect(((await b.call('getPriceTable', {}, c)) as PriceTable).models).toEqual({
      m: { input: 1, output: 2, cache_read: 0, cache_write: 0 },
    });
  });
});
