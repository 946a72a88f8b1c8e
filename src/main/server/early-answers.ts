/**
 * Serve mode's early answers (`POST /api/early`, api-early.ts): the read-only requests a page
 * opened on a session asks first, answered in one response before its API socket is open. Each
 * request goes through the same dispatch as a socket frame (the backend validates it against the
 * API's schemas and runs it on the worker); the loopback server has already checked the Host and
 * the session cookie, and this adds the socket's Origin check, a body limit, and the one-reply
 * limit per answer. Only the methods in EARLY_ANSWER_METHODS are answered; anything else
 * refuses the whole request before any of it runs. While the session's first read is under way
 * (a big session the server has not read yet), what would wait for its end is refused (WAITS_FOR_READ).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiReply } from '../../shared/api';
import { isEarlyAnswerMethod, MAX_EARLY_ASKS, MAX_EARLY_BODY_BYTES, type EarlyAsk } from '../../shared/api-early';
import { answersJson, errorPayload, type ApiBackend, type ApiClient } from '../api/api-backend';
import { MAX_REPLY_BYTES } from './api-socket';
import { isOwnOrigin } from './host-check';

let requests = 0;

/** Asks that, while a session's first read is under way, wait for its end (an entry or the active leaf past what was read). */
const WAITS_FOR_READ: ReadonlySet<EarlyAsk['method']> = new Set(['findRow', 'getLeafView']);

const NOT_WHILE_READING = JSON.stringify({
  ok: false,
  error: { code: 'refused', message: 'the session is still being read: ask on the socket' },
} satisfies ApiReply);

/** Whether the open's reply (JSON text) is an answer for a session read to its end. */
function isReadWhole(reply: string | null): boolean {
  if (reply === null) return false;
  try {
    const r = JSON.parse(reply) as ApiReply;
    return r.ok && (r.res as { reading?: unknown } | null)?.reading === null;
  } catch {
    return false;
  }
}

type Send = (status: number, body: string, headers?: Record<string, string>) => void;

/** Answers one early-answers POST (Host and cookie already checked by the caller). */
export async function serveEarlyAnswers(
  backend: ApiBackend,
  port: number,
  req: IncomingMessage,
  res: ServerResponse,
  send: Send,
): Promise<void> {
  if (req.method !== 'POST') return send(405, 'method not allowed\n', { Allow: 'POST' });
  // As the socket's upgrade: only a page of our own origin (a fetch's POST always sends Origin).
  if (!isOwnOrigin(req.headers.origin, port)) return send(403, 'foreign origin\n');
  if (!/^application\/json(\s*;|$)/i.test(req.headers['content-type'] ?? '')) {
    return send(415, 'send application/json\n');
  }
  const body = await readBody(req, MAX_EARLY_BODY_BYTES);
  if (body === null) return send(413, `the body is over ${MAX_EARLY_BODY_BYTES} bytes\n`);
  const asks = parseAsks(body);
  if (typeof asks === 'string') return send(400, `${asks}\n`);

  // No pushes reach an HTTP response: what a call would push (a first read's progress) is dropped;
  // the page's socket subscribes for the session's events.
  const client: ApiClient = { id: `early-${++requests}`, push: () => undefined };
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  try {
    const answer = (a: EarlyAsk): Promise<string> => answerText(backend, a, client, controller.signal);
    // The open goes first; an ask that waits for the end of a first read is answered only once the
    // open says no read is under way: one HTTP response waits for every answer, so the rows and
    // the open would wait for the whole file too, and a first read's progress has no connection
    // to go to. Refused, it is asked on the page's socket, as on a first open.
    const openAsk = asks.find((a) => a.method === 'openSession');
    const opened = openAsk ? answer(openAsk) : null;
    const answers = await Promise.all(
      asks.map((a) => {
        if (a === openAsk && opened) return opened;
        if (!WAITS_FOR_READ.has(a.method)) return answer(a);
        return (opened ?? Promise.resolve(null)).then((info) => (isReadWhole(info) ? answer(a) : NOT_WHILE_READING));
      }),
    );
    if (controller.signal.aborted) return;
    send(200, `{"answers":[${answers.join(',')}]}`, {
      'Content-Type': 'application/json; charset=utf-8',
    });
  } finally {
    backend.disconnect(client);
  }
}

/** One ask's reply as JSON text: the worker's JSON as it wrote it, or an error reply. */
async function answerText(
  backend: ApiBackend,
  { method, req }: EarlyAsk,
  client: ApiClient,
  signal: AbortSignal,
): Promise<string> {
  try {
    let json: string | undefined;
    if (answersJson(backend)) json = await backend.callJson(method, req, client, signal);
    else json = JSON.stringify(await backend.call(method, req, client, signal));
    if (json === undefined) return JSON.stringify({ ok: true, res: null } satisfies ApiReply);
    const bytes = Buffer.byteLength(json);
    if (bytes > MAX_REPLY_BYTES) {
      return JSON.stringify({
        ok: false,
        error: {
          code: 'too_large',
          message: `the reply would be ${bytes} bytes, over the ${MAX_REPLY_BYTES}-byte limit of one reply`,
        },
      } satisfies ApiReply);
    }
    return `{"ok":true,"res":${json}}`;
  } catch (e) {
    return JSON.stringify({ ok: false, error: errorPayload(e) } satisfies ApiReply);
  }
}

/** The asks of a body, or what is wrong with it. Methods are checked here; requests by the backend. */
function parseAsks(body: string): EarlyAsk[] | string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  const asks = typeof json === 'object' && json !== null ? (json as { asks?: unknown }).asks : undefined;
  if (!Array.isArray(asks) || asks.length === 0 || asks.length > MAX_EARLY_ASKS) {
    return `send {"asks":[{"method":…,"req":…}]} with 1 to ${MAX_EARLY_ASKS} asks`;
  }
  const out: EarlyAsk[] = [];
  for (const a of asks as unknown[]) {
    const method = typeof a === 'object' && a !== null ? (a as { method?: unknown }).method : undefined;
    if (!isEarlyAnswerMethod(method)) return `refused: ${JSON.stringify(method)} is not answered early`;
    if (out.some((x) => x.method === method)) return `refused: ${method} asked twice`;
    out.push({ method, req: (a as { req?: unknown }).req });
  }
  return out;
}

/** The request's body as text, or null once it passes `limit` bytes (the rest is not read). */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(null);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
