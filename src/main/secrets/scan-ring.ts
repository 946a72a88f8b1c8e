/**
 * The batch buffers a reading thread shares with its secret scan thread: a few slots of shared
 * memory, each a batch's lines back to back and, beside them, each line's end, line number, entry
 * and file offset. The reading thread copies lines straight into a slot and posts only the slot's
 * number; the scan thread gates the lines where they lie and frees the slot. No buffer changes
 * hands and no array of numbers is cloned for a batch: a structured clone of a batch's four arrays
 * cost more than its bytes' copy, on both threads.
 *
 * A slot is FREE or HELD. Only the reading thread makes a slot HELD (it fills it, then hands it
 * over); only the thread holding it makes it FREE again (the scan thread once it took the lines,
 * or the reading thread for a batch it never handed over). When every slot is held (the scan
 * thread lags, or died with them) the reading thread does not wait: its batch goes the unshared
 * way, in a buffer of its own (scan-thread.ts).
 */

/**
 * Copies `src` into `dst` at `at`; returns its length. Where either is shared memory, V8's copies
 * (`copy`, `set`) go a word at a time (the copy must not tear for other threads), several times
 * slower than a plain copy: Node's `fill` with a buffer copies natively either way.
 */
export function copyBytes(src: Uint8Array, dst: Buffer, at: number): number {
  if (src.length > 0) dst.fill(src, at, at + src.length);
  return src.length;
}

const FREE = 0;
const HELD = 1;

/** The shared memory of a ring, as it crosses to the scan thread (workerData). */
export interface RingData {
  slots: number;
  slotBytes: number;
  /** Lines a slot's numbers have room for. */
  slotLines: number;
  /** Per slot: FREE or HELD (Int32, for Atomics). */
  state: SharedArrayBuffer;
  bytes: SharedArrayBuffer;
  /** Per slot, `slotLines` each: line ends, line numbers, entries (Uint32), file offsets (Float64). */
  ends: SharedArrayBuffer;
  lineNos: SharedArrayBuffer;
  entries: SharedArrayBuffer;
  offsets: SharedArrayBuffer;
}

/** A slot's lines as the scan thread sees them: views of the shared memory, valid while it holds the slot. */
export interface SlotLines {
  bytes: Buffer;
  ends: Uint32Array;
  lineNos: Uint32Array;
  entries: Uint32Array;
  offsets: Float64Array;
}

export class BatchRing {
  private readonly state: Int32Array;
  private readonly ends: Uint32Array;
  private readonly lineNos: Uint32Array;
  private readonly entries: Uint32Array;
  private readonly offsets: Float64Array;
  /** Where the next search for a free slot starts (slots are used in turn). */
  private next = 0;

  constructor(readonly data: RingData) {
    this.state = new Int32Array(data.state);
    this.ends = new Uint32Array(data.ends);
    this.lineNos = new Uint32Array(data.lineNos);
    this.entries = new Uint32Array(data.entries);
    this.offsets = new Float64Array(data.offsets);
  }

  /**
   * A ring of `slots` slots of `slotBytes` bytes, their bytes written once now (so a read's copies
   * land in pages already faulted in); null where this runtime has no shared memory.
   */
  static create(slots: number, slotBytes: number, slotLines: number): BatchRing | null {
    if (typeof SharedArrayBuffer !== 'function' || slots <= 0) return null;
    const n = slots * slotLines;
    const ring = new BatchRing({
      slots,
      slotBytes,
      slotLines,
      state: new SharedArrayBuffer(4 * slots),
      bytes: new SharedArrayBuffer(slots * slotBytes),
      ends: new SharedArrayBuffer(4 * n),
      lineNos: new SharedArrayBuffer(4 * n),
      entries: new SharedArrayBuffer(4 * n),
      offsets: new SharedArrayBuffer(8 * n),
    });
    new Uint8Array(ring.data.bytes).fill(0);
    return ring;
  }

  /** Reading thread: a free slot, now held (its bytes to fill), or null when every slot is held. */
  acquire(): { slot: number; bytes: Buffer } | null {
    const { slots } = this.data;
    for (let k = 0; k < slots; k++) {
      const slot = (this.next + k) % slots;
      if (Atomics.compareExchange(this.state, slot, FREE, HELD) !== FREE) continue;
      this.next = (slot + 1) % slots;
      return { slot, bytes: this.slotBytes(slot) };
    }
    return null;
  }

  /** The slot `bytes` is (a view `acquire` returned), or -1 when it is no slot of this ring. */
  slotOf(bytes: Uint8Array): number {
    if (bytes.buffer !== this.data.bytes) return -1;
    return Math.floor(bytes.byteOffset / this.data.slotBytes);
  }

  /** Reading thread: writes a filled slot's numbers beside its bytes, before handing it over. */
  write(
    slot: number,
    ends: readonly number[],
    lineNos: readonly number[],
    entries: readonly number[],
    offsets: readonly number[] | null,
  ): void {
    const at = slot * this.data.slotLines;
    if (ends.length > this.data.slotLines) throw new RangeError('more lines than a slot holds');
    this.ends.set(ends, at);
    this.lineNos.set(lineNos, at);
    this.entries.set(entries, at);
    if (offsets) this.offsets.set(offsets, at);
  }

  /** Scan thread: views of a held slot's first `lines` lines. */
  lines(slot: number, lines: number): SlotLines {
    const at = slot * this.data.slotLines;
    const bytes = lines > 0 ? this.ends[at + lines - 1] : 0;
    return {
      bytes: Buffer.from(this.data.bytes, slot * this.data.slotBytes, bytes),
      ends: this.ends.subarray(at, at + lines),
      lineNos: this.lineNos.subarray(at, at + lines),
      entries: this.entries.subarray(at, at + lines),
      offsets: this.offsets.subarray(at, at + lines),
    };
  }

  /** The thread holding `slot` is done with it (the lines taken, or never to be handed over). */
  release(slot: number): void {
    Atomics.store(this.state, slot, FREE);
  }

  /** Slots free now (tests). */
  get free(): number {
    let n = 0;
    for (let k = 0; k < this.data.slots; k++) if (Atomics.load(this.state, k) === FREE) n++;
    return n;
  }

  private slotBytes(slot: number): Buffer {
    return Buffer.from(this.data.bytes, slot * this.data.slotBytes, this.data.slotBytes);
  }
}
