/**
 * The app:// protocol that serves the built renderer (out/renderer) to the
 * window: a real origin (so CSP 'self', fetch and module workers behave as on
 * the web), never file:// (which would let the page read any local file it can
 * name).
 */
import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { lookupStatic } from '../web/static-files';

export const APP_SCHEME = 'app';
export const APP_HOST = 'explorer';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/`;

/** Declares app:// a standard, secure scheme; must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // corsEnabled: module scripts and workers are fetched in CORS mode; we send no
      // Access-Control-Allow-Origin, so other origins still cannot read app:// responses.
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
    },
  ]);
}

/** Serves `rendererDir` on app://explorer/ with the given CSP on every response. */
export function serveAppProtocol(rendererDir: string, csp: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(request, rendererDir, csp));
}

/** The response for one app:// request (exported for tests). */
export async function appResponse(request: Request, rendererDir: string, csp: string): Promise<Response> {
  const headers = { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' };
  const text = (status: number, body: string): Response =>
    new Response(body, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });

  if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'method not allowed');
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return text(400, 'bad url');
  }
  if (url.host !== APP_HOST) return text(404, 'not found');
  // The raw path, not url.pathname's dot-segment-normalised one, so traversal is refused, not rewritten.
  const rawPath = request.url.slice(`${APP_SCHEME}://${APP_HOST}`.length).split(/[?#]/)[0] || '/';
  const found = await lookupStatic(rendererDir, rawPath);
  if (found.kind === 'refused') return text(403, `refused: ${found.reason}`);
  if (found.kind === 'missing') return text(404, 'not found');
  const body = await readFile(found.path);
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { ...headers, 'Content-Type': found.contentType },
  });
}
