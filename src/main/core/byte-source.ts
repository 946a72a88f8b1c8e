import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Where a ledger's bytes come from: a file (read by offset), or memory (tests, generators). */
export interface ByteSource {
  size(): number;
  /** Reads `length` bytes at `offset` into `into` (from 0); returns how many were read. */
  readInto(into: Buffer, offset: number, length: number): number;
  close(): void;
  readonly label: string;
}

export class FileSource implements ByteSource {
  private fd: number;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
  }
  get label(): string {
    return this.path;
  }
  size(): number {
    return fstatSync(this.fd).size;
  }
  readInto(into: Buffer, offset: number, length: number): number {
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, into, done, length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    return done;
  }
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

export class MemorySource implements ByteSource {
  readonly label = '<memory>';
  constructor(private bytes: Buffer) {}
  size(): number {
    return this.bytes.length;
  }
  readInto(into: Buffer, offset: number, length: number): number {
    const end = Math.min(this.bytes.length, offset + length);
    if (end <= offset) return 0;
    return this.bytes.copy(into, 0, offset, end);
  }
  /** Tests grow or replace the bytes to play a writer. */
  replace(bytes: Buffer): void {
    this.bytes = bytes;
  }
  close(): void {}
}

/** Reads a byte range into a fresh Buffer (for payloads and continuity checks). */
export function readRange(src: ByteSource, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const n = src.readInto(buf, offset, length);
  return n === length ? buf : buf.subarray(0, n);
}
