/**
 * The real serve mode in its own process (serve-child: `vak-explorer serve`'s code with a
 * placeholder page), driven over raw WebSockets: what a home a user can name, or a client
 * that drops, must never do to the serving process.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { BranchResult, SessionSummary } from '../../shared/api';
import { FIXTURES } from '../../test-support/fixtures';
import { startServeChild, type ServeChild } from '../../test-support/serve-child-process';
import { useTempDir } from '../../test-support/temp-dir';
import { openSocket, rpc, signIn } from './testing/http-helpers';

const DIR = 'agents/vak/sessions/0000000000000000';
const REGULAR = `${DIR}/01a22688-5a80-7d3d-a60d-53f7388101d1.jsonl`;
const FIFO = `${DIR}/01a22688-5a80-7d3d-a60d-000000000f1f.jsonl`;
const LINK_TO_FIFO = `${DIR}/01a22688-5a80-7d3d-a60d-0000000011c0.jsonl`;
const LAST_ID = 'e0021';

const tempDir = useTempDir('vak-serve-mode-');
let serve: ServeChild | null = null;

afterEach(() => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  serve = null;
});

function homeWithSession(): string {
  const home = join(tempDir(), 'home');
  mkdirSync(join(home, DIR), { recursive: true });
  copyFileSync(join(FIXTURES, 'linear.jsonl'), join(home, REGULAR));
  return home;
}

async function socket(s: ServeChild): Promise<WebSocket> {
  const cookie = await signIn(s.port, s.token);
  const r = await openSocket(s.port, { cookie });
  if (!r.ws) throw new Error(`socket refused: ${r.status}`);
  return r.ws;
}

const lines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);

describe('serve mode with FIFOs in the home', () => {
  it('listens, lists the home, refuses to open a FIFO (or a link to one), keeps answering, stops on SIGTERM', async () => {
    const home = homeWithSession();
    const outside = join(home, '..', 'outside.fifo');
    execFileSync('mkfifo', [join(home, FIFO), outside]);
    symlinkSync(outside, join(home, LINK_TO_FIFO));

    serve = await startServeChild(home);
    const ws = await socket(serve);
    const api = rpc(ws);

    const listed = await api.call('listSessions', {});
    expect(listed.ok).toBe(true);
    const rows = (listed.ok ? listed.res : []) as SessionSummary[];
    expect(rows.map((r) => r.key)).toContain(REGULAR);
    for (const r of rows.filter((x) => x.key !== REGULAR)) expect(r.unreadable).toMatch(/\w/);

    for (const key of [FIFO, LINK_TO_FIFO]) {
      const opened = await api.call('openSession', { key });
      expect(opened.ok).toBe(false);
      if (!opened.ok) {
        expect(['refused', 'not_found']).toContain(opened.error.code);
        expect(opened.error.message).toMatch(/regular file|FIFO|not a ledger|not a session/i);
      }
      const entry = await api.call('getLine', { key, offset: 0 });
      expect(entry.ok).toBe(false);
    }
    // The server still answers, the regular session included.
    expect(await api.call('getHome', {})).toMatchObject({ ok: true });
    expect(await api.call('openSession', { key: REGULAR })).toMatchObject({ ok: true, res: { key: REGULAR } });

    ws.close();
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toMatch(/SIGTERM, stopping/);
  }, 120_000);
});

describe('serve mode when a socket drops mid-branch', () => {
  const branchReq = (idempotencyKey: string) => ({
    key: REGULAR,
    parentId: LAST_ID,
    text: 'try the other parser',
    idempotencyKey,
  });

  it('appends once: the reply was lost, and the same submission sent again gets the first result', async () => {
    const home = homeWithSession();
    const path = join(home, REGULAR);
    const before = lines(path).length;
    serve = await startServeChild(home);

    // A client sends its branch and stops reading: the server appends, the reply never arrives.
    const lost = await socket(serve);
    const key = randomUUID();
    (lost as unknown as { _socket: Socket })._socket.pause();
    lost.send(JSON.stringify({ id: 1, method: 'branch', req: branchReq(key) }));
    await expect.poll(() => lines(path).length, { timeout: 30_000 }).toBe(before + 1);
    lost.terminate();

    // The page reconnects; the user sends the same draft again (same key): no second line.
    const again = rpc(await socket(serve));
    const r = await again.call('branch', branchReq(key));
    expect(r.ok).toBe(true);
    const result = (r.ok ? r.res : null) as BranchResult;
    const written = lines(path);
    expect(written).toHaveLength(before + 1);
    expect(JSON.parse(written[before])).toMatchObject({ id: result.id, parent_id: LAST_ID });

    // A socket cut right after the frame left: whether or not the server saw it, one send more makes one line.
    const key2 = randomUUID();
    const cut = await socket(serve);
    await new Promise<void>((resolve, reject) =>
      cut.send(JSON.stringify({ id: 1, method: 'branch', req: branchReq(key2) }), (e) => (e ? reject(e) : resolve())),
    );
    cut.terminate();
    const r2 = await again.call('branch', branchReq(key2));
    expect(r2.ok).toBe(true);
    expect(lines(path)).toHaveLength(before + 2);
    expect(await again.call('branch', branchReq(key2))).toEqual({ ...r2, id: expect.any(Number) });
    expect(lines(path)).toHaveLength(before + 2);
  }, 120_000);
});
