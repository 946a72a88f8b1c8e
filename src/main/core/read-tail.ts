import { hash } from 'node:crypto';
import { readRange, type ByteSource } from './byte-source';
import type { LineFeeder } from './line-feeder';
import type { LineReader } from './line-reader';
import type { LedgerWarning } from './warnings';

/**
 * A reading's tail compared with its file: the last complete line read (its `\n`, and its hash,
 * which the next line links to) and the pending bytes after it. Append-only holds while both are
 * still there; a refresh checks it before it reads on, a writer under the lock before it links.
 */

type ReadEnd = Pick<LineReader, 'lines' | 'prevHash' | 'lastLineOffset' | 'lastLineLength'>;
type FedEnd = Pick<LineFeeder, 'fedOffset' | 'pendingOffset' | 'pendingBytes'>;

/** The bytes read after the last complete line are no longer the file's there. */
function pendingChanged(source: ByteSource, feeder: FedEnd): boolean {
  const pending = feeder.pendingBytes();
  return pending.length > 0 && !readRange(source, feeder.pendingOffset, pending.length).equals(pending);
}

/**
 * The cheap check a writer holding the lock makes before it reads what was appended: the `\n`
 * that ends the last complete line is still there, the pending tail is unchanged.
 */
export function tailLooksKept(source: ByteSource, r: ReadEnd, feeder: FedEnd): boolean {
  if (r.lastLineOffset >= 0 && readRange(source, r.lastLineOffset + r.lastLineLength, 1)[0] !== 10) return false;
  return !pendingChanged(source, feeder);
}

/** Checks the tail of what was read: the last complete line and any pending bytes. */
export function continuityBroken(
  source: ByteSource,
  r: ReadEnd,
  feeder: FedEnd,
  size: number,
): 'shrunk' | 'rewritten' | null {
  if (size < feeder.fedOffset) return 'shrunk';
  if (r.lastLineOffset >= 0) {
    const line = readRange(source, r.lastLineOffset, r.lastLineLength + 1);
    if (line[r.lastLineLength] !== 10) return 'rewritten';
    if (hash('sha256', line.subarray(0, r.lastLineLength), 'hex') !== r.prevHash) return 'rewritten';
  }
  if (pendingChanged(source, feeder)) return 'rewritten';
  return null;
}

/**
 * Under the lock (§7): whether the last complete line read is still there, byte for byte, and the
 * file ends where the reading ends (a pending torn tail included). Null when it does, else what differs.
 */
export function tailDiffers(source: ByteSource, r: ReadEnd, feeder: FedEnd): string | null {
  const size = source.size();
  if (size !== feeder.fedOffset) return `the file is ${size} bytes, not the ${feeder.fedOffset} read`;
  if (r.lastLineOffset >= 0) {
    const line = readRange(source, r.lastLineOffset, r.lastLineLength + 1);
    if (line[r.lastLineLength] !== 10 || hash('sha256', line.subarray(0, r.lastLineLength), 'hex') !== r.prevHash) {
      return `its last line (line ${r.lines}) is not the one read`;
    }
  }
  if (pendingChanged(source, feeder)) return 'its unterminated last line changed';
  return null;
}

/**
 * The §8 warnings of where the reading ends: no complete line 1, or a last line without its `\n`.
 * None while the last read stopped short of the file's end (`stoppedShort`: more is to be read).
 */
export function tailWarnings(
  r: Pick<LineReader, 'lines'>,
  feeder: Pick<LineFeeder, 'pendingLength' | 'pendingOffset'>,
  stoppedShort: boolean,
): LedgerWarning[] {
  const out: LedgerWarning[] = [];
  if (r.lines === 0 && !stoppedShort) {
    out.push({ code: 'missing_header', line: 1, offset: 0, message: 'the file has no complete line 1' });
  }
  const pending = feeder.pendingLength;
  if (pending > 0 && !stoppedShort) {
    out.push({
      code: 'unterminated_tail',
      line: r.lines + 1,
      offset: feeder.pendingOffset,
      message: `last line (${pending} bytes) has no terminating \\n yet`,
    });
  }
  return out;
}
