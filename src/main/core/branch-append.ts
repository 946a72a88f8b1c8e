import { closeSync, constants, fsyncSync, openSync, writeSync } from 'node:fs';
import { tryLockExclusive, unlock } from './flock';
import { Ledger } from './ledger';
import { uuidv7 } from './uuidv7';

/** Why a branch was refused. Nothing was written in any of these cases. */
export type BranchRefusal = 'locked' | 'unknown_parent' | 'empty_text' | 'unreadable';

export class BranchError extends Error {
  constructor(
    readonly reason: BranchRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'BranchError';
  }
}

export interface BranchResult {
  id: string;
  parentId: string;
  line: number;
  offset: number;
}

/**
 * §7, the explorer's only write: append one directive under `parentId`.
 * Takes the agent's flock, links to the last physical line (closing a torn
 * tail with `\n` in the same write), writes once with O_APPEND, fsyncs,
 * unlocks, and reads the line back.
 */
export function appendBranch(path: string, parentId: string, text: string, now = new Date()): BranchResult {
  if (text.trim().length === 0) throw new BranchError('empty_text', 'the directive is empty; nothing was written');

  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND);
  } catch (e) {
    throw new BranchError('unreadable', `cannot open ${path} for appending: ${(e as Error).message}`);
  }
  let id: string;
  try {
    if (tryLockExclusive(fd) === 'busy') {
      throw new BranchError(
        'locked',
        'an agent holds the lock on this session (it is running); nothing was written — try again when it stops',
      );
    }
    try {
      // Read under the lock so the hash we link to is the file's real last line.
      const ledger = Ledger.openSync(path);
      let tail: { hash: string | null; torn: boolean };
      try {
        if (ledger.indexOf(parentId) === undefined) {
          throw new BranchError(
            'unknown_parent',
            `entry ${parentId} is not an entry of this ledger; nothing was written`,
          );
        }
        tail = ledger.lastPhysicalLine();
      } finally {
        ledger.close();
      }
      id = uuidv7(now.getTime());
      const entry = {
        id,
        parent_id: parentId,
        ts: now.toISOString(),
        prev_hash: tail.hash,
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text }] },
      };
      const bytes = Buffer.from((tail.torn ? '\n' : '') + JSON.stringify(entry) + '\n', 'utf8');
      const n = writeSync(fd, bytes, 0, bytes.length);
      if (n !== bytes.length) throw new Error(`short write: ${n} of ${bytes.length} bytes`);
      fsyncSync(fd);
    } finally {
      unlock(fd);
    }
  } finally {
    closeSync(fd);
  }
  return readBack(path, id, parentId);
}

function readBack(path: string, id: string, parentId: string): BranchResult {
  const ledger = Ledger.openSync(path);
  try {
    const i = ledger.indexOf(id);
    const ix = ledger.index;
    // Not required to be the active leaf: the agent may have appended since we unlocked.
    if (i === undefined || ix.parentId(i) !== parentId) {
      throw new Error(`read-back failed: ${id} is not in the file under ${parentId}`);
    }
    return { id, parentId, line: ix.line[i], offset: ix.offset[i] };
  } finally {
    ledger.close();
  }
}
