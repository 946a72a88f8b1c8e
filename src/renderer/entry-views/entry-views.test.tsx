// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../shared/ledger-types';
import { SessionWriter, type BackendApi } from '../test-support/backend-api';
import { renderOnBackend, sessionHash } from '../test-support/render-backend';
import { useAppStore } from '../store/app-store';

// The demo home (../shared/fixtures/README.md): the big vak session has every kind; its child_run
// names the reviewer session, whose header names the child_run back.
const BIG = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const REVIEWER = 'agents/reviewer/sessions/70929a3c84065db2/01a1f82c-5b45-725c-805f-4b4c88f15899.jsonl';
const CHILD_RUN = '01a1f82c-8453-7a28-b69c-f604fd936efd';
/** Leaves on other branches of the big session, for the activity types the active chain lacks. */
const ROUTE_FALLBACK = '01a1f808-ead1-7a8e-b3c1-b4600d44b6e2';
const CAPACITY_PROBE = '01a1f832-ac5a-713e-a26e-81d714a65e15';
const DRIFT = '01a1f833-d523-7693-b097-b1ef6040f290';

const history = () => screen.getByRole('region', { name: 'History' });
const items = (kind?: string) => [
  ...history().querySelectorAll<HTMLElement>(`.history-item${kind ? `.kind-${kind}` : ''}`),
];

/** Opens the demo home's big session (or another) at `leaf`; resolves once the History pane has rows. */
async function openDemo(leaf?: string, key = BIG): Promise<BackendApi> {
  const api = await renderOnBackend({
    demoHome: true,
    hash: () => `#s=${encodeURIComponent(key)}${leaf ? `&leaf=${leaf}` : ''}`,
  });
  await waitFor(() => expect(items().length).toBeGreaterThan(0));
  return api;
}

/** Filters the History pane to one kind (the chips' intent), so its rows are all drawn. */
async function onlyKind(kind: string): Promise<HTMLElement[]> {
  act(() => {
    const s = useAppStore.getState();
    for (const k of Object.keys(s.leafView?.kindCounts ?? {})) {
      const hidden = useAppStore.getState().hiddenKinds.includes(k);
      if ((k === kind) === hidden) s.toggleKind(k);
    }
  });
  await waitFor(() => {
    expect(items().length).toBeGreaterThan(0);
    expect(items().every((n) => n.classList.contains(`kind-${kind}`))).toBe(true);
  });
  return items(kind);
}

/** Expands a history row; resolves with its readable view once drawn. */
async function expand(row: HTMLElement): Promise<HTMLElement> {
  fireEvent.click(row.querySelector('button.expand') as HTMLElement);
  return waitFor(() => {
    const v = row.querySelector<HTMLElement>('.raw-entry .ev, .raw-entry .ev-note');
    expect(v).toBeTruthy();
    return v as HTMLElement;
  });
}

/** The entry's payload as the backend parsed it: what the view must show. */
async function payload(api: BackendApi, key: string, id: string, field: string): Promise<Record<string, Json>> {
  const d = await api.getEntry({ key, id });
  const json = d.json as Record<string, Json>;
  return json[field] as Record<string, Json>;
}

// Each test renders the whole app over the 7-session demo home: give a shared, busy machine time.
describe('entry views on the demo home', { timeout: 60_000 }, () => {
  it('header: a session card with the contract, system prompt and tools with their schema on demand', async () => {
    await openDemo();
    const card = screen.getByRole('region', { name: 'Session header' });
    expect(card.textContent).toContain('anthropic · claude-sonnet-4-5 · vak 0.9.3');
    expect(card.textContent).toContain('/home/ana/projects/vak');
    // The session spawned a reviewer run: linked from the card.
    expect(within(card).getByRole('button', { name: /reviewer …88f15899 · ok/ })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: '▸' }));
    await waitFor(() => expect(card.querySelector('.ev-header')).toBeTruthy());
    const header = card.querySelector('.ev-header') as HTMLElement;
    expect(header.textContent).toContain('You are vak, a careful coding agent');
    expect(header.textContent).toContain('read_file');
    expect(header.textContent).toContain('Read a UTF-8 text file from the workspace.');
    // Schemas are collapsed until asked for.
    const schema = header.querySelector('.ev-schema') as HTMLDetailsElement;
    expect(schema.open).toBe(false);
    expect(schema.textContent).toContain('"required"');
    // The first row of the chain is the header too, with the same view.
    const row = (await onlyKind('header'))[0];
    expect((await expand(row)).textContent).toContain('permission mode');
  });

  it('receipt: purpose, the winning attempt, each attempt and the prefix', async () => {
    const api = await openDemo();
    const row = (await onlyKind('receipt'))[0];
    const r = await payload(api, BIG, row.dataset.entryId ?? '', 'receipt');
    const view = await expand(row);
    const text = view.textContent ?? '';
    expect(text).toContain(`purpose${String(r.purpose)}`);
    expect(text).toContain(`winning attempt#${String(r.winning_attempt)}`);
    const attempts = r.attempts as Record<string, Json>[];
    const rows = view.querySelectorAll('table[aria-label="Attempts"] tbody tr');
    expect(rows).toHaveLength(attempts.length);
    const first = rows[0].textContent ?? '';
    for (const k of ['reason', 'domain', 'settlement']) expect(first).toContain(String(attempts[0][k]));
    const usage = attempts[0].usage as Record<string, number>;
    expect(first).toContain(`${usage.input_tokens.toLocaleString('en-US')} in`);
    if (r.prefix_digest !== undefined) expect(text).toContain(String(r.prefix_digest));
    if (typeof r.prefix_tokens === 'number') expect(text).toContain(r.prefix_tokens.toLocaleString('en-US'));
  });

  it("turn_card: asked, did, outcome, reading and cost, with links that light the turn's entries", async () => {
    const api = await openDemo();
    const row = (await onlyKind('turn_card'))[0];
    const c = await payload(api, BIG, row.dataset.entryId ?? '', 'turn_card');
    const view = await expand(row);
    for (const k of ['asked', 'did', 'outcome', 'reading']) expect(view.textContent).toContain(String(c[k]));
    const cost = c.cost as Record<string, number>;
    expect(view.textContent).toContain(`${cost.input_tokens.toLocaleString('en-US')} input`);
    // The turn's entries, found on the chain, the directive first.
    const links = await waitFor(() => {
      const l = [...view.querySelectorAll<HTMLElement>('.ev-entry-link')];
      expect(l.length).toBeGreaterThan(1);
      return l;
    });
    expect(links[0].dataset.linkTo).toBe(c.turn_id);
    fireEvent.click(links[1]);
    expect(useAppStore.getState().pinned?.entries).toEqual([links[1].dataset.linkTo]);
  });

  it('goal and goal_update: objective, criteria and the lifecycle of its updates', async () => {
    const api = await openDemo();
    const goalRow = (await onlyKind('goal'))[0];
    const g = await payload(api, BIG, goalRow.dataset.entryId ?? '', 'goal');
    const view = await expand(goalRow);
    expect(view.textContent).toContain(String(g.objective));
    for (const c of g.criteria as string[]) expect(within(view).getByText(c)).toBeTruthy();
    // Both updates on the active chain, in order, each a link.
    await waitFor(() => expect(view.querySelectorAll('.ev-lifecycle li')).toHaveLength(2));
    expect(view.querySelector('.ev-lifecycle')?.textContent).toContain('progress · advances · tests green again');
    const up = (await onlyKind('goal_update'))[0];
    const upView = await expand(up);
    expect(upView.textContent).toContain('relationadvances');
    await waitFor(() => expect(upView.querySelector('.ev-current')?.textContent).toContain('(this entry)'));
  });

  it('presentation: type, pretty payload, digests and evidence links', async () => {
    const api = await openDemo();
    const row = (await onlyKind('presentation'))[0];
    const p = await payload(api, BIG, row.dataset.entryId ?? '', 'presentation');
    const view = await expand(row);
    expect(view.textContent).toContain(`card type${String(p.card_type)}`);
    expect(view.textContent).toContain(String(p.digest));
    expect(view.textContent).toContain(String(p.identity_digest));
    expect(view.querySelector('pre.json')?.textContent).toBe(JSON.stringify(p.payload, null, 2));
    const evidence = p.evidence as string[];
    const links = view.querySelectorAll<HTMLElement>('.ev-links .ev-link');
    expect(links).toHaveLength(evidence.length);
    fireEvent.click(links[0]);
    expect(useAppStore.getState().pinned?.entries).toEqual([evidence[0]]);
  });

  /** Expands the first activity row of `type` and returns its lead line. */
  const activityLead = async (type: string): Promise<string> => {
    const rows = await onlyKind('activity');
    const row = rows.find((r) => r.textContent?.includes(`${type}:`));
    expect(row, type).toBeTruthy();
    const view = await expand(row as HTMLElement);
    return view.querySelector('.ev-lead')?.textContent ?? '';
  };

  it('activity by type on the active chain: approval and prefix-cache break, each explained', async () => {
    await openDemo();
    expect(await activityLead('approval')).toMatch(/^Approval — A tool call needed permission/);
    expect(await activityLead('prefix_cache_break')).toMatch(/^Prefix-cache break — The prompt prefix changed/);
  });

  it.each([
    [ROUTE_FALLBACK, 'route_fallback', /^Route fallback — /],
    [CAPACITY_PROBE, 'capacity_probe', /^Capacity probe — /],
    [DRIFT, 'drift', /^Drift — /],
  ] as const)('activity on another branch (leaf %s): %s', async (leaf, type, label) => {
    await openDemo(leaf);
    expect(await activityLead(type)).toMatch(label);
  });

  it('turn_capabilities_bound: core and deferred tools and declared domains', async () => {
    await openDemo();
    const view = await expand((await onlyKind('turn_capabilities_bound'))[0]);
    const chips = (sel: string) => [...view.querySelectorAll(sel)].map((n) => n.textContent);
    expect(chips('.ev-field:nth-child(1) .ev-chip')).toEqual(['read_file', 'run_command', 'edit_file', 'search']);
    expect(chips('.ev-field:nth-child(2) .ev-chip')).toEqual(['show_card']);
    expect(view.textContent).toContain('run_command: shell');
  });

  it('a tool result is the tool text with its lines, not escaped JSON', async () => {
    await openDemo();
    const rows = await onlyKind('message');
    const tool = rows.find((r) => r.querySelector('.row-role')?.textContent === 'tool') as HTMLElement;
    const view = await expand(tool);
    const out = view.querySelector('.block-tool-result pre.verbatim')?.textContent ?? '';
    expect(out).toContain('\n');
    // The raw JSON is one click away, and back.
    fireEvent.click(within(tool).getByRole('button', { name: 'raw JSON' }));
    const raw = tool.querySelector('.raw-entry pre.json')?.textContent ?? '';
    expect(raw).toContain('"tool_result"');
    // The view shows the result's text as the entry holds it: its line breaks as lines, no JSON
    // escapes. (Which tool row comes first depends on what the pane drew, and a result's own text
    // may hold a backslash-n, as code does: compare with the entry, not with a pattern.)
    const entry = JSON.parse(raw) as { message: { content: { type: string; content?: unknown }[] } };
    const result = entry.message.content.find((b) => b.type === 'tool_result')?.content;
    expect(typeof result).toBe('string');
    expect(out).toBe(result);
  });

  it('child_run ↔ parent: open the child session, and from it the spawning entry of the parent', async () => {
    await openDemo(CHILD_RUN);
    const row = (await onlyKind('child_run'))[0];
    const view = await expand(row);
    expect(view.textContent).toContain('Reviewer found one missing test');
    fireEvent.click(within(view).getByRole('button', { name: /open reviewer session/ }));
    await waitFor(() => expect(useAppStore.getState().sessionKey).toBe(REVIEWER));
    const card = await screen.findByRole('region', { name: 'Session header' });
    await waitFor(() => expect(card.textContent).toContain('reviewer'));
    const back = await within(card).findByRole('button', { name: /at …fd936efd/ });
    fireEvent.click(back);
    await waitFor(() => {
      expect(useAppStore.getState().sessionKey).toBe(BIG);
      expect(useAppStore.getState().leaf).toBe(CHILD_RUN);
    });
    // The library shows the link too.
    const nav = screen.getByRole('navigation', { name: 'Library' });
    expect(
      within(nav)
        .getByRole('button', { name: /child of/ })
        .getAttribute('title'),
    ).toContain(CHILD_RUN);
  });
});

describe('entry views of hostile or malformed entries', () => {
  it('shows a malformed payload raw with a one-line note, and untrusted text as text', async () => {
    const w = new SessionWriter()
      .header()
      .add('g1', 'h', 'goal', {
        goal: { objective: '<img src=x onerror="globalThis.__pwned=1">', criteria: ['<b>x</b>'] },
      })
      .add('r1', 'g1', 'receipt', { receipt: 5 });
    await renderOnBackend({ written: { odd: w }, hash: sessionHash('odd') });
    await waitFor(() => expect(items().length).toBe(3));
    const bad = await expand(items('receipt')[0]);
    expect(bad.textContent).toBe('Malformed receipt: receipt is not an object. Shown as recorded.');
    expect(items('receipt')[0].querySelector('pre.json')?.textContent).toContain('"receipt": 5');
    const goal = await expand(items('goal')[0]);
    expect(goal.textContent).toContain('<img src=x onerror="globalThis.__pwned=1">');
    expect(within(goal).getByText('<b>x</b>')).toBeTruthy();
    expect(history().querySelector('img, [onerror]')).toBeNull();
  });
});

describe('session header warnings', () => {
  it('says the file broke append-only and was reloaded, with the reason in its tooltip', async () => {
    const w = new SessionWriter()
      .header()
      .message('u1', 'h', 'user', [{ type: 'text', text: 'One.' }])
      .message('a1', 'u1', 'assistant', [{ type: 'text', text: 'Two.' }]);
    const api = await renderOnBackend({ written: { shrinks: w }, hash: sessionHash('shrinks') });
    const card = await screen.findByRole('region', { name: 'Session header' });
    expect(within(card).queryByLabelText(/^reloaded/)).toBeNull();
    // Another program cuts the file back to its first two lines: not append-only any more.
    const file = join(api.home, api.keyOf('shrinks'));
    writeFileSync(file, readFileSync(file, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    const badge = await within(card).findByLabelText(/^reloaded: the file broke append-only 1 time/, {});
    expect(badge.getAttribute('title')).toMatch(/^The file stopped being append-only while open \(it shrank at /);
    expect(badge.querySelector('svg.icon-warn')).toBeTruthy();
  });
});
