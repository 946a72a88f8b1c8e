import { describe, expect, it } from 'vitest';
import { MemorySource, type ByteSource } from './byte-source';
import { LineWindow, WINDOW_BYTES } from './line-window';

/** A source that counts its reads. */
class Counted implements ByteSource {
  reads = 0;
  constructor(readonly inner: MemorySource) {}
  get label(): string {
    return this.inner.label;
  }
  get bytesRead(): number {
    return this.inner.bytesRead;
  }
  size(): number {
    return this.inner.size();
  }
  readInto(into: Buffer, offset: number, length: number): number {
    this.reads++;
    return this.inner.readInto(into, offset, length);
  }
  close(): void {}
}

/** `n` lines of about `size` bytes each (some multi-byte characters), and their offsets. */
function linesOf(n: number, size: number): { bytes: Buffer; at: [number, number][]; texts: string[] } {
  const texts = Array.from({ length: n }, (_, i) => `{"i":${i},"t":"${'é∑x'.repeat(size / 6)}"}`);
  const at: [number, number][] = [];
  let off = 0;
  for (const t of texts) {
    const len = Buffer.byteLength(t);
    at.push([off, len]);
    off += len + 1;
  }
  return { bytes: Buffer.from(texts.join('\n') + '\n'), at, texts };
}

describe('LineWindow: entries read a window at a time', () => {
  it('reads a chain of lines in file order with one read per window, each line exact', () => {
    const { bytes, at, texts } = linesOf(2000, 3000);
    const src = new Counted(new MemorySource(bytes));
    const w = new LineWindow(src);
    at.forEach(([o, l], i) => expect(w.text(o, l)).toBe(texts[i]));
    // The first line alone, then a window per WINDOW_BYTES (lines are not split across windows).
    expect(src.reads).toBeLessThanOrEqual(2 + Math.ceil(bytes.length / (WINDOW_BYTES - 4000)));
    expect(src.reads).toBeLessThan(at.length / 50);
  });

  it('skips over lines of other branches (small gaps) without reading them one by one', () => {
    const { bytes, at, texts } = linesOf(2000, 1000);
    const src = new Counted(new MemorySource(bytes));
    const w = new LineWindow(src);
    for (let i = 0; i < at.length; i += 3) expect(w.text(...at[i])).toBe(texts[i]);
    expect(src.reads).toBeLessThan(at.length / 3 / 50);
  });

  it('reads less ahead while its windows serve one line each (a few messages spread over a chain)', () => {
    const { bytes, at, texts } = linesOf(3000, 1000);
    const src = new Counted(new MemorySource(bytes));
    const w = new LineWindow(src);
    let asked = 0;
    // One line in 40 (~40 KB apart: each within SEQUENTIAL_GAP of the one before).
    for (let i = 0; i < at.length; i += 40) {
      expect(w.text(...at[i])).toBe(texts[i]);
      asked += at[i][1];
    }
    // Windows of 256 KB would read ~all 3 MB; halving down to 8 KB reads a few times what was asked.
    expect(src.bytesRead).toBeLessThan(4 * asked + 2 * WINDOW_BYTES);
    // And back to whole windows once lines come close together again.
    const reads = src.reads;
    for (let i = 0; i < 1000; i++) expect(w.text(...at[i])).toBe(texts[i]);
    expect(src.reads - reads).toBeLessThan(1000 / 20);
  });

  it('reads a lone line (a hover, the header) alone: the counted bytes are its own', () => {
    const { bytes, at, texts } = linesOf(200, 1000);
    const src = new Counted(new MemorySource(bytes));
    const w = new LineWindow(src);
    expect(w.text(...at[150])).toBe(texts[150]);
    expect(src.bytesRead).toBe(at[150][1]);
    expect(w.text(...at[3])).toBe(texts[3]); // backwards: not a continuation either
    expect(src.bytesRead).toBe(at[150][1] + at[3][1]);
  });

  it('reads a long line alone, and a line appended after a window was read', () => {
    const { bytes, at, texts } = linesOf(10, 1000);
    const mem = new MemorySource(bytes);
    const w = new LineWindow(mem);
    w.text(...at[0]);
    expect(w.text(...at[1])).toBe(texts[1]); // a window from line 1 to the file's end
    const long = `{"long":"${'y'.repeat(WINDOW_BYTES)}"}`;
    const grown = Buffer.concat([bytes, Buffer.from(long + '\n')]);
    mem.replace(grown);
    const before = mem.bytesRead;
    expect(w.text(bytes.length, Buffer.byteLength(long))).toBe(long);
    expect(mem.bytesRead - before).toBe(Buffer.byteLength(long));
    w.clear();
    expect(w.text(...at[9])).toBe(texts[9]);
  });
});
