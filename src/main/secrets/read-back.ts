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
  let fd: number | null = null;
  try {
    // Never waits: a FIFO or device put at the path is refused (as replaced), not opened for good.
    const opened = openRegularFile(where.file.path);
    fd = opened.fd;
    if (opened.stat.dev !== where.file.dev || opened.stat.ino !== where.file.ino) {
      closeSync(fd);
      return { batch: kept, changed: n };
    }
  } catch {
    if (fd !== null) closeSync(fd);
    return { batch: kept, changed: n };
  }
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
