import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenFileOutcome, RecentFiles, SessionInfo, SessionSummary } from '../../shared/api';
import { FIXTURES } from '../../test-support/fixtures';
import { RecordingClient } from '../../test-support/recording-client';
import { useTempDir } from '../../test-support/temp-dir';
import { Ledger } from '../core/ledger';
import { ApiError } from './api-backend';
import { ExplorerBackend } from './explorer-backend';

const tempDir = useTempDir('vak-open-files-');
const LINEAR = join(FIXTURES, 'linear.jsonl');

const backends: ExplorerBackend[] = [];
let holder: ChildProcess | null = null;
afterEach(async () => {
  if (holder?.pid) process.kill(-holder.pid, 'SIGKILL');
  holder = null;
  for (const b of backends.splice(0)) await b.close();
});

/** A backend over an empty home, with `files` opened at start. */
async function backendWith(
  files: string[],
  extra: Partial<Parameters<typeof ExplorerBackend.create>[0]> = {},
): Promise<{ b: ExplorerBackend; dir: string }> {
  const dir = extra.userDataDir ? join(extra.userDataDir, '..') : tempDir();
  mkdirSync(join(dir, 'home'), { recursive: true });
  const b = await ExplorerBackend.create({
    home: join(dir, 'home'),
    isDemo: false,
    label: 'test',
    lockPollMs: 0,
    // No safety rescan: an append must come from the watch.
    rescanMs: 0,
    userDataDir: join(dir, 'data'),
    openFiles: files,
    ...extra,
  });
  backends.push(b);
  return { b, dir };
}

/** A copy of a fixture ledger somewhere outside any home. */
function copyOf(fixture: string, dir: string, name = 'colleague.jsonl'): string {
  mkdirSync(join(dir, 'elsewhere'), { recursive: true });
  const p = join(dir, 'elsewhere', name);
  copyFileSync(fixture, p);
  return p;
}

function appendFromOtherProcess(path: string, id: string, parentId: string): void {
  const l = Ledger.openSync(path);
  const prev = l.lastLineHash;
  l.close();
  const line =
    JSON.stringify({
      id,
      parent_id: parentId,
      ts: new Date().toISOString(),
      prev_hash: prev,
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: 'appended by a colleague' }] },
    }) + '\n';
  execFileSync(process.execPath, ['-e', 'require("fs").appendFileSync(process.argv[1], process.argv[2])', path, line]);
}

describe('files opened by path', () => {
  it('lists an opened file under its own key with its path, and opens it', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const { b } = await backendWith([path], { userDataDir: join(dir, 'data') });
    const c = new RecordingClient('c1');
    const list = (await b.call('listSessions', {}, c)) as SessionSummary[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ key: 'opened/0.jsonl', openedPath: path, cwdMismatch: false, unreadable: null });
    expect(list[0].sessionId).toBe('01a22688-5a80-7d3d-a60d-53f7388101d1');
    const info = (await b.call('openSession', { key: 'opened/0.jsonl' }, c)) as SessionInfo;
    expect(info.entryCount).toBe(Ledger.openSync(LINEAR).index.count);
  });

  it('follows appends to an opened file like a home session', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const { b } = await backendWith([path], { userDataDir: join(dir, 'data') });
    const c = new RecordingClient('c2');
    await b.call('subscribe', { topic: 'session', key: 'opened/0.jsonl' }, c);
    const leaf = b.cache.get('opened/0.jsonl')!.ledger.index;
    appendFromOtherProcess(path, 'colleague-1', leaf.ids[leaf.activeLeaf]);
    const e = await c.seenOrNext((x) => x.type === 'session' && x.change === 'appended');
    expect(e).toMatchObject({ key: 'opened/0.jsonl', newIds: ['colleague-1'], activeLeaf: 'colleague-1' });
  });

  it('searches an opened file like a home session', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const { b } = await backendWith([path], { userDataDir: join(dir, 'data') });
    const c = new RecordingClient('c9');
    const text = readFileSync(path, 'utf8');
    const word = 'ParseError';
    expect(text).toContain(word);
    for (const scope of [{ kind: 'session', key: 'opened/0.jsonl' }, { kind: 'home' }]) {
      const page = (await b.call(
        'search',
        { searchId: `s-${scope.kind}`, query: word, scope, filters: {}, limit: 50 },
        c,
      )) as {
        sessions: { key: string }[];
        hits: number;
      };
      expect(page.hits).toBeGreaterThan(0);
      expect(page.sessions.map((s) => s.key)).toEqual(['opened/0.jsonl']);
    }
  });

  it('branches an opened file under the lock, append-only and once per idempotency key', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const { b } = await backendWith([path], { userDataDir: join(dir, 'data') });
    const c = new RecordingClient('c3');
    const info = (await b.call('openSession', { key: 'opened/0.jsonl' }, c)) as SessionInfo;
    const before = readFileSync(path);
    const req = {
      key: 'opened/0.jsonl',
      parentId: info.activeLeaf!,
      text: 'try it another way',
      idempotencyKey: randomUUID(),
    };
    const r1 = (await b.call('branch', req, c)) as { id: string };
    const r2 = (await b.call('branch', req, c)) as { id: string };
    expect(r2.id).toBe(r1.id);
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.toString('utf8').trimEnd().split('\n')).toHaveLength(
      before.toString('utf8').trimEnd().split('\n').length + 1,
    );

    // While an agent holds the flock, a branch is refused and nothing is written.
    holder = spawn('flock', ['-n', path, '-c', 'echo held; sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      holder!.stdout!.once('data', () => resolve());
      holder!.once('exit', (code) => reject(new Error(`flock exited (${code}) before it held the lock`)));
    });
    const size = statSync(path).size;
    const err = await b.call('branch', { ...req, idempotencyKey: randomUUID() }, c).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('locked');
    expect(statSync(path).size).toBe(size);
  });

  it('gives the same file the same key however it is reached, and another file the next key', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const link = join(dir, 'link.jsonl');
    symlinkSync(path, link);
    const other = copyOf(join(FIXTURES, 'branching.jsonl'), dir, 'other.jsonl');
    const { b } = await backendWith([], { userDataDir: join(dir, 'data'), openByPath: true });
    const c = new RecordingClient('c4');
    await b.call('subscribe', { topic: 'library' }, c);
    const outcomes = await b.openFiles([path, link, other]);
    expect(outcomes).toEqual([
      { path, key: 'opened/0.jsonl' },
      { path: link, key: 'opened/0.jsonl' },
      { path: other, key: 'opened/1.jsonl' },
    ]);
    const lib = await c.seenOrNext((e) => e.type === 'library');
    expect(lib.type === 'library' && lib.changed.map((s) => s.key)).toEqual(['opened/0.jsonl', 'opened/1.jsonl']);
    expect(await c.seenOrNext((e) => e.type === 'opened')).toEqual({ type: 'opened', outcomes });
  });

  it('refuses a directory, a FIFO, a file that is not a ledger and one too big, naming each; nothing is opened', async () => {
    const dir = tempDir();
    const folder = join(dir, 'a-folder.jsonl');
    mkdirSync(folder);
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const notLedger = join(dir, 'notes.jsonl');
    writeFileSync(notLedger, '{"hello":"world"}\n');
    const text = join(dir, 'readme.txt');
    writeFileSync(text, 'just some words\n');
    const big = copyOf(LINEAR, dir, 'big.jsonl');
    const missing = join(dir, 'gone.jsonl');
    const { b } = await backendWith([], { userDataDir: join(dir, 'data'), maxOpenedBytes: 1000 });
    const outcomes = await b.openFiles([folder, fifo, notLedger, text, big, missing]);
    const problems = outcomes.map((o: OpenFileOutcome) => ('problem' in o ? o.problem : `opened as ${o.key}`));
    expect(problems[0]).toMatch(new RegExp(`^${folder} is a directory, not a regular file`));
    expect(problems[1]).toMatch(new RegExp(`^${fifo} is a FIFO \\(named pipe\\), not a regular file`));
    expect(problems[2]).toBe(
      `${notLedger} is not a vak ledger (its line 1 is not a ledger entry with id, parent_id, ts, prev_hash and kind); it is not read`,
    );
    expect(problems[3]).toMatch(new RegExp(`^${text} is not a vak ledger`));
    expect(problems[3]).not.toMatch(/just some words/); // never quotes the file
    expect(problems[4]).toMatch(new RegExp(`^${big} is \\d+ bytes, more than the 1000 bytes`));
    expect(problems[5]).toBe(`${missing} does not exist`);
    expect(await b.call('listSessions', {}, new RecordingClient('c5'))).toEqual([]);
    expect(((await b.call('listRecentFiles', {}, new RecordingClient('c5'))) as RecentFiles).files).toEqual([]);
  });

  it('accepts a ledger whose header is missing (shown with its warnings, as in a home)', async () => {
    const dir = tempDir();
    const path = copyOf(join(FIXTURES, 'missing-header.jsonl'), dir, 'missing-header.jsonl');
    const { b } = await backendWith([], { userDataDir: join(dir, 'data') });
    expect(await b.openFiles([path])).toEqual([{ path, key: 'opened/0.jsonl' }]);
    const [row] = (await b.call('listSessions', {}, new RecordingClient('c6'))) as SessionSummary[];
    expect(row.sessionId).toBe('missing-header');
  });

  it('keeps a Recent list, shows a file gone as missing, and opens only files on it', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const other = copyOf(join(FIXTURES, 'branching.jsonl'), dir, 'other.jsonl');
    const data = join(dir, 'data');
    const { b } = await backendWith([path, other], { userDataDir: data, openByPath: true });
    const c = new RecordingClient('c7');
    let recent = (await b.call('listRecentFiles', {}, c)) as RecentFiles;
    expect(recent).toEqual({
      openByPath: true,
      files: [
        { path: other, missing: null },
        { path, missing: null },
      ],
    });
    execFileSync('rm', [other]);
    recent = (await b.call('listRecentFiles', {}, c)) as RecentFiles;
    expect(recent.files[0]).toEqual({ path: other, missing: `${other} does not exist` });
    expect(await b.call('openRecentFile', { path }, c)).toEqual({ path, key: 'opened/0.jsonl' });
    expect(await b.call('openRecentFile', { path: other }, c)).toEqual({
      path: other,
      problem: `${other} does not exist`,
    });
    const err = await b.call('openRecentFile', { path: '/etc/passwd' }, c).catch((x: unknown) => x);
    expect((err as ApiError).code).toBe('not_found');
  });

  it('in serve mode, opens no file a client names (Recent included), only those it started with', async () => {
    const dir = tempDir();
    const path = copyOf(LINEAR, dir);
    const { b } = await backendWith([path], { userDataDir: join(dir, 'data') });
    const c = new RecordingClient('c8');
    const recent = (await b.call('listRecentFiles', {}, c)) as RecentFiles;
    expect(recent.openByPath).toBe(false);
    const err = await b.call('openRecentFile', { path }, c).catch((x: unknown) => x);
    expect((err as ApiError).code).toBe('refused');
    expect((err as ApiError).message).toMatch(/serve --file/);
    // A key for a file never opened names nothing; a path is no key.
    for (const key of ['opened/1.jsonl', path, '/tmp/x.jsonl', 'opened/../x.jsonl']) {
      const e = await b.call('openSession', { key }, c).catch((x: unknown) => x);
      expect((e as ApiError).code).toMatch(/not_found|bad_request/);
    }
  });
});
