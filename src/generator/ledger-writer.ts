import { hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Rng } from './rng';

/** The fields a generated entry carries besides the five common ones. */
export type Payload = Record<string, unknown>;

/**
 * Writes a hash-linked ledger (LEDGER.md §2): every line's prev_hash is the
 * SHA-256 of the previous line's bytes. Output goes to memory or, batched, to a file.
 */
export class LedgerWriter {
  private prevHash: string | null = null;
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  private fd: number | null = null;
  bytes = 0;
  entries = 0;
  /** Milliseconds of the fake clock; entries get increasing ts and UUIDv7 ids from it. */
  clock: number;

  constructor(
    private readonly rng: Rng,
    startMs: number,
    path?: string,
  ) {
    this.clock = startMs;
    if (path) this.fd = openSync(path, 'w');
  }

  /** A UUIDv7 from the fake clock and the seeded RNG. */
  newId(): string {
    const ms = this.clock.toString(16).padStart(12, '0');
    const r = this.rng.hex(19);
    const variant = '89ab'[this.rng.int(0, 3)];
    return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${r.slice(0, 3)}-${variant}${r.slice(3, 6)}-${r.slice(6, 18)}`;
  }

  /** Appends one entry and returns its id (a new UUIDv7 unless `id` names one). */
  append(kind: string, parentId: string | null, payload: Payload, advanceMs = 1000, id?: string): string {
    this.clock += advanceMs;
    id ??= this.newId();
    const line = JSON.stringify({
      id,
      parent_id: parentId,
      ts: new Date(this.clock).toISOString(),
      prev_hash: this.prevHash,
      kind,
      ...payload,
    });
    const bytes = Buffer.from(line, 'utf8');
    this.prevHash = hash('sha256', bytes, 'hex');
    this.push(bytes);
    this.push(NEWLINE);
    this.entries++;
    return id;
  }

  private push(b: Buffer): void {
    this.chunks.push(b);
    this.pendingBytes += b.length;
    this.bytes += b.length;
    if (this.fd !== null && this.pendingBytes >= 4 << 20) this.flush();
  }

  private flush(): void {
    if (this.fd === null || this.chunks.length === 0) return;
    const all = Buffer.concat(this.chunks);
    writeSync(this.fd, all);
    this.chunks = [];
    this.pendingBytes = 0;
  }

  /** Ends the ledger: closes the file, or returns the bytes when writing to memory. */
  finish(): Buffer {
    if (this.fd !== null) {
      this.flush();
      closeSync(this.fd);
      this.fd = null;
      return Buffer.alloc(0);
    }
    return Buffer.concat(this.chunks);
  }
}

const NEWLINE = Buffer.from('\n');
