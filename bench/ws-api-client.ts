/**
 * The serve mode's API as a bench sees it: the printed URL's token is redeemed for the
 * session cookie, then requests go over `/api/ws` exactly as the renderer sends them.
 */
import { WebSocket } from 'ws';
import type { ApiEvent, ApiMethod, ApiRequest, ApiResponse } from '../src/shared/api';

interface Pending {
  resolve(v: { res: unknown; bytes: number }): void;
  reject(e: Error): void;
}

/** One WebSocket client of a running `vak-explorer serve`. */
export class WsApiClient {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(e: ApiEvent, at: number) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const at = performance.timeOrigin + performance.now();
      const text = data.toString('utf8');
      const frame = JSON.parse(text) as
        | { id: number; ok: true; res: unknown }
        | { id: number; ok: false; error: { code: string; message: string } }
        | { event: ApiEvent };
      if ('event' in frame) {
        for (const l of this.listeners) l(frame.event, at);
        return;
      }
      const p = this.pending.get(frame.id);
      if (!p) return;
      this.pending.delete(frame.id);
      if (frame.ok) p.resolve({ res: frame.res, bytes: data.length });
      else p.reject(new Error(`${frame.error.code}: ${frame.error.message}`));
    });
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('socket closed'));
      this.pending.clear();
    });
  }

  /** Signs in with the printed URL (token → cookie) and opens the API socket. */
  static async connect(url: string): Promise<WsApiClient> {
    const r = await fetch(url, { redirect: 'manual' });
    const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0];
    if (!cookie) throw new Error(`no session cookie from ${url} (status ${r.status})`);
    const origin = new URL(url).origin;
    // Whole projections of a 100 MB session are large frames: take them (the renderer does).
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/api/ws`, {
      headers: { Cookie: cookie, Origin: origin },
      maxPayload: 2 ** 31 - 1,
      perMessageDeflate: false,
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new WsApiClient(ws);
  }

  /** One request; resolves with the answer and the frame's size in bytes. Aborting `signal` sends `{cancel: id}`. */
  call<M extends ApiMethod>(
    method: M,
    req: ApiRequest<M>,
    signal?: AbortSignal,
  ): Promise<{ res: ApiResponse<M>; bytes: number }> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject });
      this.ws.send(JSON.stringify({ id, method, req }));
      signal?.addEventListener('abort', () => this.ws.send(JSON.stringify({ cancel: id })), { once: true });
    });
  }

  /** Listens to pushed events (with their arrival time, ms since the epoch); returns an unsubscribe. */
  onEvent(l: (e: ApiEvent, at: number) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  close(): void {
    this.ws.close();
  }
}
