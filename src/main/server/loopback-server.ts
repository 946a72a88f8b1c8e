/**
 * The serve mode's HTTP + WebSocket server: the built renderer and the API on
 * one loopback origin, for a normal browser. Bound to loopback only; every
 * request must name us in its Host header (DNS rebinding); the API socket
 * needs the session cookie and our exact Origin (cross-site WebSocket
 * hijacking, cf. Vite's CVE-2025-24010).
 */
import { readFile } from 'node:fs/promises';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EARLY_ANSWERS_PATH } from '../../shared/api-early';
import type { ApiBackend } from '../api/api-backend';
import { contentSecurityPolicy } from '../web/csp';
import { cacheControlFor, lookupStatic } from '../web/static-files';
import { serveApiSocket, type SocketStats } from './api-socket';
import { serveEarlyAnswers } from './early-answers';
import { exportDownloadTarget, streamExportDownload } from './export-download';
import { allowedHosts, isAllowedHost, isOwnOrigin } from './host-check';
import { BAD_TOKEN_PAGE, NOT_SIGNED_IN_PAGE, SAME_SITE_HOP_PAGE } from './notice-pages';
import { SessionAuth } from './session-auth';

/** Where the renderer opens its WebSocket. */
export const API_PATH = '/api/ws';

/**
 * Largest accepted frame. A branch text may be 1,000,000 characters, which
 * JSON-escaped can take up to 6 bytes each.
 */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

export interface LoopbackServerOptions {
  backend: ApiBackend;
  /** 0 picks a free port. */
  port: number;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** Loopback address to bind: 127.0.0.1 (default) or ::1. Nothing else is accepted. */
  host?: '127.0.0.1' | '::1';
}

export interface LoopbackServer {
  /** The URL to print: it carries the token. */
  url: string;
  token: string;
  port: number;
  /** A URL with a single-use token, for handing to a browser opener (whose argv others can read). */
  oneTimeUrl(): string;
  /** What the API sockets cost and did, counted (tests and diagnostics). */
  stats(): ServerStats;
  /** Closes every socket and the listener (not the backend: the caller owns it). */
  close(): Promise<void>;
}

export interface ServerStats {
  /** The sockets open now. */
  open: SocketStats[];
  /** Sockets closed because their client did not read its replies. */
  shed: number;
  /** Highest number of bytes that waited for any one socket, over the server's life. */
  peakBufferedBytes: number;
  /** Requests cancelled because their client stopped reading, over the server's life. */
  stalledCancelled: number;
}

/** Starts the loopback server and resolves once it listens. */
export async function createLoopbackServer(opts: LoopbackServerOptions): Promise<LoopbackServer> {
  const bindHost = opts.host ?? '127.0.0.1';
  if (bindHost !== '127.0.0.1' && bindHost !== '::1')
    throw new Error(`refusing to bind ${String(bindHost)}: loopback only`);
  const { backend, staticDir } = opts;

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: opts.port, host: bindHost, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Handlers are attached in this same turn, before any connection is read.
  const port = (server.address() as AddressInfo).port;
  const auth = new SessionAuth(port);
  const securityHeaders: Record<string, string> = {
    // CSP has no syntax for an IPv6 literal; a page on [::1] relies on 'self' covering ws: (CSP Level 3).
    'Content-Security-Policy': contentSecurityPolicy({
      connectSrc: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`],
    }),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES, perMessageDeflate: false });
  let nextClient = 0;
  const sockets = new Set<SocketStats>();
  const gone = { shed: 0, peakBufferedBytes: 0, stalledCancelled: 0 };

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}): void => {
      res.writeHead(status, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
        ...securityHeaders,
        ...headers,
        'Content-Length': String(Buffer.byteLength(body)),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const sendHtml = (status: number, body: string): void =>
      send(status, body, { 'Content-Type': 'text/html; charset=utf-8' });

    if (!isAllowedHost(req.headers.host, port)) {
      return send(421, `This server answers only to ${allowedHosts(port).join(', ')}.\n`);
    }
    const target = splitTarget(req.url);
    // POST only to the early answers (early-answers.ts), which checks the rest.
    const early = target?.pathname === EARLY_ANSWERS_PATH;
    if (req.method !== 'GET' && req.method !== 'HEAD' && !(early && req.method === 'POST')) {
      return send(405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    }
    if (!target) return send(400, 'bad request target\n');
    const { pathname, query } = target;

    const token = query.get('token');
    if (token !== null && !early) {
      if (!auth.redeem(token)) return sendHtml(401, BAD_TOKEN_PAGE);
      // Always to "/": a Location built from the request could be made to point off-site.
      return send(303, '', { Location: '/', 'Set-Cookie': auth.setCookieHeader() });
    }
    if (!auth.hasValidCookie(req.headers.cookie)) {
      if (isCrossSiteNavigation(req) && !query.has('hop')) return sendHtml(200, SAME_SITE_HOP_PAGE);
      return sendHtml(401, NOT_SIGNED_IN_PAGE);
    }
    if (query.has('hop')) return send(303, '', { Location: '/' });
    if (early) return serveEarlyAnswers(backend, port, req, res, send);
    if (pathname === API_PATH) return send(426, 'this is a WebSocket endpoint\n', { Upgrade: 'websocket' });
    const download = exportDownloadTarget(pathname);
    if (download !== null) {
      if (req.method !== 'GET') return send(405, 'method not allowed\n', { Allow: 'GET' });
      return streamExportDownload(backend, download, res, securityHeaders);
    }

    const found = await lookupStatic(staticDir, pathname);
    if (found.kind === 'refused') return send(403, `refused: ${found.reason}\n`);
    if (found.kind === 'missing') return send(404, 'not found\n');
    const body = await readFile(found.path);
    send(200, body, {
      'Content-Type': found.contentType,
      'Cache-Control': cacheControlFor(pathname, found.isIndex),
    });
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handleRequest(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('internal error\n');
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const refuse = (status: number, message: string): void => {
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
          `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(message)}\r\n\r\n${message}`,
      );
    };
    if (!isAllowedHost(req.headers.host, port)) return refuse(421, 'unknown host\n');
    if (splitTarget(req.url)?.pathname !== API_PATH) return refuse(404, 'not found\n');
    if (!auth.hasValidCookie(req.headers.cookie)) return refuse(401, 'open the URL printed in the terminal first\n');
    if (!isOwnOrigin(req.headers.origin, port)) return refuse(403, 'foreign origin\n');
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const { stats } = serveApiSocket(ws, backend, `ws-${++nextClient}`, socket);
      sockets.add(stats);
      ws.once('close', () => {
        sockets.delete(stats);
        if (stats.shed) gone.shed++;
        gone.stalledCancelled += stats.stalledCancelled;
        gone.peakBufferedBytes = Math.max(gone.peakBufferedBytes, stats.peakBufferedBytes);
      });
    });
  });

  const origin = `http://${bindHost === '::1' ? '[::1]' : '127.0.0.1'}:${port}`;
  return {
    url: `${origin}/?token=${auth.token}`,
    token: auth.token,
    port,
    oneTimeUrl: () => `${origin}/?token=${auth.issueOneTimeToken()}`,
    stats: () => {
      const open = [...sockets].map((x) => ({ ...x }));
      return {
        open,
        shed: gone.shed + open.filter((x) => x.shed).length,
        peakBufferedBytes: Math.max(gone.peakBufferedBytes, ...open.map((x) => x.peakBufferedBytes)),
        stalledCancelled: gone.stalledCancelled + open.reduce((n, x) => n + x.stalledCancelled, 0),
      };
    },
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Splits an origin-form request target; null for anything else (absolute-form, `*`). */
function splitTarget(url: string | undefined): { pathname: string; query: URLSearchParams } | null {
  if (!url || !url.startsWith('/')) return null;
  const q = url.indexOf('?');
  return q < 0
    ? { pathname: url, query: new URLSearchParams() }
    : { pathname: url.slice(0, q), query: new URLSearchParams(url.slice(q + 1)) };
}

function isCrossSiteNavigation(req: IncomingMessage): boolean {
  return req.headers['sec-fetch-site'] === 'cross-site' && req.headers['sec-fetch-mode'] === 'navigate';
}
