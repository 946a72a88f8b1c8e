/** FNV-1a 64-bit over bytes, as lowercase hex padded to 16 digits (LEDGER.md §1 `<cwd-hash>`). */
const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

function fnv1a64Hex(bytes: Uint8Array): string {
  let h = OFFSET_BASIS;
  for (const b of bytes) {
    h ^= BigInt(b);
    h = (h * PRIME) & MASK;
  }
  return h.toString(16).padStart(16, '0');
}

/** The folder name vak uses for a working directory: FNV-1a 64 of its UTF-8 path. */
export function cwdHash(cwd: string): string {
  return fnv1a64Hex(new TextEncoder().encode(cwd));
}
