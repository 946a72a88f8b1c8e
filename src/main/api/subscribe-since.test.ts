/**
 * A subscription that names what its open showed (`since`: serve mode's early answers bring the
 * open over HTTP, the subscription follows on the socket), while the session's first read runs in
 * steps: the steps announced in between come in the subscriber's next event, as one delta from
 * where it stood; anything else it missed is told as 'reloaded'.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, SessionInfo } from '../../shared/api';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { RecordingClient } from '../../test-support/recording-client';
import { useTempDir } from '../../test-support/temp-dir';
import { testBackendOptions } from '../../test-support/test-backend';
import { ExplorerBackend } from './explorer-backend';

const tmp = useTempDir('vak-since-');
const KEY = 'agents/vak/sessions/h/s.jsonl';
const backends: ExplorerBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close();
});

type SessionEvent = Extract<ApiEvent, { type: 'session' }>;
const isSession = (e: ApiEvent): e is SessionEvent => e.type === 'session';

/**
 * A backend reading a branching session in 32 KiB steps; `early` opened it (as the early answers
 * do, for another connection) and `watcher`, subscribed from the start, heard `steps` steps since.
 */
async function openedEarly(
  steps: number,
): Promise<{ b: ExplorerBackend; early: SessionInfo; watcher: RecordingClient }> {
  const g = generateSession({ seed: 8, bytes: 900_000, cwd: '/home/ana/projects/vak', branchChance: 0.08 });
  const home = join(tmp(), 'home');
  mkdirSync(join(home, 'agents/vak/sessions/h'), { recursive: true });
  writeFileSync(join(home, KEY), g.bytes);
  const b = await ExplorerBackend.create(testBackendOptions(home, { firstReadBytes: 32 << 10 }));
  backends.push(b);
  const watcher = new RecordingClient('watcher');
  await b.call('subscribe', { topic: 'session', key: KEY }, watcher);
  const early = (await b.call('openSession', { key: KEY }, new RecordingClient('http'))) as SessionInfo;
  expect(early.reading).not.toBeNull();
  let heard = 0;
  await watcher.seenOrNext((e) => isSession(e) && e.entryCount > early.entryCount && ++heard >= steps);
  return { b, early, watcher };
}

describe('a subscription that names what an open showed (since), while a first read runs', () => {
  it('hears the steps it missed in its next event, from where it stood: nothing lost, nothing twice', async () => {
    const { b, early, watcher } = await openedEarly(2);
    const page = new RecordingClient('page');
    const since = { generation: early.generation, entryCount: early.entryCount, reading: true };
    // Steps were announced after that open: the page missed them.
    expect(b.cache.peek(KEY)?.announced).toBeGreaterThan(early.entryCount);
    await b.call('subscribe', { topic: 'session', key: KEY, since }, page);
    const end = (await page.seenOrNext((e) => isSession(e) && e.reading === null)) as SessionEvent;
    const heard = page.events.filter(isSession);
    expect(heard.map((e) => e.change)).toEqual(heard.map(() => 'appended'));
    // One run of deltas from the early open's count to the end, each starting where the last ended.
    let at = early.entryCount;
    let branchPoints = early.branchPoints;
    for (const e of heard) {
      expect(e.delta?.firstNewIndex).toBe(at);
      at += e.delta?.newEntries ?? NaN;
      branchPoints += e.delta?.branchPointsAdded ?? NaN;
    }
    const whole = (await b.call('openSession', { key: KEY }, page)) as SessionInfo;
    expect(at).toBe(whole.entryCount);
    expect(branchPoints).toBe(whole.branchPoints);
    expect(end.info).toMatchObject({ entryCount: whole.entryCount, branchPoints: whole.branchPoints });
    // The follower from the start heard the same end, in its own steps.
    expect(watcher.events.filter(isSession).at(-1)).toMatchObject({ reading: null, entryCount: whole.entryCount });
  });

  it('is told to read again when what it showed is another reading, or the read ended since', async () => {
    const { b, early } = await openedEarly(1);
    const other = new RecordingClient('other');
    const since = { generation: early.generation + 1000, entryCount: early.entryCount, reading: true };
    await b.call('subscribe', { topic: 'session', key: KEY, since }, other);
    expect(other.events.filter(isSession)[0]).toMatchObject({ change: 'reloaded' });

    const leafAsk = {
      key: KEY,
      leaf: null,
      plan: 'auto',
      profile: DEFAULT_PROFILE,
      overrides: {},
      pagedMessages: true,
    };
    await b.call('getLeafView', leafAsk, new RecordingClient('waits'));
    await other.seenOrNext((e) => isSession(e) && e.reading === null);
    const late = new RecordingClient('late');
    await b.call('subscribe', { topic: 'session', key: KEY, since: { ...since, generation: early.generation } }, late);
    expect(late.events.filter(isSession)[0]).toMatchObject({ change: 'reloaded' });
    // Standing where the session is, read whole: nothing to tell.
    const now = (await b.call('openSession', { key: KEY }, late)) as SessionInfo;
    const current = new RecordingClient('current');
    const at = { generation: now.generation, entryCount: now.entryCount, reading: false };
    await b.call('subscribe', { topic: 'session', key: KEY, since: at }, current);
    expect(current.events.filter(isSession)).toEqual([]);
  });
});
