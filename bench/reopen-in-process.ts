/**
 * The reopen's backend alone, in a fresh process, from the kept index: the calls a reopen's page
 * makes before both panes are drawn (openSession, the active leaf's page of tree rows, its leaf
 * view), each timed on a backend created in this process as the worker creates it.
 *   node bin/run-ts.mjs bench/reopen-in-process.ts keep DIR    (reads whole, keeps the index in DIR)
 *   node bin/run-ts.mjs bench/reopen-in-process.ts open DIR    (one cold reopen, one JSON line)
 *   node bin/run-ts.mjs bench/reopen-in-process.ts ahead DIR   (the same after the worker's read ahead)
 *   node bin/run-ts.mjs bench/reopen-in-process.ts warm DIR    (as the worker starts: its warm-up, then the read ahead)
 * Run `open` in a new process each time (cold code is part of what it measures). A third argument
 * names another home of bench/.data (`eye-1g-home.json`); `openCpuMs` is the process's CPU time
 * (every thread) during the open, less moved by other processes than its wall time.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionInfo } from '../src/shared/api';
import { warmUp } from '../src/main/worker/warm-up';
import { real100InProcess } from './real100-in-process';

const [mode, dir, meta] = process.argv.slice(2);
const { backend, client, key } = await real100InProcess({ userDataDir: dir }, meta);
const call = (m: string, req: unknown): Promise<unknown> => backend.call(m, req, client);
const LEAF = {
  leaf: null,
  plan: 'auto',
  profile: { window: 200000, reserve: 16000, bytes_per_token: 4 },
  overrides: {},
  pagedMessages: true,
  screen: { chainRows: 40, messages: 30 },
};
const lap = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const v = await f();
  return [v, performance.now() - t0];
};
if (mode === 'keep') {
  await call('openSession', { key });
  // The index is kept once the read and its check are done: wait for the file.
  const kept = join(dir, 'index-cache');
  while (!(existsSync(kept) && readdirSync(kept).some((f) => f.endsWith('.vkix')))) {
    await new Promise((r) => setTimeout(r, 200));
  }
  // A leaf shown: its closed turns' costs are kept again at the close, as a user's session would be.
  await call('getLeafView', { key, ...LEAF });
  await backend.close();
  console.log('kept');
} else {
  // `ahead`: the kept index read ahead first, as the worker does once it is ready (not timed).
  // `warm`: the worker's warm-up first (the scan threads, their buffers), then the read ahead; the
  // open comes once the scan thread's own warm-up had the time a user's click leaves it.
  if (mode === 'warm') warmUp();
  if (mode === 'ahead' || mode === 'warm') await backend.readKeptIndexAhead(() => true);
  if (mode === 'warm') await new Promise((r) => setTimeout(r, 1000));
  const cpu0 = process.cpuUsage();
  const [info, openMs] = await lap(() => call('openSession', { key }) as Promise<SessionInfo>);
  const cpu = process.cpuUsage(cpu0);
  const openCpuMs = (cpu.user + cpu.system) / 1000;
  const row = info.activeLeafRows?.row ?? 0;
  const start = Math.max(0, Math.floor(row / 256) * 256);
  const [, rowsMs] = await lap(() => call('getTreeRows', { key, start, count: 256, foldAudit: false }));
  const [, leafMs] = await lap(() => call('getLeafView', { key, ...LEAF }));
  console.log(JSON.stringify({ openMs, openCpuMs, rowsMs, leafMs, resumed: info.entryCount }));
  await backend.close();
}
