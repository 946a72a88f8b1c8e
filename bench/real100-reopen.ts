/**
 * The "second open, fresh process": a new serve process opens a file another one opened
 * before (with the kept index in their shared user data folder, the reopen reads only what was
 * appended since). Runs alone too: node bin/run-ts.mjs bench/real100-reopen.ts
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { prepareReal100 } from './real100-data';
import { leafRequest } from './real100-selection';
import { startApiServe, type ApiServeOptions } from './serve-child';
import { WsApiClient } from './ws-api-client';

export interface FreshOpen {
  /** openSession + the first 256 tree rows. */
  firstRowsMs: number;
  /** The active leaf's first screen of panes, after that. */
  activeLeafMs: number;
}

/** Stops a serve child the way a user does (SIGTERM), SIGKILL after 5 s. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** One serve process on `home` (user data in `opts.dataDir`) opens `key`: the times, then it stops. */
export async function freshOpen(home: string, key: string, opts: ApiServeOptions): Promise<FreshOpen> {
  const server = await startApiServe(home, opts);
  try {
    const c = await WsApiClient.connect(server.url);
    const t1 = performance.now();
    await c.call('openSession', { key });
    await c.call('getTreeRows', { key, start: 0, count: 256, foldAudit: false });
    const firstRowsMs = performance.now() - t1;
    const t2 = performance.now();
    await c.call('getLeafView', { ...leafRequest(key, null), pagedMessages: true }).catch(() => undefined);
    const activeLeafMs = performance.now() - t2;
    c.close();
    return { firstRowsMs, activeLeafMs };
  } finally {
    await stopServe(server.child);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const data = prepareReal100((l) => process.stdout.write(l + '\n'));
  const root = mkdtempSync(join(tmpdir(), 'vak-real100-reopen-'));
  try {
    const home = join(root, 'home');
    cpSync(data.home, home, { recursive: true });
    const dataDir = join(root, 'data');
    mkdirSync(dataDir);
    const f = (o: FreshOpen): string =>
      `first rows ${o.firstRowsMs.toFixed(0)} ms, active leaf's panes ${o.activeLeafMs.toFixed(0)} ms`;
    const opts = { dataDir, fromSource: true };
    process.stdout.write(`first open, fresh process:  ${f(await freshOpen(home, data.key, opts))}\n`);
    process.stdout.write(`second open, fresh process: ${f(await freshOpen(home, data.key, opts))}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
