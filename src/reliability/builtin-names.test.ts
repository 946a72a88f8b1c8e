import * as jsdom from 'jsdom';
import { JSDOM } from 'jsdom';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainItems, LeafView, PlanTurns, SessionInfo, TreeRowsResult, WorkItems } from '../shared/api';
import type { SessionCost } from '../shared/api-features';
import { DEFAULT_PROFILE, type ProjectedMessage, type TreeReport, type VerifyReport } from '../shared/ledger-types';
import type { ApiClient } from '../main/api/api-backend';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { BUILTIN_NAMES, writeBuiltinNamesSession } from '../test-support/builtin-names-ledger';
import { readWholeExport } from '../test-support/read-export';
import { useTempDir } from '../test-support/temp-dir';
import { cliInProcess } from './cli-run';
import { ledgerBytes, userMsg } from './ledger-lines';
import { header, sessionKey, writeSession } from './temp-home';

/**
 * Ids, kinds, turn ids, tool names and work ids named like built-in
 * properties are ordinary names: every table keyed by ledger data holds them as such.
 */
const tempDir = useTempDir('vak-names-');
const client: ApiClient = { id: 'names', push: () => undefined };
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

const bytes = ledgerBytes([
  header(),
  // Turn ids are directive ids: one turn per built-in name.
  { id: '__proto__', parent_id: 'h', kind: 'message', message: userMsg('first') },
  {
    id: 'constructor',
    parent_id: '__proto__',
    kind: 'message',
    message: { role: 'assistant', content: [{ type: 'tool_use', id: 'valueOf', name: 'constructor', input: {} }] },
  },
  {
    id: 'toString',
    parent_id: 'constructor',
    kind: 'message',
    message: { role: 'tool', content: [{ type: 'tool_result', tool_use_id: 'valueOf', content: 'x' }] },
  },
  { id: 'k1', parent_id: 'toString', kind: 'constructor', payload: 1 },
  { id: 'k2', parent_id: 'k1', kind: '__proto__', payload: 2 },
  { id: 'k3', parent_id: 'k2', kind: 'toString', payload: 3 },
  { id: 'w1', parent_id: 'k3', kind: 'work', work: { work_id: '__proto__', event: 'start', state: 'a' } },
  { id: 'w2', parent_id: 'w1', kind: 'work', work: { work_id: 'toString', event: 'start', state: 'b' } },
  { id: 'w3', parent_id: 'w2', kind: 'work', work: { work_id: '__proto__', event: 'done', state: 'c' } },
  { id: 'c1', parent_id: 'w3', kind: 'turn_card', turn_card: { turn_id: '__proto__', line: 'card of __proto__' } },
  { id: 'hasOwnProperty', parent_id: 'c1', kind: 'message', message: userMsg('second') },
  {
    id: 'valueOf',
    parent_id: 'hasOwnProperty',
    kind: 'message',
    message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
  },
  { id: 'd3', parent_id: 'valueOf', kind: 'message', message: userMsg('third') },
]);

describe('ids, kinds and names like built-in properties', () => {
  it('CLI verify, tree and project keep every one of them', async () => {
    const path = writeSession(tempDir(), bytes);
    const v = JSON.parse((await cliInProcess(['verify', path, '--json'])).out) as VerifyReport;
    expect(v.entries).toBe(14);
    expect(v.warnings.map((w) => [w.code, w.id])).toEqual([
      ['unknown_kind', 'k1'],
      ['unknown_kind', 'k2'],
      ['unknown_kind', 'k3'],
    ]);
    const t = JSON.parse((await cliInProcess(['tree', path, '--json'])).out) as TreeReport;
    expect(t.entries.slice(1, 7).map((e) => [e.id, e.kind])).toEqual([
      ['__proto__', 'message'],
      ['constructor', 'message'],
      ['toString', 'message'],
      ['k1', 'constructor'],
      ['k2', '__proto__'],
      ['k3', 'toString'],
    ]);
    const p = JSON.parse((await cliInProcess(['project', path, '--plan', 'none', '--json'])).out) as {
      plan: { turn_id: string }[];
      messages: ProjectedMessage[];
    };
    expect(p.plan.map((r) => r.turn_id)).toEqual(['__proto__', 'hasOwnProperty']);
    const result = p.messages.find((m) => m.source_ids[0] === 'toString');
    expect(result?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'valueOf', content: '[constructor result: 1 lines, 1 bytes]' },
    ]);
  });

  it('API: kind counts, source positions, kind filters, overrides, work items and tree rows', async () => {
    const home = tempDir();
    writeSession(home, bytes);
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    const key = sessionKey();
    // Every reply goes through JSON as serve mode sends it (IPC's structured clone keeps own keys too).
    const call = async <T>(method: string, req: unknown): Promise<T> =>
      JSON.parse(JSON.stringify(await backend?.call(method, JSON.parse(JSON.stringify(req)), client))) as T;
    const info = await call<SessionInfo>('openSession', { key });
    expect(info.work.count).toBe(2);
    const work = await call<WorkItems>('getWork', { key });
    expect(work.work).toEqual(info.work);
    expect(work.items.map((w) => [w.work_id, w.state, w.events])).toEqual([
      ['__proto__', 'c', 2],
      ['toString', 'b', 1],
    ]);
    const req = { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, overrides: {} };
    const view = await call<LeafView>('getLeafView', req);
    expect(Object.entries(view.kindCounts).sort()).toEqual(
      [
        ['header', 1],
        ['message', 6],
        ['work', 3],
        ['turn_card', 1],
        ['constructor', 1],
        ['__proto__', 1],
        ['toString', 1],
      ].sort(),
    );
    for (const id of NAMES) expect(Object.hasOwn(view.sourcePositions, id)).toBe(true);
    expect(view.sourcePositions['__proto__']).toBe(1);
    expect(view.sourcePositions['hasOwnProperty']).toBe(11);
    for (const kind of ['constructor', '__proto__', 'toString']) {
      const items = await call<ChainItems>('getChainItems', { ...req, start: 0, count: 50, kinds: [kind] });
      expect(items.items.map((i) => i.kind)).toEqual([kind]);
    }
    const none = await call<ChainItems>('getChainItems', { ...req, start: 0, count: 50, kinds: ['valueOf'] });
    expect(none.total).toBe(0);
    // A turn whose id is `__proto__` can be forced to its card.
    const forcedReq = { ...req, overrides: { ['__proto__']: { fidelity: 'card' } } };
    const forced = await call<LeafView>('getLeafView', forcedReq);
    expect(forced.plan.strip.map((g) => [g.firstTurnId, g.fidelity, g.overridden])).toEqual([
      ['__proto__', 'card', true],
      ['hasOwnProperty', 'full', false],
    ]);
    const turns = await call<PlanTurns>('getPlanTurns', {
      ...forcedReq,
      ids: ['hasOwnProperty', '__proto__', 'constructor'],
    });
    expect(turns.turns.map((r) => [r.turn_id, r.fidelity])).toEqual([
      ['__proto__', 'card'],
      ['hasOwnProperty', 'full'],
    ]);
    const rows = await call<TreeRowsResult>('getTreeRows', { key, start: 0, count: 50, foldAudit: false });
    expect(rows.rows.map((r) => r.id).slice(1, 4)).toEqual(['__proto__', 'constructor', 'toString']);
  });
});

/** jsdom's console for a page's own errors (not in src/main/export/jsdom.d.ts, which types only what export tests use). */
interface ErrorConsole {
  on(event: 'jsdomError', listener: (e: Error) => void): void;
}
const { VirtualConsole } = jsdom as unknown as { VirtualConsole: new () => ErrorConsole };

describe('a session of built-in names through the API and its exported page', () => {
  it('rows, leaf views, kind filters and cost keep every name as written', async () => {
    const home = tempDir();
    const s = writeBuiltinNamesSession(home);
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    const call = async <T>(method: string, req: unknown): Promise<T> =>
      JSON.parse(JSON.stringify(await backend?.call(method, JSON.parse(JSON.stringify(req)), client))) as T;
    const work = await call<WorkItems>('getWork', { key: s.key });
    expect(work.items.map((w) => w.work_id).sort()).toEqual(['__proto__', 'constructor']);
    const rows = await call<TreeRowsResult>('getTreeRows', { key: s.key, start: 0, count: 100, foldAudit: false });
    expect(rows.rows.map((r) => r.id)).toEqual(s.ids);
    const kindOf = new Map(rows.rows.map((r) => [r.id, r.kind]));
    expect(
      ['__lookupGetter__', '__defineSetter__', '__lookupSetter__', 'valueOf.hasOwnProperty'].map((id) =>
        kindOf.get(id),
      ),
    ).toEqual([...BUILTIN_NAMES]);
    for (const leaf of s.leaves) {
      const req = { key: s.key, leaf, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} };
      const view = await call<LeafView>('getLeafView', req);
      expect(view.leaf).toBe(leaf);
      expect(view.chainLength).toBe(s.ids.length - BUILTIN_NAMES.length + 1);
      for (const kind of BUILTIN_NAMES.slice(0, 3)) expect(Object.hasOwn(view.kindCounts, kind)).toBe(true);
      // The tail's source is the leaf itself, at the chain's end.
      expect(Object.hasOwn(view.sourcePositions, leaf)).toBe(true);
      expect(view.sourcePositions[leaf]).toBe(view.chainLength - 1);
      const items = await call<ChainItems>('getChainItems', { ...req, start: 0, count: 50, kinds: ['__proto__'] });
      expect(items.items.map((i) => i.id)).toEqual(['__lookupGetter__']);
    }
    const cost = await call<SessionCost>('getCost', { key: s.key, leaf: 'constructor' });
    expect(cost.chain.messages.byModel.map((m) => [m.model, m.usd]).sort()).toEqual(
      [
        ['__proto__', null],
        ['constructor', null],
        ['hasOwnProperty', null],
        ['toString', null],
      ].sort(),
    );
  });

  it('the exported page opens at every leaf and entry without an error, showing its own content', async () => {
    const home = tempDir();
    const s = writeBuiltinNamesSession(home);
    const b = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    backend = b;
    const out = await readWholeExport((m, r) => b.call(m, r, client), {
      key: s.key,
      leaf: 'constructor',
      plan: 'auto',
      profile: DEFAULT_PROFILE,
      format: 'html',
    });
    const errors: string[] = [];
    const virtualConsole = new VirtualConsole();
    virtualConsole.on('jsdomError', (e) => errors.push(e.message));
    const options = { runScripts: 'dangerously' as const, url: 'file:///export.html', virtualConsole };
    const dom = new JSDOM(out.text, options);
    const doc = dom.window.document;
    expect(doc.querySelectorAll('#tree a').length).toBe(s.ids.length);
    expect(doc.querySelector('#tree a.selected')?.getAttribute('data-id')).toBe('constructor');
    // Every entry: leaves show their projected context, other entries the list of projected leaves.
    for (const id of s.ids) {
      dom.window.location.hash = '#leaf=' + encodeURIComponent(id);
      await new Promise((r) => setTimeout(r, 0));
      expect(doc.querySelector('#tree a.selected')?.getAttribute('data-id')).toBe(id);
      const history = doc.getElementById('history')?.textContent ?? '';
      expect(history).toMatch(new RegExp(`^History of ${id.replace(/[.$]/g, '\\$&')} \\(\\d+ entries\\)`));
      expect(history).toContain(`"id": "${id}"`);
      expect(history).not.toContain('content not in this export');
      expect(history).not.toContain('[native code]');
      const projection = doc.getElementById('projection')?.textContent ?? '';
      if ((s.leaves as readonly string[]).includes(id)) expect(projection).toContain('[tail]');
      else for (const leaf of s.leaves) expect(projection).toContain(leaf);
    }
    expect(errors).toEqual([]);
    dom.window.close();
  });
});
