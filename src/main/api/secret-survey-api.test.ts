import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiEvent } from '../../shared/api';
import type { SecretCount, SecretCounts } from '../../shared/api-secrets';
import { useTempDir } from '../../test-support/temp-dir';
import { ApiError, type ApiClient } from './api-backend';
import { SETTINGS_FILE } from './app-settings';
import { ExplorerBackend } from './explorer-backend';
import { fixtureLedger } from '../secrets/fixtures/planted-secrets';

const tempDir = useTempDir('vak-survey-api-');
const client: ApiClient = { id: 'c1', push: () => undefined };
let backend: ExplorerBackend | null = null;
afterEach(async () => {
  await backend?.close();
  backend = null;
});

// A folder no other test file opens: the open scans' counts are the process's, and files share it.
const DIR = 'agents/vak/sessions/5e5e5e5e5e5e5e5e';
const A = `${DIR}/01a1f7f8-3000-7000-8000-00000000feed.jsonl`;
const B = `${DIR}/01a1f7f8-3000-7000-8000-00000000beef.jsonl`;

/** This home's counts: the open scans' counts are the process's, and other files' tests open theirs in it. */
async function counts(b: ExplorerBackend): Promise<SecretCount[]> {
  const all = ((await b.call('getSecretCounts', {}, client)) as { sessions: SecretCount[] }).sessions;
  return all.filter((c) => c.key.startsWith(`${DIR}/`));
}

/** A backend on `home` with the survey on, unwatched (the tests drive it). */
const surveyingBackend = (home: string): Promise<ExplorerBackend> =>
  ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0, secretSurvey: true });

describe('getSecretCounts with the survey on', () => {
  it('reports unopened sessions as surveyed with their counts, and an opened one once, as open', async () => {
    const home = tempDir();
    const f = fixtureLedger();
    mkdirSync(join(home, DIR), { recursive: true });
    writeFileSync(join(home, A), f.bytes);
    writeFileSync(join(home, B), f.bytes);
    backend = await surveyingBackend(home);
    const b = backend;
    const first = await counts(b);
    expect(first.map((c) => [c.key, c.state]).sort()).toEqual([
      [B, 'pending'],
      [A, 'pending'],
    ]);
    // (Asking every 400 ms leaves the survey the lulls it waits for.)
    const surveyed = await vi.waitFor(
      async () => {
        const c = await counts(b);
        if (!c.every((x) => x.state === 'surveyed')) throw new Error('still surveying');
        return c;
      },
      { timeout: 60_000, interval: 400 },
    );
    expect(surveyed.map((c) => c.count)).toEqual([30, 30]);

    await b.call('openSession', { key: A }, client);
    const after = await counts(b);
    expect(after.filter((c) => c.key === A)).toEqual([expect.objectContaining({ key: A, state: 'open' })]);
    expect(after.find((c) => c.key === B)).toMatchObject({ state: 'surveyed', count: 30 });
  }, 90_000);

  it('lists no unopened session when the survey is off', async () => {
    const home = tempDir();
    mkdirSync(join(home, DIR), { recursive: true });
    // (Not A: the open scans' counts are the process's, and A was opened above.)
    writeFileSync(join(home, B), fixtureLedger().bytes);
    backend = await ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
    expect((await counts(backend)).map((c) => c.key)).not.toContain(B);
  });
});

describe('the survey setting (getSecretSurvey, setSecretSurvey)', () => {
  function homeWithB(): string {
    const home = tempDir();
    mkdirSync(join(home, DIR), { recursive: true });
    writeFileSync(join(home, B), fixtureLedger().bytes);
    return home;
  }
  const all = async (b: ExplorerBackend): Promise<SecretCounts> =>
    (await b.call('getSecretCounts', {}, client)) as SecretCounts;

  it('turns the running survey off and on: every subscriber hears it, counts hide and come back', async () => {
    backend = await surveyingBackend(homeWithB());
    const b = backend;
    const heard: ApiEvent[] = [];
    const other: ApiClient = { id: 'c2', push: (e) => heard.push(e) };
    await b.call('subscribe', { topic: 'library' }, other);
    expect(await b.call('getSecretSurvey', {}, client)).toEqual({ on: true, kept: false });
    const surveyed = await vi.waitFor(
      async () => {
        const c = (await all(b)).sessions.find((x) => x.key === B);
        if (c?.state !== 'surveyed') throw new Error('still surveying');
        return c;
      },
      { timeout: 60_000, interval: 400 },
    );

    expect(await b.call('setSecretSurvey', { on: false }, client)).toEqual({ on: false, kept: false });
    const off = await all(b);
    expect(off.survey).toEqual({ on: false, kept: false });
    expect(off.sessions.map((c) => c.key)).not.toContain(B);
    expect(heard.filter((e) => e.type === 'secretSurvey')).toEqual([
      { type: 'secretSurvey', survey: { on: false, kept: false } },
    ]);
    // Idempotent: off again changes nothing and tells no one.
    expect(await b.call('setSecretSurvey', { on: false }, client)).toEqual({ on: false, kept: false });
    expect(heard.filter((e) => e.type === 'secretSurvey')).toHaveLength(1);

    expect(await b.call('setSecretSurvey', { on: true }, client)).toEqual({ on: true, kept: false });
    const on = await all(b);
    expect(on.survey.on).toBe(true);
    expect(on.sessions.find((c) => c.key === B)).toEqual(surveyed);
    expect(heard.filter((e) => e.type === 'secretSurvey').at(-1)).toEqual({
      type: 'secretSurvey',
      survey: { on: true, kept: false },
    });
  }, 90_000);

  it('refuses a setting that is not a boolean, naming the method', async () => {
    backend = await ExplorerBackend.create({ home: homeWithB(), isDemo: false, label: 'test', watch: false });
    for (const req of [{}, { on: 'off' }, { on: 1 }, { on: true, extra: 1 }]) {
      const e = await backend.call('setSecretSurvey', req, client).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect(e).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/setSecretSurvey/) as string });
    }
    expect(await backend.call('getSecretSurvey', {}, client)).toEqual({ on: false, kept: false });
  });

  it('the desktop app keeps the choice across launches; serve mode keeps none', async () => {
    const home = homeWithB();
    const data = tempDir();
    const app = { home, isDemo: false, label: 'test', watch: false, lockPollMs: 0, userDataDir: data };
    backend = await ExplorerBackend.create({ ...app, secretSurvey: true, keepSettings: true });
    expect(await backend.call('getSecretSurvey', {}, client)).toEqual({ on: true, kept: true });
    await backend.call('setSecretSurvey', { on: false }, client);
    expect(JSON.parse(readFileSync(join(data, SETTINGS_FILE), 'utf8'))).toEqual({ secretSurvey: false });
    await backend.close();

    // The next launch asks for it on, as the app always does: the kept choice wins.
    backend = await ExplorerBackend.create({ ...app, secretSurvey: true, keepSettings: true });
    expect(await backend.call('getSecretSurvey', {}, client)).toEqual({ on: false, kept: true });
    expect((await all(backend)).sessions.map((c) => c.key)).not.toContain(B);
    await backend.call('setSecretSurvey', { on: true }, client);
    expect(JSON.parse(readFileSync(join(data, SETTINGS_FILE), 'utf8'))).toEqual({ secretSurvey: true });
    await backend.close();

    // Serve mode: its flag sets the start, a change holds for the running server only.
    const served = tempDir();
    backend = await ExplorerBackend.create({ ...app, userDataDir: served, secretSurvey: false });
    expect(await backend.call('getSecretSurvey', {}, client)).toEqual({ on: false, kept: false });
    await backend.call('setSecretSurvey', { on: true }, client);
    expect(existsSync(join(served, SETTINGS_FILE))).toBe(false);
  });

  it('a damaged settings file is no choice made: the default holds, and the next change mends it', async () => {
    const data = tempDir();
    writeFileSync(join(data, SETTINGS_FILE), '{"secretSurvey": tru');
    const app = { home: homeWithB(), isDemo: false, label: 'test', watch: false, userDataDir: data };
    backend = await ExplorerBackend.create({ ...app, secretSurvey: true, keepSettings: true });
    expect(await backend.call('getSecretSurvey', {}, client)).toEqual({ on: true, kept: true });
    await backend.call('setSecretSurvey', { on: false }, client);
    expect(JSON.parse(readFileSync(join(data, SETTINGS_FILE), 'utf8'))).toEqual({ secretSurvey: false });
  });
});
