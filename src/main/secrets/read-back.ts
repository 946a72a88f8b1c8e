/**
 * Gated lines the secret scan's lint thread reads back from their session file instead of
 * holding them (secret-scan-worker.ts): a big session's read outruns the lint thread, and the
 * lines waiting for it would otherwise stay in memory until it got to them. The file is
 * append-only, so a line's offset stays; a hash of the bytes that were read tells a line that
 * changed since (the file rewritten in place), and such a line is not scanned.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../core/safe-open';
import type { LineBatch } from './scan-batch';
import type { ReadBack } from './scan-protocol';

/** FNV-1a, 32 bits, over `bytes`: cheap beside the copy it replaces, and enough to tell a changed line. */
export function lineHash(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < bytes.length; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
  return h >>> 0;
}

/** Lines this far apart (or closer) are read in one call, the bytes between them read too. */
const SPAN_GAP = 64 << 10;

/**
 * The lines of `batch` (an empty buffer, its `ends` their lengths) read back from `where`: a
 * batch with their bytes, and how many lines had changed (left out; the file gone or replaced:
 * all of them).
 */
export function readBackLines(batch: LineBatch, where: ReadBack): { batch: LineBatch; changed: number } {
  const n = batch.ends.length;
  const lengths = batch.ends.map((e, k) => e - (k === 0 ? 0 : batch.ends[k - 1]));
  const out = Buffer.allocUnsafeSlow(n === 0 ? 0 : batch.ends[n - 1]);
  const kept: LineBatch = { buf: out.buffer as ArrayBuffer, ends: [], lineNos: [], entries: [] };
  const opened = openSameFile(where.file);
  if (!opened) return { batch: kept, changed: n };
  const fd = opened.fd;
  let used = 0;
  let changed = 0;
  try {
    let k = 0;
    while (k < n) {
      // A run of lines close together, in file order: one read.
      const start = where.offsets[k];
      let end = start + lengths[k];
      let j = k + 1;
      while (j < n && where.offsets[j] >= end && where.offsets[j] - end <= SPAN_GAP) {
        end = where.offsets[j] + lengths[j];
        j++;
      }
      const span = Buffer.allocUnsafe(end - start);
      let got = 0;
      while (got < span.length) {
        const r = readSync(fd, span, got, span.length - got, start + got);
        if (r === 0) break;
        got += r;
      }
      for (; k < j; k++) {
        const at = where.offsets[k] - start;
        const line = at + lengths[k] <= got ? span.subarray(at, at + lengths[k]) : null;
        if (!line || lineHash(line) !== where.hashes[k]) {
          changed++;
          continue;
        }
        used += line.copy(out, used);
        kept.ends.push(used);
        kept.lineNos.push(batch.lineNos[k]);
        kept.entries.push(batch.entries[k]);
      }
    }
  } catch {
    // Unreadable now: the lines not read back count as changed.
    changed = n - kept.ends.length;
  } finally {
    closeSync(fd);
  }
  return { batch: kept, changed };
}

/**
 * The session file opened again, if it is still the file that was read (same device and inode), or
 * null. Never waits: a FIFO or device put at the path is refused (as replaced), not opened for good.
 */
function openSameFile(file: { path: string; dev: number; ino: number }): { fd: number; size: number } | null {
  let fd: number | null = null;
  try {
    const opened = openRegularFile(file.path);
    fd = opened.fd;
    if (opened.stat.dev === file.dev && opened.stat.ino === file.ino) return { fd, size: opened.stat.size };
  } catch {
    // Gone or unreadable: as replaced.
  }
  if (fd !== null) closeSync(fd);
  return null;
}

const LF = 0x0a;

/**
 * What `readLinesInFile` reads a run of lines into: kept for the thread's life and grown when
 * needed, as fresh pages for every batch cost more than the read.
 */
let scratch: Buffer | null = null;
function scratchOf(bytes: number): Buffer {
  if (!scratch || scratch.length < bytes) scratch = Buffer.allocUnsafeSlow(Math.max(bytes, 1 << 20) + 2);
  return scratch;
}

/**
 * The lines of a batch whose bytes were left in its file (`inFile`: a scan deferred during a first
 * open), read from there now: a batch with their bytes back to back (in `into` when it is big
 * enough, a buffer the caller reuses), and how many lines no longer read as a whole ledger line (left
 * out; the file gone, replaced or cut short: all of them). The file is append-only, so a line's
 * offset stays; a line is taken when it still is one whole line: a line starts there (the file's
 * start, or after a newline) and its first newline is where it ended. This is a read of bytes the open just read (the page cache), not a parse.
 */
export function readLinesInFile(batch: LineBatch, into?: Buffer): { batch: LineBatch; changed: number } {
  const n = batch.ends.length;
  const offsets = batch.offsets ?? [];
  const total = n === 0 ? 0 : batch.ends[n - 1];
  const out = into && into.length >= total ? into : Buffer.allocUnsafeSlow(total);
  const keptOffsets: number[] = [];
  const kept: LineBatch = {
    buf: out.buffer as ArrayBuffer,
    ends: [],
    lineNos: [],
    entries: [],
    ...(batch.file && { file: batch.file }),
    offsets: keptOffsets,
  };
  if (!batch.file || offsets.length !== n) return { batch: kept, changed: n };
  const opened = openSameFile(batch.file);
  if (!opened) return { batch: kept, changed: n };
  const { fd, size } = opened;
  let used = 0;
  let changed = 0;
  try {
    let k = 0;
    while (k < n) {
      const lengths = (j: number): number => batch.ends[j] - (j === 0 ? 0 : batch.ends[j - 1]);
      // A run of lines close together, in file order: one read, from the byte before the first
      // (its line's start) to the byte after the last (its end).
      const start = offsets[k];
      let end = start + lengths(k);
      let j = k + 1;
      while (j < n && offsets[j] >= end && offsets[j] - end <= SPAN_GAP) {
        end = offsets[j] + lengths(j);
        j++;
      }
      const from = Math.max(0, start - 1);
      const to = Math.min(size, end + 1);
      const span = scratchOf(Math.max(0, to - from)).subarray(0, Math.max(0, to - from));
      let got = 0;
      while (got < span.length) {
        const r = readSync(fd, span, got, span.length - got, from + got);
        if (r === 0) break;
        got += r;
      }
      for (; k < j; k++) {
        const len = lengths(k);
        const at = offsets[k] - from;
        const whole = at + len < got && (offsets[k] === 0 || span[at - 1] === LF) && span.indexOf(LF, at) === at + len;
        if (!whole) {
          changed++;
          continue;
        }
        used += span.copy(out, used, at, at + len);
        kept.ends.push(used);
        kept.lineNos.push(batch.lineNos[k]);
        kept.entries.push(batch.entries[k]);
        keptOffsets.push(offsets[k]);
      }
    }
  } catch {
    changed = n - kept.ends.length;
  } finally {
    closeSync(fd);
  }
  return { batch: kept, changed };
}
