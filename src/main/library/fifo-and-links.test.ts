import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, SessionSummary } from '../../shared/api';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import { ApiError, type ApiClient } from '../api/api-backend';
import { ExplorerBackend } from '../api/explorer-backend';
import { makeWritable } from '../../test-support/make-writable';

/**
 * FIFOs and links at the library and backend level (serve mode's end-to-end FIFO test
 * is the transport's): a FIFO, or a link to one, named *.jsonl never hangs anything, and
 * a link leads out of the home only to a ledger of its own session.
 */

const tmp = useTempDir('vak-fifo-links-');
const DIR = 'agents/vak/sessions/70929a3c84065db2';
const SMALL_ID = '01a202b8-4340-760b-95da-2b05292cd070';
const SMALL = `${DIR}/${SMALL_ID}.jsonl`;
const BIG = `${DIR}/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl`;
const PIPE = `${DIR}/pipe.jsonl`;
const PIPE_LINK = `${DIR}/pipe-link.jsonl`;

class Client implements ApiClient {
  events: ApiEvent[] = [];
  constructor(readonly id: string) {}
  push(e: ApiEvent): void {
    this.events.push(e);
  }
  async next(pred: (e: ApiEvent) => boolean, ms = 3000): Promise<ApiEvent> {
    for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 5))) {
      const e = this.events.find(pred);
      if (e) return e;
    }
    throw new Error(`no matching event in ${ms} ms; got ${JSON.stringify(this.events)}`);
  }
}

async function refused(p: Promise<unknown>, msg: RegExp): Promise<void> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  expect((e as ApiError).code).toBe('refused');
  expect((e as ApiError).message).toMatch(msg);
}

let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

/** A copy of the demo home plus whatever `extra` adds; the backend over it, watching. */
async function serve(
  extra: (home: string, outside: string) => void,
  watch = true,
): Promise<{ home: string; outside: string }> {
  const root = tmp();
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
  makeWritable(home);
  mkdirSync(outside);
  extra(home, outside);
  backend = await ExplorerBackend.create({ home, isDemo: false, label: 't', lockPollMs: 0, rescanMs: 0, watch });
  return { home, outside };
}

const c = new Client('c');
const rowOf = async (key: string): Promise<SessionSummary | undefined> =>
  ((await backend!.call('listSessions', {}, c)) as SessionSummary[]).find((s) => s.key === key);

describe('FIFOs named *.jsonl', () => {
  it('a FIFO and a link to one present at start: listed with the reason, refused on open, the rest served', async () => {
    await serve((home, outside) => {
      execFileSync('mkfifo', [join(home, PIPE)]);
      execFileSync('mkfifo', [join(outside, 'p')]);
      symlinkSync(join(outside, 'p'), join(home, PIPE_LINK));
    });
    for (const key of [PIPE, PIPE_LINK]) {
      expect(await rowOf(key)).toMatchObject({ unreadable: expect.stringMatching(/FIFO/), entries: 0 });
      await refused(backend!.call('openSession', { key }, c), /FIFO/);
      await refused(backend!.call('getLine', { key, offset: 0 }, c), /FIFO/);
      await refused(
        backend!.call('branch', { key, parentId: 'x', text: 'hi', idempotencyKey: randomUUID() }, c),
        /FIFO/,
      );
    }
    // The same process still answers everything else.
    const info = (await backend!.call('openSession', { key: SMALL }, c)) as { summary: SessionSummary };
    expect(info.summary.entries).toBe(13);
  });

  it('a FIFO renamed over a followed session: followers are told, the old reading stays, serving goes on', async () => {
    const { home, outside } = await serve(() => undefined);
    await backend!.call('subscribe', { topic: 'session', key: SMALL }, c);
    await backend!.call('subscribe', { topic: 'library' }, c);
    execFileSync('mkfifo', [join(outside, 'p')]);
    renameSync(join(outside, 'p'), join(home, SMALL));
    const e = await c.next((x) => x.type === 'session' && x.key === SMALL);
    expect(e).toMatchObject({ change: 'reloaded', reason: expect.stringMatching(/FIFO/) });
    // (The subscribe told the open session's row as it was: the FIFO's row is a later event.)
    const lib = await c.next((x) => x.type === 'library' && x.changed.some((s) => s.key === SMALL && s.unreadable));
    expect(lib.type === 'library' && lib.changed.find((s) => s.key === SMALL)?.unreadable).toMatch(/FIFO/);
    const rows = (await backend!.call('getTreeRows', { key: SMALL, start: 0, count: 5, foldAudit: false }, c)) as {
      rows: unknown[];
    };
    expect(rows.rows.length).toBeGreaterThan(0);
    await refused(
      backend!.call('branch', { key: SMALL, parentId: 'x', text: 'hi', idempotencyKey: randomUUID() }, c),
      /FIFO/,
    );
    expect(((await backend!.call('openSession', { key: BIG }, c)) as { summary: SessionSummary }).summary.key).toBe(
      BIG,
    );
  });
});

describe('links in the home', () => {
  it('a link to a file that is not its session ledger is listed, never read: getLine never returns its bytes', async () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash';
    const key = `${DIR}/passwd.jsonl`;
    await serve((home, outside) => {
      writeFileSync(join(outside, 'passwd'), `${secret}\n`);
      symlinkSync(join(outside, 'passwd'), join(home, key));
    });
    const row = await rowOf(key);
    expect(row?.unreadable).toMatch(/not a ledger of session passwd/);
    expect(JSON.stringify(row)).not.toContain('root:x');
    await refused(backend!.call('getLine', { key, offset: 0 }, c), /not a ledger/);
    await refused(backend!.call('getWarnings', { key }, c), /not a ledger/);
    const before = readFileSync(join(backend!.info.home, '..', 'outside', 'passwd'));
    await refused(
      backend!.call('branch', { key, parentId: 'x', text: 'hi', idempotencyKey: randomUUID() }, c),
      /not a ledger/,
    );
    expect(readFileSync(join(backend!.info.home, '..', 'outside', 'passwd')).equals(before)).toBe(true);
  });

  it('a link to a ledger of the same session elsewhere is a session; a branch writes only while it still leads there', async () => {
    const key = `${DIR}/${SMALL_ID}.jsonl`;
    const { home, outside } = await serve((h, out) => {
      mkdirSync(join(out, 'a'));
      mkdirSync(join(out, 'b'));
      copyFileSync(join(h, SMALL), join(out, 'a', `${SMALL_ID}.jsonl`));
      copyFileSync(join(h, SMALL), join(out, 'b', `${SMALL_ID}.jsonl`));
      rmSync(join(h, SMALL));
      symlinkSync(join(out, 'a', `${SMALL_ID}.jsonl`), join(h, key));
    }, false); // no watcher: the session stays as opened when the link changes
    expect((await rowOf(key))?.unreadable).toBeNull();
    const info = (await backend!.call('openSession', { key }, c)) as { activeLeaf: string };
    const r = (await backend!.call(
      'branch',
      { key, parentId: info.activeLeaf, text: 'through the link', idempotencyKey: randomUUID() },
      c,
    )) as { id: string };
    expect(readFileSync(join(outside, 'a', `${SMALL_ID}.jsonl`), 'utf8')).toContain(r.id);

    // Relinked after it was opened: the branch refuses rather than write to a file it did not read.
    const bBefore = readFileSync(join(outside, 'b', `${SMALL_ID}.jsonl`));
    const aBefore = readFileSync(join(outside, 'a', `${SMALL_ID}.jsonl`));
    rmSync(join(home, key));
    symlinkSync(join(outside, 'b', `${SMALL_ID}.jsonl`), join(home, key));
    await refused(
      backend!.call('branch', { key, parentId: info.activeLeaf, text: 'again', idempotencyKey: randomUUID() }, c),
      /not to the file that was opened|no longer the file/,
    );
    expect(readFileSync(join(outside, 'b', `${SMALL_ID}.jsonl`)).equals(bBefore)).toBe(true);
    expect(readFileSync(join(outside, 'a', `${SMALL_ID}.jsonl`)).equals(aBefore)).toBe(true);
  });
});
