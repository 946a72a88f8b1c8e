/**
 * An export the backend writes, saved as a file without ever being one reply: in serve mode the
 * browser downloads it from the loopback server, which streams it chunk by chunk (the page holds
 * none of it); in the app, its chunks are read one reply at a time into a Blob, which the
 * download then saves where the user picks.
 */
import type { Api } from '../../shared/api';
import { EXPORT_DOWNLOAD_PATH, type ExportBeginRequest, type ExportStarted } from '../../shared/api-features';
import { downloadBlob, downloadUrl } from './download';

/** True in serve mode: the page came from the loopback server, which can stream a download. */
function servedOverHttp(): boolean {
  return typeof window !== 'undefined' && !('vak' in window) && /^https?:$/.test(window.location.protocol);
}

/**
 * Begins export `req` and saves it as a file; resolves with what to tell the user once the save has
 * started (`note`: what to add of its redaction).
 */
export async function saveExport(
  api: Api,
  req: ExportBeginRequest,
  note: (redacted: number | undefined) => string = () => '',
): Promise<string> {
  const started = await api.beginExport(req);
  if (servedOverHttp()) {
    downloadUrl(
      started.fileName,
      `${EXPORT_DOWNLOAD_PATH}/${started.exportId}/${encodeURIComponent(started.fileName)}`,
    );
    return `Saved ${started.fileName}: the browser downloads it as it is written.${note(started.redacted)}`;
  }
  const parts: string[] = [];
  await readChunks(api, started, (text) => void parts.push(text));
  downloadBlob(started.fileName, new Blob(parts, { type: `${started.mimeType};charset=utf-8` }));
  return `Saved ${started.fileName}.${note(started.redacted)}`;
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
