/**
 * An export as the app reads it: begun with `beginExport`, then read chunk by chunk with
 * `readExport` to its end. Tests use it for the whole text of an export and its begin reply.
 */
import type { ExportBeginRequest, ExportChunk, ExportStarted } from '../shared/api-features';

/** One API call: a backend's `call` with its client bound, or a socket's reply unwrapped (`viaRpc`). */
export type ExportCall = (method: 'beginExport' | 'readExport', req: unknown) => Promise<unknown>;

/** What an export read whole gives: the begin reply, the text, and how many chunks it took. */
export interface ReadExport extends ExportStarted {
  text: string;
  chunks: number;
}

export async function readWholeExport(call: ExportCall, req: ExportBeginRequest): Promise<ReadExport> {
  const started = (await call('beginExport', req)) as ExportStarted;
  const parts: string[] = [];
  for (;;) {
    const chunk = (await call('readExport', { exportId: started.exportId })) as ExportChunk;
    parts.push(chunk.text);
    if (chunk.done) return { ...started, text: parts.join(''), chunks: parts.length };
  }
}

/** A socket client's calls (`rpc` of the server's test helpers), each failing reply thrown. */
export function viaRpc(api: { call(method: string, req: unknown): Promise<unknown> }): ExportCall {
  return async (method, req) => {
    const reply = (await api.call(method, req)) as { ok: boolean; res?: unknown; error?: unknown };
    if (!reply.ok) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.res;
  };
}
