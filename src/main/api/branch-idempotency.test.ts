import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BranchResult } from '../../shared/api';
import { useTempDir } from '../../test-support/temp-dir';
import { FIXTURES } from '../../test-support/fixtures';
import { ApiError, type ApiClient } from './api-backend';
import { BranchIdempotency } from './branch-idempotency';
import { ExplorerBackend } from './explorer-backend';
import { makeWritable } from '../../test-support/make-writable';

const KEY = 'agents/vak/sessions/70929a3c84065db2/01a1f7f8-3000-7bce-9f84-9a13f02868af.jsonl';
const VERIFY = JSON.parse(readFileSync(join(FIXTURES, 'demo-home.verify.json'), 'utf8')) as Record<
  string,
  { active_leaf: string }
>;
const PARENT = VERIFY[KEY].active_leaf;
const client: ApiClient = { id: 'idem', push: () => undefined };

const tempDir = useTempDir('vak-idem-');
let home: string;
let backend: ExplorerBackend;
let holder: ChildProcess | null = null;

/** Lines of the ledger, counted from its bytes. */
const lineCount = (): number => readFileSync(join(home, KEY), 'utf8').split('\n').length - 1;

const branch = (text: string, idempotencyKey: string, parentId = PARENT): Promise<BranchResult> =>
  backend.call('branch', { key: KEY, parentId, text, idempotencyKey }, client) as Promise<BranchResult>;

beforeEach(async () => {
  home = join(tempDir(), 'home');
  cpSync(join(FIXTURES, 'demo-home'), home, { recursive: true });
  makeWritable(home);
  backend = await ExplorerBackend.create({ home, isDemo: false, label: 'test', watch: false, lockPollMs: 0 });
});

afterEach(async () => {
  if (holder?.pid) {
    try {
      process.kill(-holder.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  holder = null;
  await backend.close();
});

describe('branch is appended at most once per idempotency key', () => {
  it('answers a repeat of the same key with the first result and appends nothing more', async () => {
    const before = lineCount();
    const key = randomUUID();
    const first = await branch('try another way', key);
    const again = await branch('try another way', key);
    expect(again).toEqual(first);
    expect(lineCount()).toBe(before + 1);
    // Another submission (another key) is another branch.
    const other = await branch('try another way', randomUUID());
    expect(other.id).not.toBe(first.id);
    expect(lineCount()).toBe(before + 2);
  });

  it('appends once when the same key arrives concurrently', async () => {
    const before = lineCount();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 8 }, () => branch('at once', key)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    for (const r of results) expect(r).toEqual(results[0]);
    expect(lineCount()).toBe(before + 1);
  });

  it('refuses a key reused for another directive, writing nothing', async () => {
    const key = randomUUID();
    await branch('first', key);
    const before = lineCount();
    const e = await branch('second', key).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('bad_request');
    expect((e as ApiError).message).toMatch(/already used/);
    expect(lineCount()).toBe(before);
  });

  it('refuses a branch without a UUID idempotency key', async () => {
    const before = lineCount();
    for (const bad of [{}, { idempotencyKey: 'not-a-uuid' }]) {
      const e = await backend
        .call('branch', { key: KEY, parentId: PARENT, text: 'x', ...bad }, client)
        .catch((x: unknown) => x);
      expect((e as ApiError).code).toBe('bad_request');
      expect((e as ApiError).message).toMatch(/idempotencyKey/);
    }
    expect(lineCount()).toBe(before);
  });

  it('lets the same submission try again after a refusal that wrote nothing (a held lock)', async () => {
    const path = join(home, KEY);
    const before = lineCount();
    const key = randomUUID();
    holder = spawn('flock', ['-n', path, '-c', 'echo held; sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const stdout = holder.stdout;
    await new Promise<void>((resolve) => stdout?.once('data', () => resolve()));
    const err = await branch('when free', key).catch((x: unknown) => x);
    expect(lineCount()).toBe(before);
    expect((err as ApiError).code).toBe('locked');
    process.kill(-(holder.pid ?? 0), 'SIGKILL');
    holder = null;
    let r: BranchResult | null = null;
    for (let k = 0; k < 250 && !r; k++) {
      r = await branch('when free', key).catch(() => null);
      if (!r) await new Promise((res) => setTimeout(res, 20));
    }
    expect(r?.parentId).toBe(PARENT);
    expect(lineCount()).toBe(before + 1);
  });
});

describe('BranchIdempotency', () => {
  const req = (n: number) => ({ key: KEY, parentId: 'p', text: `t${n}`, idempotencyKey: `k${n}` });
  const result = (n: number): BranchResult => ({ id: `id${n}`, parentId: 'p', line: n, offset: n });

  it('compares keys as sent: ABC and abc are two keys; the same key twice runs once', async () => {
    const memo = new BranchIdempotency();
    let appended = 0;
    const append = (n: number) => async (): Promise<BranchResult> => {
      appended++;
      return result(n);
    };
    const same = { key: KEY, parentId: 'p', text: 't' };
    expect(await memo.run({ ...same, idempotencyKey: 'ABC' }, append(1))).toEqual(result(1));
    expect(await memo.run({ ...same, idempotencyKey: 'abc' }, append(2))).toEqual(result(2));
    expect(await memo.run({ ...same, idempotencyKey: 'ABC' }, append(3))).toEqual(result(1));
    expect(appended).toBe(2);
  });

  it('stays bounded, forgetting the oldest settled keys first', async () => {
    const memo = new BranchIdempotency(4);
    let appended = 0;
    for (let n = 0; n < 10; n++) {
      await memo.run(req(n), async () => {
        appended++;
        return result(n);
      });
    }
    expect(memo.size).toBe(4);
    expect(appended).toBe(10);
    // The newest is still remembered; the oldest was forgotten (and would run again).
    expect(await memo.run(req(9), async () => result(99))).toEqual(result(9));
    expect(await memo.run(req(0), async () => result(100))).toEqual(result(100));
  });

  it('keeps the key after a failure whose outcome is unknown (an internal error)', async () => {
    const memo = new BranchIdempotency();
    const boom = new ApiError('internal', 'short write');
    await expect(memo.run(req(1), () => Promise.reject(boom))).rejects.toBe(boom);
    let ranAgain = false;
    await expect(
      memo.run(req(1), async () => {
        ranAgain = true;
        return result(1);
      }),
    ).rejects.toBe(boom);
    expect(ranAgain).toBe(false);
  });
});
