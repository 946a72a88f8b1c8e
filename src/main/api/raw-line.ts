/**
 * `getLine`: any physical line by its byte offset, an entry or not (what a warning points at:
 * a torn line, an invalid entry, the unterminated tail), clipped to `maxBytes`.
 */
import { isUtf8 } from 'node:buffer';
import type { RawLine } from '../../shared/api';
import type { OpenSession } from '../library/session-cache';

const DEFAULT_LINE_BYTES = 64 * 1024;

/** Cuts a buffer to at most `max` bytes without splitting a UTF-8 sequence. */
function utf8Prefix(buf: Buffer, max: number): Buffer {
  if (buf.length <= max) return buf;
  let end = max;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end);
}

/** The line of `s` starting at byte `offset`, at most `maxBytes` of it (default 64 KiB). */
export function rawLine(s: OpenSession, offset: number, maxBytes: number | undefined): RawLine {
  const max = maxBytes ?? DEFAULT_LINE_BYTES;
  const line = s.ledger.lineAt(offset, max);
  const cut = utf8Prefix(line.bytes, max);
  return {
    offset,
    length: line.length,
    text: cut.toString('utf8'),
    bytes: cut.length,
    validUtf8: isUtf8(cut),
    terminated: line.terminated,
    truncated: line.length === null,
  };
}
