/** Types of scripts/build-wasm.mjs for the TypeScript callers (scripts/build-wasm.test.ts). */
export interface WasmModule {
  wat: string;
  out: string;
  name: string;
}
export const MODULES: WasmModule[];
export function wasmModuleText(m: WasmModule): Promise<string>;
