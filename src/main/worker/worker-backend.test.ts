import { hash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import type { ApiEvent, LeafRequest } from '../../shared/api';
import type { ContextSeries } from '../../shared/api-series';
import type { SessionSecrets } from '../../shared/api-secrets';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { useTempDir } from '../../test-support/temp-dir';
import { ApiError, type ApiClient } from '../api/api-backend';
import { ExplorerBackend } from '../api/explorer-backend';
import { cwdHash } from '../core/fnv1a64';
import { BUILT_THREADS_ENV } from '../threads/thread-entry';
import { WorkerBackend } from './worker-backend';
import { CANCELLED, type WorkerStats } from './worker-protocol';

const tempDir = useTempDir('vak-worker-');
const CWD = '/home/ana/projects/vak';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

/** A home with one generated session of `entries` entries; returns the home and the session's key. */
function homeWith(entries: number, seed = 11): { home: string; key: string; path: string } {
  const home = tempDir();
  const g = generateSession({ seed, entries, cwd: CWD, shape: 'uncompacted', branchChance: 0.01 });
  const key = `agents/vak/sessions/${cwdHash(CWD)}/${g.sessionId}.jsonl`;
  mkdirSync(join(home, key, '..'), { recursive: true });
  appendFileSync(join(home, key), g.bytes);
  return { home, key, path: join(home, key) };
}

/** A client that records what is pushed to it. */
function recorder(id: string): ApiClient & { events: ApiEvent[] } {
  const events: ApiEvent[] = [];
  return { id, events, push: (e) => events.push(e) };
}

/**
 * The worker's stats once the call aborted last has ended there. The caller's promise is
 * rejected at the abort, while the worker may still be in the call's steps (a stats request is
 * answered between them): read at once, one try's cancellation is counted in the next try's
 * window. Ended: its cancellation counted, or its turns no longer growing from one answer to the
 * next (it had ended, or was building its view, when the abort came).
 */
async function statsOnceEnded(w: WorkerBackend, before: WorkerStats): Promise<WorkerStats> {
  let last = await w.stats();
  for (let i = 0; i < 10_000 && last.callsEndedCancelled === before.callsEndedCancelled; i++) {
    const next = await w.stats();
    if (next.core.turnsProjected === last.core.turnsProjected && next.callsEndedCancelled === last.callsEndedCancelled)
      return next;
    last = next;
  }
  return last;
}

const leafReq = (key: string, leaf: string | null = null): LeafRequest => ({
  key,
  leaf,
  plan: 'auto',
  profile: DEFAULT_PROFILE,
  overrides: {},
});

async function workerOn(
  home: string,
  extra: Parameters<typeof WorkerBackend.create>[1] = {},
  firstReadBytes?: number,
): Promise<WorkerBackend> {
  const b = await WorkerBackend.create(
    { home, isDemo: false, label: 'test', lockPollMs: 0, rescanMs: 200, ...(firstReadBytes ? { firstReadBytes } : {}) },
    extra,
  );
  open.push(b);
  return b;
}

/** Appends one valid, hash-linked user message under the file's last entry; returns its id. */
function appendEntry(path: string, text: string): string {
  const all = readFileSync(path, 'utf8').replace(/\n$/, '');
  const last = all.slice(all.lastIndexOf('\n') + 1);
  const id = `appended-${text.replace(/\W/g, '-')}`;
  const line = JSON.stringify({
    id,
    parent_id: (JSON.parse(last) as { id: string }).id,
    ts: new Date().toISOString(),
    prev_hash: hash('sha256', last, 'hex'),
    kind: 'message',
    message: { role: 'user', content: [{ type: 'text', text }] },
  });
  appendFileSync(path, line + '\n');
  return id;
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let k = 0; k < 500 && !cond(); k++) await new Promise((r) => setTimeout(r, 20));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

describe('WorkerBackend (the ledger core on a worker thread)', () => {
  it('answers every call as the in-process backend does', async () => {
    const { home, key } = homeWith(600);
    const w = await workerOn(home);
    const direct = await ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
    open.push(direct);
    const c = recorder('c1');
    expect(await w.call('getHome', {}, c)).toEqual(await direct.call('getHome', {}, c));
    const info = (await w.call('openSession', { key }, c)) as { entryCount: number; generation: number };
    // (each backend names its own readings)
    expect({ ...info, generation: 0 }).toEqual({
      ...((await direct.call('openSession', { key }, c)) as object),
      generation: 0,
    });
    expect(info.entryCount).toBe(600);
    expect(await w.call('getLeafView', leafReq(key), c)).toEqual(await direct.call('getLeafView', leafReq(key), c));
    // Validation still happens (in the worker): a bad request is a bad_request, not a crash.
    await expect(w.call('openSession', { key: 42 }, c)).rejects.toMatchObject({ code: 'bad_request' });
    await expect(w.call('noSuchMethod', {}, c)).rejects.toBeInstanceOf(ApiError);
  });

  it('answers as JSON text written by the worker (serve mode sends it as it is): the same text as the answer serialized here', async () => {
    const { home, key, path } = homeWith(600);
    const w = await workerOn(home);
    const c = recorder('c1');
    const info = await w.call('openSession', { key }, c);
    expect(await w.callJson('openSession', { key }, c)).toBe(JSON.stringify(info));
    const req = leafReq(key);
    expect(await w.callJson('getLeafView', req, c)).toBe(JSON.stringify(await w.call('getLeafView', req, c)));
    // (The second series reuses the first one's scan: its work counts differ.)
    const series = JSON.parse((await w.callJson('getContextSeries', req, c)) ?? '') as ContextSeries;
    const again = (await w.call('getContextSeries', req, c)) as ContextSeries;
    expect({ ...series, work: null }).toEqual({ ...again, work: null });
    // Errors and cancellations are the same; subscriptions still map their ids here.
    await expect(w.callJson('openSession', { key: 42 }, c)).rejects.toMatchObject({ code: 'bad_request' });
    const aborted = new AbortController();
    aborted.abort();
    await expect(w.callJson('getLeafView', req, c, aborted.signal)).rejects.toMatchObject({ code: 'cancelled' });
    const sub = JSON.parse((await w.callJson('subscribe', { topic: 'session', key }, c)) ?? '') as {
      subscription: string;
    };
    appendEntry(path, 'after the subscription');
    await until(() => c.events.some((e) => e.type === 'session' && e.key === key), 'the appended entry');
    expect(JSON.parse((await w.callJson('unsubscribe', { subscription: sub.subscription }, c)) ?? '')).toEqual({});
  });

  it('pushes a session event to the client that subscribed, and to no other', async () => {
    const { home, key, path } = homeWith(300);
    const w = await workerOn(home);
    const follower = recorder('follower');
    const other = recorder('other');
    const { subscription } = (await w.call('subscribe', { topic: 'session', key }, follower)) as {
      subscription: string;
    };
    await w.call('getHome', {}, other);
    const id = appendEntry(path, 'one more directive');
    await until(
      () => follower.events.some((e) => e.type === 'session' && e.newIds.includes(id)),
      'the follower hears of the append',
    );
    expect(other.events).toEqual([]);
    // The client's own id unsubscribes; another client's cannot.
    await expect(w.call('unsubscribe', { subscription }, other)).rejects.toMatchObject({ code: 'not_found' });
    await w.call('unsubscribe', { subscription }, follower);
    const witness = recorder('witness');
    await w.call('subscribe', { topic: 'session', key }, witness);
    const id2 = appendEntry(path, 'and another');
    await until(
      () => witness.events.some((e) => e.type === 'session' && e.newIds.includes(id2)),
      'the witness hears of the second append',
    );
    expect(follower.events.some((e) => e.type === 'session' && e.newIds.includes(id2))).toBe(false);
  });

  it("scans the sessions it reads for secrets on a thread of its own, not the backend's", async () => {
    const { home, key, path } = homeWith(300);
    // A GitHub token's shape, built here so that no token is written whole in the source.
    appendEntry(path, `export GITHUB_TOKEN=ghp_${'Zq8fW2kLm4Xp9sRt'.repeat(3).slice(0, 36)}`);
    const w = await workerOn(home);
    const c = recorder('c1');
    await w.call('openSession', { key }, c);
    let s = (await w.call('getSecrets', { key }, c)) as SessionSecrets;
    for (let k = 0; k < 1500 && s.scanning; k++) {
      await new Promise((r) => setTimeout(r, 20));
      s = (await w.call('getSecrets', { key }, c)) as SessionSecrets;
    }
    expect(s).toMatchObject({ scanning: false, count: 1, kinds: { 'github-token': 1 } });
    const { secretScanThread } = await w.stats();
    expect(typeof secretScanThread).toBe('number');
  });

  it('fails a call pending when the worker is killed, restarts it, and resumes subscriptions', async () => {
    const { home, key } = homeWith(8000, 12);
    const w = await workerOn(home, {}, Infinity); // read whole before answering: the count is the file's
    const c = recorder('c1');
    await w.call('subscribe', { topic: 'library' }, c);
    const pending = w.call('openSession', { key }, c);
    await w.killWorker();
    await expect(pending).rejects.toThrow(/^the reader stopped: /);
    await expect(pending).rejects.toMatchObject({ code: 'internal' });
    // The next call is answered by a new worker.
    const info = (await w.call('openSession', { key }, c)) as { entryCount: number };
    expect(info.entryCount).toBe(8000);
    // The library subscription was taken up again: its client got the whole list to re-read.
    await until(() => c.events.some((e) => e.type === 'library' && e.changed.length === 1), 'a library reload');
  });

  it('tells every library subscriber of the secret survey setting, and a restarted worker keeps it', async () => {
    const { home } = homeWith(50);
    const w = await workerOn(home); // (started off: no `secretSurvey`)
    const c = recorder('c1');
    const other = recorder('other');
    await w.call('subscribe', { topic: 'library' }, other);
    expect(await w.call('setSecretSurvey', { on: true }, c)).toEqual({ on: true, kept: false });
    await until(() => other.events.some((e) => e.type === 'secretSurvey'), 'the subscriber hears it');
    expect(other.events.filter((e) => e.type === 'secretSurvey')).toEqual([
      { type: 'secretSurvey', survey: { on: true, kept: false } },
    ]);
    await w.killWorker();
    expect(await w.call('getSecretSurvey', {}, c)).toEqual({ on: true, kept: false });
    // Serve mode's socket asks for JSON text: the setting is remembered that way too.
    expect(JSON.parse((await w.callJson('setSecretSurvey', { on: false }, c)) ?? '')).toEqual({
      on: false,
      kept: false,
    });
    await w.killWorker();
    expect(await w.call('getSecretSurvey', {}, c)).toEqual({ on: false, kept: false });
  });

  it("passes the backend's every event to its subscribers: an edit of prices.json reaches them", async () => {
    const { home } = homeWith(20);
    const data = tempDir();
    const w = await WorkerBackend.create({ home, isDemo: false, label: 'test', lockPollMs: 0, userDataDir: data });
    open.push(w);
    const c = recorder('c1');
    await w.call('subscribe', { topic: 'library' }, c);
    const heard = (): boolean => c.events.some((e) => e.type === 'prices');
    // The watcher polls the file; a write before its first look is no change to it, so each round
    // writes a new size and waits for the event (or the next round).
    for (let k = 1; k <= 50 && !heard(); k++) {
      writeFileSync(join(data, 'prices.json'), JSON.stringify({ models: {} }) + ' '.repeat(k));
      for (let t = 0; t < 25 && !heard(); t++) await new Promise((r) => setTimeout(r, 20));
    }
    expect(heard()).toBe(true);
  });

  it('runs its after-work step once no call is pending, after the answers, and not while a new call runs', async () => {
    const { home, key } = homeWith(8000, 13);
    // A second session in the same home, for a second projection that nothing has cached.
    const g2 = generateSession({ seed: 14, entries: 8000, cwd: CWD, shape: 'uncompacted', branchChance: 0.01 });
    const key2 = `agents/vak/sessions/${cwdHash(CWD)}/${g2.sessionId}.jsonl`;
    appendFileSync(join(home, key2), g2.bytes);
    const log: string[] = [];
    let ran: () => void = () => {};
    const w = await workerOn(home, {
      afterWork: () => {
        log.push('after work');
        ran();
      },
    });
    const c = recorder('c1');
    /** Resolves when the step next runs (set before the calls that should lead to it). */
    const nextRun = (): Promise<void> => new Promise((r) => (ran = r));
    const answered = (label: string) => (): void => void log.push(label);
    const rows = (k: string, signal?: AbortSignal): Promise<unknown> =>
      w.call('getTreeRows', { key: k, start: 0, count: 10, foldAudit: false }, c, signal);

    // The only pending call cancelled (a long projection, posted): the step runs once its caller has the answer.
    let done = nextRun();
    await w.call('openSession', { key }, c);
    await done;
    log.length = 0;
    done = nextRun();
    const alone = new AbortController();
    const cancelled = w.call('getLeafView', leafReq(key), c, alone.signal);
    await new Promise((r) => setImmediate(r));
    alone.abort();
    await expect(cancelled).rejects.toThrow(CANCELLED);
    await done;
    expect(log).toEqual(['after work']);

    // A call cancelled while another runs: the step waits for the one still running.
    done = nextRun();
    await w.call('openSession', { key: key2 }, c);
    await done;
    log.length = 0;
    done = nextRun();
    const busy = w.call('getLeafView', leafReq(key2), c).then(answered('busy'));
    const ctl = new AbortController();
    const superseded = rows(key2, ctl.signal);
    await new Promise((r) => setImmediate(r)); // posted to the worker, which is still projecting
    ctl.abort();
    await expect(superseded).rejects.toThrow(CANCELLED);
    await busy;
    await done;
    expect(log).toEqual(['busy', 'after work']);

    // Three calls at once: the step runs once, after the last of them is answered.
    log.length = 0;
    done = nextRun();
    await Promise.all([
      w.call('openSession', { key }, c).then(answered('open')),
      rows(key).then(answered('rows')),
      w.call('getLeafView', leafReq(key), c).then(answered('leaf')),
    ]);
    await done;
    expect(log.slice(0, 3).sort()).toEqual(['leaf', 'open', 'rows']);
    expect(log.slice(3)).toEqual(['after work']);

    // A call asked as the last answer arrives (before the step's turn): the step waits for it.
    log.length = 0;
    done = nextRun();
    let next: Promise<unknown> = Promise.resolve();
    await w.call('getLeafView', leafReq(key), c).then(() => {
      log.push('first');
      next = rows(key).then(answered('second'));
    });
    await next;
    await done;
    expect(log).toEqual(['first', 'second', 'after work']);
  });

  it('drops a cancelled call before it runs, and answers the caller at once', async () => {
    const { home, key } = homeWith(8000, 13);
    const w = await workerOn(home);
    const c = recorder('c1');
    await w.call('openSession', { key }, c);
    const before = await w.stats();
    // A long synchronous projection keeps the worker busy while the next call is superseded.
    const busy = w.call('getLeafView', leafReq(key), c);
    const ctl = new AbortController();
    const superseded = w.call('getTreeRows', { key, start: 0, count: 10, foldAudit: false }, c, ctl.signal);
    await new Promise((r) => setImmediate(r)); // posted to the worker, which is still projecting
    ctl.abort();
    await expect(superseded).rejects.toThrow(CANCELLED);
    await busy;
    const after = await w.stats();
    expect(after.callsDroppedUnrun - before.callsDroppedUnrun).toBe(1);
    expect(after.callsRun - before.callsRun).toBe(1); // the projection only
  });

  it('stops a running projection when its caller aborts: the worker shapes fewer turns than the chain has', async () => {
    const { home, key } = homeWith(30_000, 16);
    const w = await workerOn(home, {}, Infinity); // read whole before answering: the count is the file's
    const c = recorder('c1');
    const info = (await w.call('openSession', { key }, c)) as { entryCount: number };
    expect(info.entryCount).toBeGreaterThanOrEqual(30_000);
    // The chain's turns, at a bytes_per_token no try below uses (so none of theirs is cached).
    const full = (await w.call(
      'getLeafView',
      { ...leafReq(key), plan: 'none', profile: { ...DEFAULT_PROFILE, bytes_per_token: 64 } },
      c,
    )) as { plan: { turns: number } };
    const turns = full.plan.turns;
    expect(turns).toBeGreaterThan(500);
    // Nothing here can see inside the busy worker, so abort after a growing delay until one
    // abort lands while the projection runs (each try at another bytes_per_token: no turn cached).
    // An abort that lands after the last turn, while the view is built, also ends the call
    // cancelled: such a try shows nothing about the projection, so the next one goes on.
    let stopped: { before: WorkerStats; after: WorkerStats } | null = null;
    for (let attempt = 0; attempt < 8 && !stopped; attempt++) {
      const req = {
        ...leafReq(key),
        plan: 'none' as const,
        profile: { ...DEFAULT_PROFILE, bytes_per_token: 2 + attempt },
      };
      const before = await w.stats();
      const ctl = new AbortController();
      const call = w.call('getLeafView', req, c, ctl.signal);
      setTimeout(() => ctl.abort(), 20 * 2 ** attempt);
      const outcome = await call.then(
        () => 'answered',
        (e: { code?: string }) => e.code,
      );
      const after = await statsOnceEnded(w, before);
      expect(['answered', 'cancelled']).toContain(outcome);
      const shaped = after.core.turnsProjected - before.core.turnsProjected;
      if (after.callsEndedCancelled > before.callsEndedCancelled && shaped < turns) stopped = { before, after };
    }
    // The worker saw the shared flag between turns and stopped part way through the chain.
    expect(stopped).not.toBeNull();
    if (!stopped) return;
    const { before, after } = stopped;
    expect(after.callsDroppedUnrun).toBe(before.callsDroppedUnrun);
    expect(after.core.turnsProjected - before.core.turnsProjected).toBeLessThan(turns);
  }, 120_000);

  it('ends alone when it runs out of heap: the call fails, the host lives on, the next call works', async () => {
    // Reading this session needs more than the worker's heap; starting one and listing the home
    // need well under it (at 20 MB a restarted worker sometimes ran out while it started).
    const { home, key } = homeWith(30_000, 14);
    const w = await workerOn(home, { resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const c = recorder('c1');
    const failed = w.call('getLeafView', leafReq(key), c);
    await expect(failed).rejects.toThrow(/^the reader stopped: .*memory/i);
    expect(await w.call('getHome', {}, c)).toMatchObject({ home });
  }, 120_000);

  it('runs from the TypeScript sources through the dev bootstrap (tsx, the bench) when nothing is built', async () => {
    // The other tests run the worker dist/cli built from these sources (the global setup names it).
    const { home, key } = homeWith(50, 19);
    const built = process.env[BUILT_THREADS_ENV];
    delete process.env[BUILT_THREADS_ENV];
    let w: WorkerBackend;
    try {
      w = await workerOn(home); // the thread copies the environment as it starts
    } finally {
      if (built !== undefined) process.env[BUILT_THREADS_ENV] = built;
    }
    const c = recorder('c1');
    const info = (await w.call('openSession', { key }, c)) as { entryCount: number };
    expect(info.entryCount).toBeGreaterThanOrEqual(50);
    expect(await w.call('getHome', {}, c)).toMatchObject({ home });
  });

  it('stops restarting a worker that keeps stopping, and says so on every call', async () => {
    const { home } = homeWith(50, 15);
    const w = await workerOn(home, { maxRestarts: 0 });
    const c = recorder('c1');
    await w.killWorker();
    await expect(w.call('getHome', {}, c)).rejects.toThrow(/^the reader stopped and was not restarted: /);
    await w.close(); // resolves: nothing left to close
  });
});
