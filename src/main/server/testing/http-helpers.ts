/** Raw HTTP and WebSocket helpers for the loopback server's tests (no fetch: it would normalise paths and Host). */
import { request, type IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Sends one request with the path exactly as given and a Host header of our choosing. */
export function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Exchanges the token for the session cookie; returns the `name=value` to send back. */
export async function signIn(port: number, token: string): Promise<string> {
  const r = await rawRequest(port, `/?token=${encodeURIComponent(token)}`);
  const set = r.headers['set-cookie']?.[0];
  if (r.status !== 303 || !set) throw new Error(`sign-in failed: ${r.status}`);
  return set.split(';')[0];
}

export type WsOutcome = { ws: WebSocket; status?: undefined } | { status: number; ws?: undefined };

/** Opens the API socket; resolves with the socket, or with the HTTP status that refused it. */
export function openSocket(
  port: number,
  opts: { cookie?: string; origin?: string | null; host?: string; path?: string } = {},
): Promise<WsOutcome> {
  const host = opts.host ?? `127.0.0.1:${port}`;
  const headers: Record<string, string> = { Host: host };
  if (opts.cookie) headers.Cookie = opts.cookie;
  const origin = opts.origin === undefined ? `http://${host}` : opts.origin;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${opts.path ?? '/api/ws'}`, {
      headers,
      ...(origin === null ? {} : { origin }),
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      req.destroy();
    });
    ws.on('error', (e) => reject(e));
  });
}

/** Collects a socket's JSON frames; `next()` waits for the next one. */
/** A signed-in WebSocket on a server (throws if the upgrade is refused). */
export async function connect(s: { port: number; token: string }): Promise<WebSocket> {
  const r = await openSocket(s.port, { cookie: await signIn(s.port, s.token) });
  if (!r.ws) throw new Error(`refused: ${r.status}`);
  return r.ws;
}

export function frames(ws: WebSocket): { next(): Promise<Record<string, unknown>> } {
  const queue: Record<string, unknown>[] = [];
  const waiting: ((f: Record<string, unknown>) => void)[] = [];
  ws.on('message', (data) => {
    const f = JSON.parse(String(data)) as Record<string, unknown>;
    const w = waiting.shift();
    if (w) w(f);
    else queue.push(f);
  });
  return {
    next: () => {
      const f = queue.shift();
      return f ? Promise.resolve(f) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

export type ReplyFrame =
  { id: number; ok: true; res: unknown } | { id: number; ok: false; error: { code: string; message: string } };

/** Request/reply over a raw API socket: `call` sends a frame and resolves with its reply (matched by id). */
export function rpc(ws: WebSocket): { call(method: string, req: unknown): Promise<ReplyFrame>; sent(): number } {
  let nextId = 1;
  const waiting = new Map<number, (f: ReplyFrame) => void>();
  ws.on('message', (data) => {
    const f = JSON.parse(String(data)) as ReplyFrame | { event: unknown };
    if ('id' in f) waiting.get(f.id)?.(f);
  });
  return {
    call: (method, req) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, method, req }));
      }),
    sent: () => nextId - 1,
  };
}
