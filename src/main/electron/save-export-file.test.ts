import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportChunk } from '../../shared/api-features';
import { saveExportAs, type ExportSaving } from './save-export-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vak-save-export-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ID = 'e'.repeat(24);

/** A backend's export of `texts`, one chunk each (the last one `done`), recording the calls. */
function exportOf(texts: string[], pick: string | null): ExportSaving & { reads: number; ended: string[] } {
  const s = {
    reads: 0,
    ended: [] as string[],
    begin: async () => ({ exportId: ID, fileName: 'session.html', mimeType: 'text/html' as const, redacted: 2 }),
    readChunk: async (id: string): Promise<ExportChunk> => {
      expect(id).toBe(ID);
      const i = s.reads++;
      return { text: texts[i] ?? '', done: i >= texts.length - 1 };
    },
    endExport: async (id: string) => {
      s.ended.push(id);
      return { ended: true };
    },
    pickPath: async (fileName: string) => {
      expect(fileName).toBe('session.html');
      return pick;
    },
  };
  return s;
}

describe('saving an export to the file the user picks', () => {
  it('writes every chunk in order and answers the path, bytes and redaction', async () => {
    const path = join(dir, 'out.html');
    const texts = ['<html>', 'é'.repeat(1000), '', '</html>'];
    const s = exportOf(texts, path);
    await expect(saveExportAs(s)).resolves.toEqual({
      saved: path,
      fileName: 'session.html',
      bytes: Buffer.byteLength(texts.join('')),
      redacted: 2,
    });
    expect(readFileSync(path, 'utf8')).toBe(texts.join(''));
    expect(s.reads).toBe(texts.length);
    expect(s.ended).toEqual([]);
  });

  it('reads the next chunk only once the file took the one before (drain)', async () => {
    const path = join(dir, 'big.json');
    const texts = Array.from({ length: 8 }, (_, i) => String(i).repeat(64 * 1024));
    const s = exportOf(texts, path);
    const streams: ReturnType<typeof createWriteStream>[] = [];
    const needDrainAtRead: boolean[] = [];
    const read = s.readChunk;
    s.readChunk = (id) => {
      if (streams[0]) needDrainAtRead.push(streams[0].writableNeedDrain);
      return read(id);
    };
    s.open = (p) => {
      // A small buffer: every chunk fills it, so each write must wait for 'drain'.
      const f = createWriteStream(p, { highWaterMark: 1024 });
      streams.push(f);
      return f;
    };
    await saveExportAs(s);
    expect(needDrainAtRead).toHaveLength(texts.length);
    expect(needDrainAtRead.every((b) => !b)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(texts.join(''));
  });

  it('cancelled: ends the export and writes nothing', async () => {
    const s = exportOf(['a', 'b'], null);
    await expect(saveExportAs(s)).resolves.toEqual({ cancelled: true });
    expect(s.ended).toEqual([ID]);
    expect(s.reads).toBe(0);
  });

  it('a file that cannot be opened: ends the export, reads nothing, and names the path', async () => {
    const path = join(dir, 'no-such-folder', 'out.html');
    const s = exportOf(['a', 'b'], path);
    await expect(saveExportAs(s)).rejects.toThrow(`Could not save the export to ${path}`);
    expect(s.ended).toEqual([ID]);
    expect(s.reads).toBe(0);
  });

  it('a file that cannot be opened for writing is left as it was', async () => {
    const path = join(dir, 'read-only.html');
    writeFileSync(path, 'mine');
    const s = exportOf(['a'], path);
    s.open = () => {
      const w = new Writable({ write: (_c, _e, cb) => cb() });
      // An open refused as a file the user may not write is (EACCES), before any byte.
      queueMicrotask(() => w.emit('error', Object.assign(new Error('permission denied'), { code: 'EACCES' })));
      return w;
    };
    await expect(saveExportAs(s)).rejects.toThrow(`Could not save the export to ${path}: the file system said EACCES`);
    expect(s.ended).toEqual([ID]);
    expect(readFileSync(path, 'utf8')).toBe('mine');
  });

  it('a write that fails midway: ends the export, removes the partial file, and names the path', async () => {
    const path = join(dir, 'full.html');
    const s = exportOf(['one', 'two', 'three', 'four'], path);
    s.open = (p) => {
      const real = createWriteStream(p);
      let writes = 0;
      // The real file, failing its second write as a full disk does (each write waits for drain).
      const w = new Writable({
        highWaterMark: 1,
        write(chunk: Buffer, _enc, cb) {
          if (++writes === 2) return cb(Object.assign(new Error('no space left'), { code: 'ENOSPC' }));
          real.write(chunk, cb);
        },
        final(cb) {
          real.end(cb);
        },
      });
      real.once('open', () => w.emit('open'));
      return w;
    };
    await expect(saveExportAs(s)).rejects.toThrow(`Could not save the export to ${path}: the disk is full`);
    expect(s.ended).toEqual([ID]);
    expect(s.reads).toBe(2);
    expect(existsSync(path)).toBe(false);
  });

  it('a backend read that fails: ends the export and names the path', async () => {
    const path = join(dir, 'out.md');
    const s = exportOf(['a', 'b', 'c'], path);
    const read = s.readChunk;
    s.readChunk = async (id) => {
      if (s.reads === 1) throw new Error('the session file changed');
      return read(id);
    };
    await expect(saveExportAs(s)).rejects.toThrow(`Could not save the export to ${path}: the session file changed`);
    expect(s.ended).toEqual([ID]);
    expect(existsSync(path)).toBe(false);
  });
});
