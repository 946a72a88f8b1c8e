import { hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The benchmark's baseline: one pass through one reused buffer,
 * SHA-256 per line and JSON.parse per line, keeping nothing. Opening a ledger
 * (index + verified chain) is measured as a ratio to this.
 */
export function baselineRead(path: string): { lines: number } {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let carry: Buffer = Buffer.alloc(0);
  let lines = 0;
  let pos = 0;
  let sink = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      pos += n;
      let start = 0;
      let chunk = buf.subarray(0, n);
      if (carry.length > 0) {
        chunk = Buffer.concat([carry, chunk]);
        carry = Buffer.alloc(0);
      }
      for (;;) {
        const nl = chunk.indexOf(10, start);
        if (nl < 0) break;
        const line = chunk.subarray(start, nl);
        sink ^= hash('sha256', line, 'hex').charCodeAt(0);
        try {
          sink ^= JSON.parse(line.toString('utf8')) === null ? 1 : 0;
        } catch {
          sink ^= 2;
        }
        lines++;
        start = nl + 1;
      }
      if (start < chunk.length) carry = Buffer.from(chunk.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
  if (sink === 0.5) console.log('unreachable');
  return { lines };
}
