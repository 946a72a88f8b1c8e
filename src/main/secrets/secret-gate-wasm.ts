/**
 * The gate (secret-gate.ts) over a whole batch of lines at once, in WebAssembly with 128-bit SIMD
 * (wasm/secret-gate.wat) where the runtime has it: the same answer for every line as
 * `mayHoldSecretBytes`, which stays the reference and the fallback. The module decides the run
 * rule itself and marks the lines that hold a sign of the other checks (`@` with `://`, `_aut`, ` KEY`); only
 * those are checked again here, exactly, by `mayHoldSecretSigns`.
 */
import { mayHoldSecretBytes, mayHoldSecretSigns } from './secret-gate';
import { SECRET_GATE_WASM } from './wasm/secret-gate-wasm.generated';

export type GateKind = 'wasm' | 'js';

export interface LineGate {
  readonly kind: GateKind;
  /**
   * Per line of `all` (line k ends at `ends[k]` and starts where line k−1 ends, or at 0): 1 when
   * it may hold a secret, else 0.
   */
  gateLines(all: Uint8Array, ends: ArrayLike<number>): Uint8Array;
}

/** The module reads this far past a batch's last byte (its last 64-byte chunk, and three more). */
const PAD = 80;
/**
 * Batches beyond this many bytes (a line of tens of MB) are gated in JavaScript: the module's
 * memory, which never shrinks, stays the size of an ordinary batch.
 */
const MAX_WASM_BATCH = 16 << 20;

function lineAt(all: Uint8Array, ends: ArrayLike<number>, k: number): Uint8Array {
  return all.subarray(k === 0 ? 0 : ends[k - 1], ends[k]);
}

/** `mayHoldSecretBytes` line by line. */
export const jsLineGate: LineGate = {
  kind: 'js',
  gateLines(all, ends) {
    const out = new Uint8Array(ends.length);
    for (let k = 0; k < ends.length; k++) out[k] = mayHoldSecretBytes(lineAt(all, ends, k)) ? 1 : 0;
    return out;
  },
};

interface GateExports {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  gate(ends: number, n: number, out: number): void;
}

/** The part of the WebAssembly API used here (the main process's types do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

/** The WebAssembly gate, or null where WebAssembly (or its SIMD) is not available. */
export function wasmLineGate(): LineGate | null {
  let exports: GateExports;
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    const bytes = Buffer.from(SECRET_GATE_WASM, 'base64');
    // Without SIMD (or WebAssembly at all) the module does not validate: the JavaScript gate runs.
    if (!wasm?.validate(bytes)) return null;
    exports = new wasm.Instance(new wasm.Module(bytes)).exports as GateExports;
  } catch {
    return null;
  }
  const { memory, gate } = exports;
  return {
    kind: 'wasm',
    gateLines(all, ends) {
      const n = ends.length;
      const bytes = n > 0 ? ends[n - 1] : 0;
      if (bytes > MAX_WASM_BATCH) return jsLineGate.gateLines(all, ends);
      const endsAt = (bytes + PAD + 3) & ~3;
      const outAt = endsAt + 4 * n;
      const need = outAt + n;
      if (need > memory.buffer.byteLength) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
      const mem = new Uint8Array(memory.buffer);
      mem.set(all.subarray(0, bytes), 0);
      new Uint32Array(memory.buffer, endsAt, n).set(ends);
      gate(endsAt, n, outAt);
      const out = mem.slice(outAt, outAt + n);
      for (let k = 0; k < n; k++) if (out[k] === 2) out[k] = mayHoldSecretSigns(lineAt(all, ends, k)) ? 1 : 0;
      return out;
    },
  };
}

let chosen: LineGate | null = null;

/** This thread's gate: the WebAssembly one when it loads, else the JavaScript one. */
export function lineGate(): LineGate {
  chosen ??= wasmLineGate() ?? jsLineGate;
  return chosen;
}
