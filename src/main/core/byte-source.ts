import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile } from './safe-open';

/** Where a ledger's bytes come from: a file (read by offset), or memory (tests, generators). */
export interface ByteSource {
  size(): number;
  /** Reads `length` bytes at `offset` into `into` (from 0); returns how many were read. */
  readInto(into: Buffer, offset: number, length: number): number;
  close(): void;
  readonly label: string;
  /** Bytes read through this source so far (work counters: what a refresh or a branch read). */
  readonly bytesRead: number;
  /** The file's size and change times now (a file only: memory has none, so every change event checks it). */
  stamp?(): FileStamp;
}

/** What a stat tells of a file's content without reading it: same stamp, no write since (but see Ledger's racy rule). */
export interface FileStamp {
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/**
 * A ledger file, read by offset through one descriptor. Only a regular file is ever
 * opened (a FIFO named *.jsonl would block the reading thread forever): see safe-open.
 */
export class FileSource implements ByteSource {
  private fd: number;
  bytesRead = 0;
  /** Opens `path` (links followed) if it is a regular file; throws NotRegularFileError otherwise. */
  constructor(
    readonly path: string,
    fd?: number,
  ) {
    this.fd = fd ?? openRegularFile(path).fd;
  }
  /** A source over a descriptor already opened and checked (openSessionFile); it is closed with the source. */
  static fromFd(fd: number, path: string): FileSource {
    return new FileSource(path, fd);
  }
  get label(): string {
    return this.path;
  }
  size(): number {
    return fstatSync(this.fd).size;
  }
  stamp(): FileStamp {
    const st = fstatSync(this.fd, { bigint: true });
    return { size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
  }
  /** The file's device and inode (a branch checks it writes to the very file it read). */
  identity(): { dev: number; ino: number } {
    const st = fstatSync(this.fd);
    return { dev: st.dev, ino: st.ino };
  }
  readInto(into: Buffer, offset: number, length: number): number {
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, into, done, length - done, offset + done);
      if (n === 0) break;
      done += n;
    }
    this.bytesRead += done;
    return done;
  }
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

export class MemorySource implements ByteSource {
  readonly label = '<memory>';
  bytesRead = 0;
  constructor(private bytes: Buffer) {}
  size(): number {
    return this.bytes.length;
  }
  readInto(into: Buffer, offset: number, length: number): number {
    const end = Math.min(this.bytes.length, offset + length);
    if (end <= offset) return 0;
    const n = this.bytes.copy(into, 0, offset, end);
    this.bytesRead += n;
    return n;
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
