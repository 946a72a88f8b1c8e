import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSession } from '../generator';
import type { ApiClient } from '../main/api/api-backend';
import { ExplorerBackend } from '../main/api/explorer-backend';
import { cwdHash } from '../main/core/fnv1a64';
import { openSocket, rpc, signIn } from '../main/server/testing/http-helpers';
import { WorkerBackend } from '../main/worker/worker-backend';
import type { ApiEvent, BranchResult } from '../shared/api';
import type { ExportChunk, ExportStarted } from '../shared/api-features';
import { DEFAULT_PROFILE } from '../shared/ledger-types';
import { readWholeExport, viaRpc, type ExportCall } from '../test-support/read-export';
import { ROOT } from '../test-support/serve-process';
import { startServeChild, type ServeChild } from '../test-support/serve-child-process';
import { useTempDir } from '../test-support/temp-dir';
import { deep, ledgerBytes, userMsg } from './ledger-lines';
import { header, sessionKey, writeSession } from './temp-home';

/**
 * One file or one client must not take the rest down: hostile ledgers stay within the worker's
 * limits, a worker that still dies is restarted and says why, and a branch is appended at most
 * once across that restart. (Stalled clients: src/main/server/stalled-clients.test.ts.)
 */
const tempDir = useTempDir('vak-isolation-');
const open: { close(): Promise<void> }[] = [];
let serve: ServeChild | null = null;
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
  serve?.child.kill('SIGKILL');
  serve = null;
});

/** A recording client. */
function recorder(id: string): ApiClient & { events: ApiEvent[] } {
  const events: ApiEvent[] = [];
  return { id, events, push: (e) => events.push(e) };
}

/** `n` tool calls whose inputs nest `depth` arrays deep (18 KB each at 9,000: 440 KB for 24). */
function deepInputsLedger(depth: number, n: number): Buffer {
  const entries: Record<string, unknown>[] = [
    header(),
    { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('go') },
  ];
  let parent = 'd1';
  for (let k = 0; k < n; k++) {
    const tool = { type: 'tool_use', id: `t${k}`, name: 'deep', input: deep(depth) };
    entries.push({ id: `a${k}`, parent_id: parent, kind: 'message', message: { role: 'assistant', content: [tool] } });
    const result = { type: 'tool_result', tool_use_id: `t${k}`, content: 'ok' };
    entries.push({ id: `r${k}`, parent_id: `a${k}`, kind: 'message', message: { role: 'tool', content: [result] } });
    parent = `r${k}`;
  }
  return ledgerBytes(entries);
}

/** A session whose open turn ends in one tool result of `mb` MB. */
function bigResultLedger(mb: number): Buffer {
  const tool = { type: 'tool_use', id: 't1', name: 'cat', input: {} };
  const result = { type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(mb << 20) };
  return ledgerBytes([
    header(),
    { id: 'd1', parent_id: 'h', kind: 'message', message: userMsg('go') },
    { id: 'a1', parent_id: 'd1', kind: 'message', message: { role: 'assistant', content: [tool] } },
    { id: 'r1', parent_id: 'a1', kind: 'message', message: { role: 'tool', content: [result] } },
  ]);
}

/** A home with one generated session; returns the home, its key and path. */
function generatedHome(entries: number, seed: number): { home: string; key: string; path: string } {
  const home = tempDir();
  const cwd = '/home/ana/projects/vak';
  const g = generateSession({ seed, entries, cwd, shape: 'uncompacted', branchChance: 0.01 });
  const key = `agents/vak/sessions/${cwdHash(cwd)}/${g.sessionId}.jsonl`;
  mkdirSync(join(home, key, '..'), { recursive: true });
  appendFileSync(join(home, key), g.bytes);
  return { home, key, path: join(home, key) };
}

async function workerOn(home: string, extra: Parameters<typeof WorkerBackend.create>[1] = {}): Promise<WorkerBackend> {
  const w = await WorkerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, watch: false }, extra);
  open.push(w);
  return w;
}

/** Runs ./worker-child.ts: one call on a worker with a `heapMb` limit, in its own process. */
function inChildProcess(
  home: string,
  heapMb: number,
  method: string,
  req: unknown,
): Promise<{ exit: number | string; out: Record<string, unknown> | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['bin/run-ts.mjs', 'src/reliability/worker-child.ts', home, String(heapMb), method, JSON.stringify(req)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += String(d)));
  child.stderr.on('data', (d: Buffer) => (err += String(d)));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      resolve({
        exit: code ?? signal ?? 'unknown',
        out: line ? (JSON.parse(line) as Record<string, unknown>) : null,
        stderr: err,
      });
    }),
  );
}

/** The directive lines (§7) of a file under `parentId` whose text is `text`. */
function directives(path: string, parentId: string, text: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.includes(`"parent_id":${JSON.stringify(parentId)}`) && l.includes(JSON.stringify(text)));
}

const exportReq = (format: 'json' | 'markdown') => ({
  key: sessionKey(),
  leaf: null,
  plan: 'none' as const,
  profile: DEFAULT_PROFILE,
  format,
});

describe('a file cannot take the serve process down', () => {
  it('exports a 440 KB ledger whose 24 tool inputs nest 9,000 deep: the text grows with the file, the process lives', async () => {
    const home = tempDir();
    const bytes = deepInputsLedger(9000, 24);
    expect(bytes.length).toBeGreaterThan(400_000);
    writeSession(home, bytes);
    serve = await startServeChild(home);
    const cookie = await signIn(serve.port, serve.token);
    const r = await openSocket(serve.port, { cookie });
    if (!r.ws) throw new Error(`refused: ${r.status}`);
    const api = rpc(r.ws);
    for (const format of ['markdown', 'json'] as const) {
      const { text } = await readWholeExport(viaRpc(api), exportReq(format));
      // Indented text of each input costs its depth² in characters (162 MB each) unless deep levels go compact.
      expect(text.length).toBeLessThan(8 * bytes.length);
      expect(text).toContain('[[[[[[[[');
    }
    expect(await api.call('getHome', {})).toMatchObject({ ok: true });
    expect(serve.child.exitCode).toBeNull();
    r.ws.close();
  }, 180_000);

  it('exports a session whose open turn holds a 40 MB tool result, on a worker of 150 MB: clipped, and the process lives', async () => {
    const home = tempDir();
    writeSession(home, bigResultLedger(40));
    // Copied whole into fences, the joined text and the answer, the result once ended the whole
    // process (a worker's allocation past its limit is fatal to the process, not to the worker).
    const r = await inChildProcess(home, 150, 'beginExport', exportReq('markdown'));
    expect(r.exit, r.stderr.slice(-2000)).toBe(0);
    expect(r.out).toMatchObject({ ok: true, nextAnswered: true });
    expect(r.out?.['chars']).toBeLessThan(4 << 20);
  }, 120_000);
});

describe('a worker that still dies', () => {
  it('is restarted: pending calls fail naming why, every client is told, the next request answers', async () => {
    // Reading this session needs more than the worker's heap; starting a worker and listing the
    // home needs well under it. (At 20 MB the restarted worker itself sometimes ran out while
    // it started, and the request meant to show it answers failed.)
    const { home, key } = generatedHome(30_000, 14);
    const w = await workerOn(home, { resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const asking = recorder('asking');
    const watching = recorder('watching');
    expect(await w.call('getHome', {}, watching)).toMatchObject({ home });
    const failed = w.call(
      'getLeafView',
      { key, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} },
      asking,
    );
    await expect(failed).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/memory/i) });
    for (const c of [asking, watching]) {
      expect(c.events).toContainEqual({
        type: 'reader',
        change: 'restarted',
        reason: expect.stringMatching(/memory/i),
      });
    }
    expect(await w.call('getHome', {}, asking)).toMatchObject({ home });
  }, 60_000);
});

describe('a branch across a worker restart', () => {
  it('pending when the worker dies: unknown_outcome, never internal; sent again, it is appended once', async () => {
    const { home, key, path } = generatedHome(30_000, 16);
    const w = await workerOn(home);
    const c = recorder('c1');
    const info = (await w.call('openSession', { key }, c)) as { activeLeaf: string };
    const req = { key, parentId: info.activeLeaf, text: 'pending at the restart', idempotencyKey: randomUUID() };
    // A long projection keeps the worker busy: the branch waits in its queue when it dies.
    const busy = w.call('getLeafView', { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, overrides: {} }, c);
    busy.catch(() => undefined);
    const pending = w.call('branch', req, c);
    await new Promise((r) => setImmediate(r));
    await w.killWorker();
    await expect(pending).rejects.toMatchObject({ code: 'unknown_outcome' });
    const again = (await w.call('branch', req, c)) as BranchResult;
    const third = (await w.call('branch', req, c)) as BranchResult;
    expect(third).toEqual(again);
    expect(directives(path, info.activeLeaf, req.text)).toHaveLength(1);
    expect(directives(path, info.activeLeaf, req.text)[0]).toContain(again.id);
  }, 120_000);

  it('written before the worker died: the same key is answered with that line, not appended again', async () => {
    const { home, key, path } = generatedHome(200, 17);
    const w = await workerOn(home);
    const c = recorder('c1');
    const info = (await w.call('openSession', { key }, c)) as { activeLeaf: string };
    const req = { key, parentId: info.activeLeaf, text: 'written once', idempotencyKey: randomUUID() };
    const first = (await w.call('branch', req, c)) as BranchResult;
    await w.killWorker();
    expect(await w.call('branch', req, c)).toEqual(first);
    expect(directives(path, info.activeLeaf, req.text)).toHaveLength(1);
  }, 60_000);

  it('written by a worker whose reply was lost: the next worker finds that line instead of appending', async () => {
    const { home, key, path } = generatedHome(200, 18);
    const b1 = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    open.push(b1);
    const c = recorder('c1');
    const info = (await b1.call('openSession', { key }, c)) as { activeLeaf: string };
    const req = { key, parentId: info.activeLeaf, text: 'reply lost', idempotencyKey: randomUUID() };
    const since = Date.now();
    const written = (await b1.call('branch', req, c)) as BranchResult;
    // A fresh backend (a restarted worker) knows nothing of the key: it looks in the file.
    const b2 = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    open.push(b2);
    expect(await b2.branchAfterUnknownOutcome(req, since)).toEqual(written);
    expect(directives(path, info.activeLeaf, req.text)).toHaveLength(1);
    // A directive dated before the attempt is someone else's: that one is appended.
    const other = { ...req, idempotencyKey: randomUUID() };
    const b3 = await ExplorerBackend.create({ home, isDemo: false, label: 't', watch: false, lockPollMs: 0 });
    open.push(b3);
    const later = await b3.branchAfterUnknownOutcome(other, Date.now() + 5000);
    expect(later.id).not.toBe(written.id);
    expect(directives(path, info.activeLeaf, req.text)).toHaveLength(2);
  }, 60_000);
});

describe('long work runs in steps', () => {
  it("a new leaf and a long session's export yield to other requests, and stop when their caller goes", async () => {
    const { home, key } = generatedHome(20_000, 19);
    // Read whole at open: no answer below waits for the rest of a first read.
    const w = await WorkerBackend.create(
      { home, isDemo: false, label: 'test', lockPollMs: 0, watch: false, firstReadBytes: Infinity },
      {},
    );
    open.push(w);
    const exporter = recorder('exporter');
    const other = recorder('other');
    await w.call('openSession', { key }, other);
    const req = { key, leaf: null, plan: 'none', profile: DEFAULT_PROFILE, format: 'json' } as const;
    const order: string[] = [];
    // A leaf at a new bytes_per_token costs every turn again: planned in steps, it lets others in.
    const leafReq = {
      key,
      leaf: null,
      plan: 'none',
      profile: { ...DEFAULT_PROFILE, bytes_per_token: 3 },
      overrides: {},
    };
    const viewed = w.callJson('getLeafView', leafReq, exporter).then(() => order.push('leaf'));
    await new Promise((r) => setImmediate(r));
    await w.callJson('getTreeRows', { key, start: 0, count: 50, foldAudit: false }, other);
    order.push('rows');
    await viewed;
    expect(order).toEqual(['rows', 'leaf']);
    order.length = 0;

    // An export is read a chunk per request: the rows asked meanwhile answer between its chunks.
    const call: ExportCall = (m, r) => w.call(m, r, exporter);
    const exported = readWholeExport(call, req).then((e) => {
      order.push('export');
      return e;
    });
    await new Promise((r) => setImmediate(r));
    await w.callJson('getTreeRows', { key, start: 0, count: 50, foldAudit: false }, other);
    order.push('rows');
    // 20,000 entries' messages: many chunks, each its own request.
    expect((await exported).chunks).toBeGreaterThan(1);
    expect(order).toEqual(['rows', 'export']);

    // An export given up part way (a cancelled save) stops there: its next chunk is never written.
    const begun = (await call('beginExport', { ...req, format: 'markdown' })) as ExportStarted;
    const first = (await call('readExport', { exportId: begun.exportId })) as ExportChunk;
    expect(first.done).toBe(false);
    expect(await w.call('endExport', { exportId: begun.exportId }, exporter)).toEqual({ ended: true });
    await expect(call('readExport', { exportId: begun.exportId })).rejects.toMatchObject({ code: 'not_found' });
    // And one whose caller goes is dropped with it.
    const left = (await call('beginExport', req)) as ExportStarted;
    expect(((await call('readExport', { exportId: left.exportId })) as ExportChunk).done).toBe(false);
    w.disconnect(exporter);
    await expect(w.call('readExport', { exportId: left.exportId }, other)).rejects.toMatchObject({ code: 'not_found' });
  }, 120_000);
});
