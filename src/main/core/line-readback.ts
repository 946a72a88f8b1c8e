import { readRange, type ByteSource } from './byte-source';
import type { ValidLine } from './entry-validate';
import type { LedgerIndex } from './ledger-index';

/**
 * Lines read back from the file by their offset, after the reading indexed them: the file may
 * have changed since, so what is read back is checked against what the index keeps of it.
 */

/**
 * Whether a parsed line is entry `i` of the index: a valid entry (§8's five common fields) with the
 * id, parent_id and kind the index keeps of it.
 */
export function holdsEntry(line: unknown, ix: LedgerIndex, i: number): line is ValidLine {
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return false;
  const o = line as Record<string, unknown>;
  const prev = o['prev_hash'];
  return (
    o['id'] === ix.ids[i] &&
    o['parent_id'] === ix.parentId(i) &&
    o['kind'] === ix.kindName(i) &&
    typeof o['ts'] === 'string' &&
    (prev === null || typeof prev === 'string')
  );
}

/** Whether the bytes at entry `i`'s offset still hold that entry, read from the file now (no window or cache). */
export function lineHoldsEntry(source: ByteSource, ix: LedgerIndex, i: number): boolean {
  const bytes = readRange(source, ix.offset[i], ix.length[i] + 1);
  if (bytes.length !== ix.length[i] + 1 || bytes[ix.length[i]] !== 10) return false;
  try {
    return holdsEntry(JSON.parse(bytes.toString('utf8', 0, ix.length[i])), ix, i);
  } catch {
    return false;
  }
}

/**
 * The physical line starting at byte `offset` (an entry or not: warnings point at
 * lines that are none), up to `max` bytes. `length` is null when clipped before its `\n`.
 */
export function lineAt(
  source: ByteSource,
  offset: number,
  max: number,
): { bytes: Buffer; length: number | null; terminated: boolean } {
  const size = source.size();
  if (offset >= size) return { bytes: Buffer.alloc(0), length: 0, terminated: false };
  const got = readRange(source, offset, Math.min(max + 1, size - offset));
  const nl = got.indexOf(10);
  if (nl >= 0 && nl <= max) return { bytes: got.subarray(0, nl), length: nl, terminated: true };
  if (offset + got.length >= size && got.length <= max) return { bytes: got, length: got.length, terminated: false };
  return { bytes: got.subarray(0, max), length: null, terminated: false };
}
