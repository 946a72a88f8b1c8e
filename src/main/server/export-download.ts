/**
 * Serve mode's export download: `GET /api/export/<exportId>/<fileName>` (signed in by the
 * session cookie, like the API socket) streams an export the page began with `beginExport`,
 * chunk by chunk from the backend (`readExport`), each written when the browser took the one
 * before. The server holds one chunk at a time, and the browser saves the file as it comes.
 */
import type { ServerResponse } from 'node:http';
import { EXPORT_DOWNLOAD_PATH, type ExportChunk } from '../../shared/api-features';
import { errorPayload, type ApiBackend, type ApiClient } from '../api/api-backend';

/** The export id and file name of a download path, or null when `pathname` is not one. */
export function exportDownloadTarget(pathname: string): { exportId: string; fileName: string } | null {
  const m = new RegExp(`^${EXPORT_DOWNLOAD_PATH}/([A-Za-z0-9_-]{16,64})/([A-Za-z0-9._-]{1,200})$`).exec(pathname);
  return m === null ? null : { exportId: m[1], fileName: m[2] };
}

const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['html', 'text/html; charset=utf-8'],
  ['json', 'application/json; charset=utf-8'],
  ['md', 'text/markdown; charset=utf-8'],
]);

let downloads = 0;

/**
 * Streams export `exportId` into `res`. An unknown export answers 404 before any byte; a failure
 * later cuts the response off (the browser then reports the download failed rather than saving
 * a truncated file as complete). A browser that goes away ends the export.
 */
export async function streamExportDownload(
  backend: ApiBackend,
  target: { exportId: string; fileName: string },
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const client: ApiClient = { id: `download-${++downloads}`, push: () => undefined };
  const controller = new AbortController();
  let finished = false;
  res.once('close', () => {
    if (finished) return;
    controller.abort();
    void backend.call('endExport', { exportId: target.exportId }, client).catch(() => undefined);
  });
  const read = (): Promise<ExportChunk> =>
    backend.call('readExport', { exportId: target.exportId }, client, controller.signal) as Promise<ExportChunk>;
  let chunk: ExportChunk;
  try {
    chunk = await read();
  } catch (e) {
    const { code, message } = errorPayload(e);
    res.writeHead(code === 'not_found' ? 404 : 500, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`${message}\n`);
    finished = true;
    return;
  }
  const ext = /\.([a-z]+)$/.exec(target.fileName)?.[1] ?? '';
  res.writeHead(200, {
    ...headers,
    'Content-Type': CONTENT_TYPES.get(ext) ?? 'application/octet-stream',
    'Content-Disposition': `attachment; filename="${target.fileName}"`,
    'Cache-Control': 'no-store',
  });
  try {
    for (;;) {
      if (chunk.text.length > 0 && !res.write(chunk.text)) {
        await drainedOrClosed(res);
      }
      if (chunk.done || res.destroyed) break;
      chunk = await read();
    }
    finished = chunk.done;
    res.end();
  } catch {
    res.destroy();
  }
}

/** Resolves when `res` takes more ('drain') or is gone ('close'), leaving no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
