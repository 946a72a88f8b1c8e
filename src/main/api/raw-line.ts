/**
 * `getLine`: any physical line by its byte offset, an entry or not (what a warning points at:
 * a torn line, an invalid entry, the unterminated tail), clipped to `maxBytes`.
 */
import { isUtf8 } from 'node:buffer';
import type { RawLine } from '../../shared/api';
import type { OpenSession } from '../library/session-cache';
import { utf8Prefix } from './entry-slice';

const DEFAULT_LINE_BYTES = 64 * 1024;

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
