import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, SessionSummary } from '../../shared/api';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import type { ApiClient } from '../api/api-backend';
import { WorkerBackend } from './worker-backend';

const tempDir = useTempDir('vak-open-worker-');
const open: WorkerBackend[] = [];
afterEach(async () => {
  for (const b of open.splice(0)) await b.close();
});

describe('files opened by path, through the worker', () => {
  it('opens at run time, pushes the outcome, and keeps its key when the reader restarts', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'home'));
    const file = join(dir, 'colleague.jsonl');
    copyFileSync(join(FIXTURES, 'linear.jsonl'), file);
    const w = await WorkerBackend.create({
      home: join(dir, 'home'),
      isDemo: false,
      label: 'test',
      lockPollMs: 0,
      userDataDir: join(dir, 'data'),
      openByPath: true,
    });
    open.push(w);
    const events: ApiEvent[] = [];
    const c: ApiClient = { id: 'c1', push: (e) => events.push(e) };
    await w.call('subscribe', { topic: 'library' }, c);
    const outcomes = await w.openFiles([file, join(dir, 'home')]);
    expect(outcomes).toEqual([
      { path: file, key: 'opened/0.jsonl' },
      { path: join(dir, 'home'), problem: `${join(dir, 'home')} is a directory, not a regular file; it is not read` },
    ]);
    await expect.poll(() => events.find((e) => e.type === 'opened')).toEqual({ type: 'opened', outcomes });

    await w.killWorker();
    await expect
      .poll(async () => ((await w.call('listSessions', {}, c)) as SessionSummary[]).map((s) => [s.key, s.openedPath]))
      .toEqual([['opened/0.jsonl', file]]);
  });
});
