/**
 * The core's WebAssembly modules (json-skim.wat, index-links.wat) compiled from the base64 their
 * generated *-wasm.ts hold (scripts/build-wasm.mjs): once per module and thread, or null where
 * WebAssembly cannot load them (the callers then do the same work in JavaScript).
 */

/** The part of the WebAssembly API the core uses (declared by the DOM lib, which the main process's tsconfig has not). */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: unknown };
  Memory: new (desc: { initial: number; maximum?: number }) => { buffer: ArrayBuffer };
}

export interface CompiledWasm {
  api: WasmApi;
  module: object;
}

/** Compiles a module from its bytes in base64, or null when this runtime cannot. */
export function compileWasm(base64: string): CompiledWasm | null {
  try {
    const api = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    return { api, module: new api.Module(Buffer.from(base64, 'base64')) };
  } catch {
    return null;
  }
}
