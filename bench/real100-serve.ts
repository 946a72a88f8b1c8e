/**
 * The speed table in serve mode, at the API level: a real `vak-explorer serve` child process,
 * driven over its WebSocket like the renderer drives it (the UI's own drawing is `bench -- ui`).
 */
import { hash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshOpen, stopServe as stop, type FreshOpen } from './real100-reopen';
import { startApiServe } from './serve-child';
import type { ServeProcess } from '../src/test-support/serve-process';
import type { Real100 } from './real100-data';
import { leafRequest, selectionScript, type Call, type SelectionFigures } from './real100-selection';
import { WsApiClient } from './ws-api-client';

export interface ServeFigures {
  selection: SelectionFigures;
  /** Resident memory of the serving process with a client connected and no session open yet (MiB). */
  idleRssMB: number | null;
  /** Resident memory of the serving process after open + active leaf, and its peak over the script (MiB). */
  rssAfterOpenMB: number | null;
  peakRssMB: number | null;
  /**
   * The lowest resident memory over REST_MS with no request after the selecting (MiB): V8 gives a
   * heap's free space back only once its memory reducer has run, seconds after the work.
   */
  restRssMB: number | null;
  /**
   * How long after the selecting the process first held at most `withinMB` (the goal, 2× the
   * file), read every 250 ms over REST_MS (null: not within it, or off Linux).
   */
  withinGoalAfterMs: number | null;
  /** A second client opens the same file in the same process (the session is cached). */
  reopenSameProcessMs: number;
  /** Appended by "another process" → the session event at the client. */
  appendEventMs: number[];
  /** …→ visible: the event's delta patches the tree (no request); the new active leaf's first screen is asked. */
  appendVisibleMs: number[];
  /**
   * A new serve process opens the same file (sharing the first one's user data folder, so
   * it starts from the kept index and reads only what the appends added): open → first
   * rows, and the active leaf's panes.
   */
  freshOpen: FreshOpen;
}

const APPENDS = 10;
/** How long the rest reading watches the quiet process: V8's memory reducer waits 8 s, then checks twice. */
export const REST_MS = 30_000;
const now = (): number => performance.timeOrigin + performance.now();

/** A field of /proc/PID/status in MiB (Linux; null elsewhere). */
export function procMB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The lowest VmRSS of `pid` read every 250 ms over `ms`, and when it first read at most
 * `withinMB` (nulls off Linux).
 */
async function restingRss(
  pid: number | undefined,
  ms: number,
  withinMB: number,
): Promise<{ lowest: number | null; withinAfterMs: number | null }> {
  let lowest: number | null = null;
  let withinAfterMs: number | null = null;
  const start = performance.now();
  for (const end = start + ms; performance.now() < end;) {
    const v = procMB(pid, 'VmRSS');
    if (v !== null && (lowest === null || v < lowest)) lowest = v;
    if (v !== null && v <= withinMB && withinAfterMs === null) withinAfterMs = performance.now() - start;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { lowest, withinAfterMs };
}

const callOf =
  (c: WsApiClient): Call =>
  (method, req, signal) =>
    c.call(method, req, signal);

/** Appends valid, hash-linked user messages to `file` one at a time; each resolves with its id and write time. */
function appender(file: string): () => { id: string; writtenAt: number } {
  const text = readFileSync(file, 'utf8').replace(/\n$/, '');
  let last = text.slice(text.lastIndexOf('\n') + 1);
  let parent = (JSON.parse(last) as { id: string }).id;
  let k = 0;
  return () => {
    const id = `bench-real100-${process.pid}-${++k}`;
    const line = JSON.stringify({
      id,
      parent_id: parent,
      ts: new Date().toISOString(),
      prev_hash: hash('sha256', last, 'hex'),
      kind: 'message',
      message: { role: 'user', content: [{ type: 'text', text: `bench append ${k}` }] },
    });
    const writtenAt = now();
    appendFileSync(file, line + '\n');
    last = line;
    parent = id;
    return { id, writtenAt };
  };
}

async function appendFigures(
  c: WsApiClient,
  key: string,
  file: string,
): Promise<{ event: number[]; visible: number[] }> {
  await c.call('subscribe', { topic: 'session', key });
  const append = appender(file);
  const event: number[] = [];
  const visible: number[] = [];
  for (let k = 0; k < APPENDS; k++) {
    const { id, writtenAt } = append();
    const arrived = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`append ${k}: no session event within 30 s`)), 30_000);
      const off = c.onEvent((e, at) => {
        if (e.type === 'session' && e.key === key && e.newIds.includes(id)) {
          clearTimeout(timer);
          off();
          resolve(at);
        }
      });
    });
    event.push(arrived - writtenAt);
    // With the delta, the tree is patched from the event itself; the panes of the new active leaf
    // are one paged request (closed turns come from the backend's turn cache).
    await c.call('getLeafView', { ...leafRequest(key, null), pagedMessages: true }).catch(() => undefined);
    visible.push(now() - writtenAt);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { event, visible };
}

/** Runs the table in serve mode on a copy of the 100 MB home (appends change the copy only). */
export async function serveFigures(data: Real100, log: (s: string) => void): Promise<ServeFigures> {
  const root = mkdtempSync(join(tmpdir(), 'vak-real100-'));
  const home = join(root, 'home');
  cpSync(data.home, home, { recursive: true });
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  let server: ServeProcess | null = null;
  try {
    server = await startApiServe(home, { dataDir });
    const c = await WsApiClient.connect(server.url);
    await new Promise((r) => setTimeout(r, 500));
    const idleRssMB = procMB(server.child.pid, 'VmRSS');
    log('  serve mode: opening and selecting leaves …');
    const selection = await selectionScript(callOf(c), data.key, server.child.pid);
    const rssAfterOpenMB = procMB(server.child.pid, 'VmRSS');
    log('  serve mode: the process at rest …');
    const rest = await restingRss(server.child.pid, REST_MS, (2 * data.bytes) / (1 << 20));
    const c2 = await WsApiClient.connect(server.url);
    const t0 = performance.now();
    await c2.call('openSession', { key: data.key });
    await c2.call('getTreeRows', { key: data.key, start: 0, count: 256, foldAudit: false });
    const reopenSameProcessMs = performance.now() - t0;
    c2.close();
    log('  serve mode: appends …');
    const app = await appendFigures(c, data.key, join(home, data.key));
    const peakRssMB = procMB(server.child.pid, 'VmHWM');
    c.close();
    await stop(server.child);

    log('  serve mode: a fresh process opens the same file …');
    const fresh = await freshOpen(home, data.key, { dataDir });
    return {
      selection,
      idleRssMB,
      rssAfterOpenMB,
      peakRssMB,
      restRssMB: rest.lowest,
      withinGoalAfterMs: rest.withinAfterMs,
      reopenSameProcessMs,
      appendEventMs: app.event,
      appendVisibleMs: app.visible,
      freshOpen: fresh,
    };
  } finally {
    // Stopped here too when a step throws: a failed run leaves no serve process behind.
    if (server) await stop(server.child);
    rmSync(root, { recursive: true, force: true });
  }
}
