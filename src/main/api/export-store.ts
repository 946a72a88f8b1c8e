/**
 * Exports being read in chunks: each an iterator of text pieces (src/main/export) that advances
 * only when its next chunk is asked for, so a 100 MB export costs one chunk of memory at a time
 * and is never one reply. An export is named by an unguessable id (serve mode's download URL
 * carries it), belongs to the client that began it (dropped when that client goes), and is
 * dropped once read to its end, when ended, or after EXPORT_IDLE_MS unread.
 */
import { randomBytes } from 'node:crypto';
import { EXPORT_CHUNK_CHARS, type ExportChunk } from '../../shared/api-features';
import { checkCancelled, type CancelSignal } from '../core/cancel';
import { ApiError } from './api-backend';

/** Exports one client may have open at once, and all clients together. */
export const MAX_EXPORTS_PER_CLIENT = 4;
export const MAX_EXPORTS = 16;
/** An export nobody read for this long is dropped (a download the browser abandoned). */
export const EXPORT_IDLE_MS = 5 * 60_000;

interface OpenExport {
  clientId: string;
  pieces: Iterator<string>;
  /** What is left of a piece longer than a chunk. */
  carry: string;
  lastRead: number;
}

export class ExportStore {
  private readonly open = new Map<string, OpenExport>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps `pieces` under a new id for `clientId`; refused when too many are open. */
  begin(clientId: string, pieces: Iterator<string>): string {
    this.dropIdle();
    const mine = [...this.open.values()].filter((e) => e.clientId === clientId).length;
    if (mine >= MAX_EXPORTS_PER_CLIENT || this.open.size >= MAX_EXPORTS) {
      throw new ApiError(
        'refused',
        `more than ${Math.min(mine, MAX_EXPORTS_PER_CLIENT)} exports are being saved: wait for one to finish`,
      );
    }
    const id = randomBytes(18).toString('base64url');
    this.open.set(id, { clientId, pieces, carry: '', lastRead: this.now() });
    return id;
  }

  /** The next chunk of export `id` (at most `maxChars` characters, never a split surrogate pair). */
  read(id: string, signal?: CancelSignal, maxChars = EXPORT_CHUNK_CHARS): ExportChunk {
    const e = this.open.get(id);
    if (e === undefined)
      throw new ApiError('not_found', 'no such export: it was read to its end, ended, or left unread too long');
    e.lastRead = this.now();
    const parts: string[] = [];
    let chars = 0;
    let done = false;
    try {
      let next = e.carry;
      e.carry = '';
      for (;;) {
        if (next.length > 0) {
          const room = maxChars - chars;
          if (next.length > room) {
            const cut = splitAt(next, room);
            if (cut > 0) parts.push(next.slice(0, cut));
            e.carry = next.slice(cut);
            chars += cut;
            break;
          }
          parts.push(next);
          chars += next.length;
          if (chars >= maxChars) break;
        }
        checkCancelled(signal);
        const r = e.pieces.next();
        if (r.done) {
          done = true;
          break;
        }
        next = r.value;
      }
    } catch (err) {
      // A failed or cancelled read leaves the export unusable (a piece may be lost): it is dropped.
      this.open.delete(id);
      throw err;
    }
    if (done) this.open.delete(id);
    return { text: parts.join(''), done };
  }

  /** Drops export `id`; true when it was there. */
  end(id: string): boolean {
    const e = this.open.get(id);
    if (e === undefined) return false;
    this.open.delete(id);
    e.pieces.return?.();
    return true;
  }

  /** The client went away: its exports are dropped. */
  dropClient(clientId: string): void {
    for (const [id, e] of this.open) if (e.clientId === clientId) this.end(id);
  }

  /** Exports open now (tests). */
  get size(): number {
    return this.open.size;
  }

  private dropIdle(): void {
    const now = this.now();
    for (const [id, e] of this.open) if (now - e.lastRead > EXPORT_IDLE_MS) this.end(id);
  }
}

/** Where to cut `s` to keep at most `room` characters: one less when that would split a surrogate pair. */
function splitAt(s: string, room: number): number {
  if (room <= 0) return 0;
  const c = s.charCodeAt(room - 1);
  return c >= 0xd800 && c <= 0xdbff ? room - 1 : room;
}
