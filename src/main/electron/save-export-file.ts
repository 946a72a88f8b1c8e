/**
 * Saving an export to a file the user picks, without Electron: the export is begun, the user is
 * asked where to save it (its file name is the default), and its chunks are read from the backend
 * one at a time and written to that file, each once the file took the one before. Nothing here
 * holds more than one chunk, whatever the export's size.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { ExportChunk, ExportStarted } from '../../shared/api-features';
import type { SaveExportOutcome } from '../../shared/api-save-export';

export interface ExportSaving {
  /** Begins the export (the backend validates the request). */
  begin(): Promise<ExportStarted>;
  /** Reads its next chunk. */
  readChunk(exportId: string): Promise<ExportChunk>;
  /** Ends it early (a cancel or a failure): the backend drops what it holds. */
  endExport(exportId: string): Promise<unknown>;
  /** Asks where to save a file named `fileName`; null when the user cancels. */
  pickPath(fileName: string): Promise<string | null>;
  /** Opens the file (tests wrap it to watch the stream). */
  open?: (path: string) => Writable;
}

/** Begins an export, asks for its path, and writes it there; cancelled writes nothing. */
export async function saveExportAs(s: ExportSaving): Promise<SaveExportOutcome> {
  const started = await s.begin();
  let path: string | null;
  try {
    path = await s.pickPath(started.fileName);
  } catch (e) {
    await s.endExport(started.exportId).catch(() => undefined);
    throw e;
  }
  if (path === null) {
    await s.endExport(started.exportId).catch(() => undefined);
    return { cancelled: true };
  }
  const bytes = await writeExportFile(path, started.exportId, s);
  return { saved: path, fileName: started.fileName, bytes, redacted: started.redacted };
}

/**
 * Writes export `exportId` to `path` chunk by chunk and resolves with the bytes written. On any
 * failure the export is ended, the partial file removed (a truncated file must not pass for the
 * export), and the error names the path.
 */
export async function writeExportFile(
  path: string,
  exportId: string,
  s: Pick<ExportSaving, 'readChunk' | 'endExport' | 'open'>,
): Promise<number> {
  const file = (s.open ?? ((p: string) => createWriteStream(p)))(path);
  // A write fails after it returned: kept here (an 'error' no one hears would end the process),
  // and met before the next chunk is read or written.
  let failed: { error: unknown } | null = null;
  file.on('error', (error: Error) => {
    failed ??= { error };
  });
  const check = (): void => {
    if (failed) throw failed.error;
  };
  let done = false;
  let opened = false;
  let bytes = 0;
  try {
    // An open error (no such folder, no permission) is met before any chunk is read.
    await once(file, 'open');
    opened = true;
    while (!done) {
      const chunk = await s.readChunk(exportId);
      done = chunk.done;
      check();
      if (chunk.text.length === 0) continue;
      bytes += Buffer.byteLength(chunk.text, 'utf8');
      // `once` rejects on 'error', so a write failing while the file is full stops here too.
      if (!file.write(chunk.text, 'utf8')) await once(file, 'drain');
    }
    check();
    file.end();
    await once(file, 'finish');
    check();
    return bytes;
  } catch (e) {
    file.destroy();
    if (!done) await s.endExport(exportId).catch(() => undefined);
    // A file that could not be opened is not ours to remove (it may be one the user could not overwrite).
    if (opened) await removePartial(path);
    throw new Error(`Could not save the export to ${path}: ${reason(e)}`, { cause: e });
  }
}

/** Removes what a failed save wrote, when it is a plain file (never a device the user named). */
async function removePartial(path: string): Promise<void> {
  const st = await lstat(path).catch(() => null);
  if (st?.isFile()) await unlink(path).catch(() => undefined);
}

/** An error's own words without a path it may repeat (the message names it once). */
function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string') return code === 'ENOSPC' ? 'the disk is full' : `the file system said ${code}`;
  return e instanceof Error ? e.message : String(e);
}
