import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainItems, EntryDetail, LeafView } from '../shared/api';
import { DEEP_VALUE_MARK, deeperThan, MAX_SENT_DEPTH, stringifyJson } from '../shared/json-text';
import { DEFAULT_PROFILE, type Json, type ProjectedMessage } from '../shared/ledger-types';
import type { ApiClient } from '../main/api/api-backend';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { useTempDir } from '../test-support/temp-dir';
import { cliInProcess } from './cli-run';
import { deep, deepText, ledgerBytes, userMsg } from './ledger-lines';
import { header, sessionKey, writeSession } from './temp-home';

/**
 * A line nested thousands of levels deep must not fail the CLI or the panes.
 * JSON.parse takes any depth; JSON.stringify, structured clone and recursive walks do not.
 */
const tempDir = useTempDir('vak-deep-');
const client: ApiClient = { id: 'deep', push: () => undefined };
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

function deepLedger(depth: number): Buffer {
  return ledgerBytes([
    header({ tools: [{ name: 'deep', description: 'd', input_schema: deep(depth, 'object') }] }),
    { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('go deep') },
    {
      id: 'a1',
      parent_id: 'd1',
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'deep', input: deep(depth) }] },
    },
    {
      id: 'r1',
      parent_id: 'a1',
      kind: 'message',
      message: { role: 'tool', content: [{ type: 'tool_result', tool_use_id: 't1', content: deep(depth, 'object') }] },
    },
    { id: 'i1', parent_id: 'r1', kind: 'intent', intent: { reading: deep(depth), model_visible: deep(depth) } },
    { id: 'w1', parent_id: 'i1', kind: 'work', work: { work_id: 'w', event: 'start', state: deep(depth) } },
    { id: 'd2', parent_id: 'w1', kind: 'message', message: userMsg('and now') },
    {
      id: 'a2',
      parent_id: 'd2',
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'deep', input: deep(depth) }] },
    },
  ]);
}

/**
 * The bound that tells a hang from a slow run: the 100,000-deep case takes seconds alone and many
 * times that on a loaded 2-core machine (the suite beside another), so it gets more than the default.
 */
const DEEP_BOUND_MS = 240_000;

const tokens = (s: string) => Math.ceil(Buffer.byteLength(s) / 4);

for (const depth of [10_000, 100_000]) {
  describe(`a ledger nested ${depth.toLocaleString('en-US')} levels deep`, () => {
    it('CLI verify, tree and project read it whole', async () => {
      const path = writeSession(tempDir(), deepLedger(depth));
      const v = await cliInProcess(['verify', path, '--json']);
      expect(v.err).toBe('');
      expect(JSON.parse(v.out)).toEqual({ entries: 8, warnings: [], active_leaf: 'a2' });
      const t = await cliInProcess(['tree', path, '--json']);
      expect(t.code).toBe(0);
      expect((JSON.parse(t.out) as { entries: unknown[] }).entries).toHaveLength(8);

      const p = await cliInProcess(['project', path, '--plan', 'none', '--json']);
      expect(p.err).toBe('');
      expect(p.code).toBe(0);
      const out = JSON.parse(p.out) as { messages: ProjectedMessage[]; tools: Json[]; tokens: { tools: number } };
      const byId = new Map(out.messages.map((m) => [m.source_ids[0] + ':' + m.fidelity, m]));
      // The tool call is verbatim at Full, and costs its input's JSON text (§6).
      const call = byId.get('a1:full');
      expect(call && stringifyJson(call.content)).toBe(
        `[{"type":"tool_use","id":"t1","name":"deep","input":${deepText(depth)}}]`,
      );
      expect(call?.tokens).toBe(4 + tokens('deep') + tokens(deepText(depth)));
      // A non-string result is measured as its JSON text (§8): one line, its bytes.
      const bytes = Buffer.byteLength(deepText(depth, 'object'));
      expect(byId.get('r1:full')?.content).toEqual([
        { type: 'tool_result', tool_use_id: 't1', content: `[deep result: 1 lines, ${bytes} bytes]` },
      ]);
      expect(byId.get('a2:full')?.tokens).toBe(call?.tokens);
      const tail = out.messages[out.messages.length - 1];
      expect(tail.content).toEqual([{ type: 'text', text: `[tail]\ntime: ${tailTs()}\n${deepText(depth)}` }]);
      expect(out.tokens.tools).toBe(tokens(stringifyJson(out.tools)));
    });

    it(
      'API getLeafView, getChainItems, getEntry and getProjectedMessage answer, and the replies cross a process boundary',
      async () => {
        const home = tempDir();
        writeSession(home, deepLedger(depth));
        backend = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
        const key = sessionKey();
        const sendable = (x: unknown) => {
          expect(() => structuredClone(x)).not.toThrow(); // Electron IPC
          expect(() => JSON.stringify(x)).not.toThrow(); // serve mode's WebSocket
        };
        sendable(await backend.call('openSession', { key }, client));
        const req = { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, overrides: {} };
        const view = (await backend.call('getLeafView', req, client)) as LeafView;
        sendable(view);
        expect(view.chainLength).toBe(8);
        const cli = JSON.parse((await cliInProcess(['project', join(home, key), '--plan', 'none', '--json'])).out) as {
          messages: ProjectedMessage[];
          tokens: unknown;
        };
        expect(view.projection.tokens).toEqual(cli.tokens);
        expect(view.projection.messages.map((m) => m.tokens)).toEqual(cli.messages.map((m) => m.tokens));
        const k = view.projection.messages.findIndex((m) => m.source_ids[0] === 'a1');
        expect(view.clipped).toContain(k);
        expect(deeperThan(view.projection.messages[k].content, MAX_SENT_DEPTH + 1)).toBe(false);
        expect(JSON.stringify(view.projection.messages[k].content)).toContain(
          JSON.stringify(DEEP_VALUE_MARK).slice(1, -1),
        );

        const items = (await backend.call('getChainItems', { ...req, start: 0, count: 8 }, client)) as ChainItems;
        sendable(items);
        expect(items.items.find((it) => it.id === 'a1')?.text.startsWith('deep([[[[')).toBe(true);

        const entry = (await backend.call('getEntry', { key, id: 'a1', maxBytes: 512 * 1024 }, client)) as EntryDetail;
        sendable(entry);
        expect(entry.raw.length).toBe(entry.length);

        const full = (await backend.call('getProjectedMessage', { ...req, message: k }, client)) as ProjectedMessage;
        sendable(full);
        // "Show all": the deep part arrives whole, as its JSON text.
        expect(JSON.stringify(full.content)).toContain(']'.repeat(Math.min(depth - MAX_SENT_DEPTH, 1000)));
      },
      DEEP_BOUND_MS,
    );
  });
}

/** The ts ledgerBytes gives the 8th line (the leaf a2). */
function tailTs(): string {
  return '2026-01-01T00:00:07.000Z';
}
