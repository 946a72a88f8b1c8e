/**
 * An export the backend writes, saved as a file without ever being one reply or whole in the
 * page: in the app, main asks where to save it and streams it there (DesktopExports); in serve
 * mode, the browser downloads it from the loopback server, which streams it chunk by chunk.
 */
import type { Api, DesktopExports } from '../../shared/api';
import { EXPORT_DOWNLOAD_PATH, type ExportBeginRequest, type ExportStarted } from '../../shared/api-features';
import { downloadUrl } from './download';

/** The desktop app's export saving (preload `window.vak.exports`), or null in a browser. */
export function desktopExports(
  win: Window | undefined = typeof window === 'undefined' ? undefined : window,
): DesktopExports | null {
  return (win as (Window & { vak?: { exports?: DesktopExports } }) | undefined)?.vak?.exports ?? null;
}

/**
 * Saves export `req` as a file the user picks; resolves with what to tell the user (`note`: what
 * to add of its redaction).
 */
export async function saveExport(
  api: Api,
  req: ExportBeginRequest,
  note: (redacted: number | undefined) => string = () => '',
  exports: DesktopExports | null = desktopExports(),
): Promise<string> {
  if (exports) {
    const r = await exports.saveAs(req);
    if ('cancelled' in r) return 'Export cancelled: nothing was saved.';
    // The name the user gave in the dialog, which may not be the export's own.
    const name = r.saved.split(/[\\/]/).pop() || r.fileName;
    return `Saved ${name} (${sizeText(r.bytes)}) at ${r.saved}.${note(r.redacted)}`;
  }
  const started = await api.beginExport(req);
  downloadUrl(started.fileName, `${EXPORT_DOWNLOAD_PATH}/${started.exportId}/${encodeURIComponent(started.fileName)}`);
  return `Saved ${started.fileName}: the browser downloads it as it is written.${note(started.redacted)}`;
}

/** A file size in words a notice can show. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1 << 20) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

/** Reads every chunk of a started export into `take`; ends the export when `take` throws. */
export async function readChunks(api: Api, started: ExportStarted, take: (text: string) => void): Promise<void> {
  for (;;) {
    const chunk = await api.readExport({ exportId: started.exportId });
    try {
      take(chunk.text);
    } catch (e) {
      if (!chunk.done) await api.endExport({ exportId: started.exportId }).catch(() => undefined);
      throw e;
    }
    if (chunk.done) return;
  }
}

/**
 * Most characters "copy all" puts on the clipboard: past this a copy is a file's worth, better
 * saved (the clipboard and the page would hold it whole, several times over).
 */
export const MAX_COPY_CHARS = 8 << 20;

/** The text "copy all" copies was over MAX_COPY_CHARS: the user is told to save it instead. */
export class TooBigToCopyError extends Error {}

/** The whole text of export `req`, or TooBigToCopyError once it passes MAX_COPY_CHARS. */
export async function exportTextForCopy(api: Api, req: ExportBeginRequest): Promise<string> {
  const started = await api.beginExport(req);
  const parts: string[] = [];
  let chars = 0;
  await readChunks(api, started, (text) => {
    chars += text.length;
    if (chars > MAX_COPY_CHARS) {
      throw new TooBigToCopyError(
        `Too big to copy: the projected context is over ${MAX_COPY_CHARS >> 20} MiB of text. Save it as a file instead (export JSON).`,
      );
    }
    parts.push(text);
  });
  return parts.join('');
}
