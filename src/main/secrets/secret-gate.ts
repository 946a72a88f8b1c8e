/**
 * The gate in front of the rules (secret-rules.ts): what could hold a match of the preset, decided
 * in one pass with nothing loaded, so the scan thread can gate each line the moment it arrives.
 */

/** Per byte: 0 ends a run, HEX a hex digit or `-`, NON_HEX another letter or `_` (one load a byte). */
const HEX = 1;
const NON_HEX = 2;
const WORD = new Uint8Array(256);
for (let c = 0; c < 128; c++) {
  if ((c >= 48 && c <= 57) || c === 45 || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)) WORD[c] = HEX;
  else if ((c >= 103 && c <= 122) || (c >= 71 && c <= 90) || c === 95) WORD[c] = NON_HEX;
}

/**
 * Whether a text could hold anything the preset matches, cheaply (one pass over its characters):
 * each rule needs a run of at least 16 letters, digits, `_` or `-` that is not only hex digits and
 * dashes (a key with its prefix, or its variable's name; ids and hashes are such hex runs), a
 * `://…:…@` (credentials in URLs and connection strings), a PEM header or npm's `_authToken`. (The
 * AWS rule's account id check, which looks for `account` names, is off in the preset as the
 * explorer runs it: see secret-rules.test.ts.) A gate only, so most text is never handed to the rules; the fixture's
 * recall (docs/secrets.md) is measured through it, and a JSON key (a run before `":`) is no token.
 */
export function mayHoldSecret(text: string): boolean {
  return mayHoldSecretBytes(Buffer.from(text, 'utf8'));
}

/**
 * `mayHoldSecret` over a line's bytes as read, with no string made of them (the scan thread gates
 * every line as it arrives). UTF-8 keeps ASCII as it is and writes every other character as bytes
 * of 0x80 and above, which no rule's run, name or header holds: the same answer as on the text.
 */
export function mayHoldSecretBytes(b: Uint8Array): boolean {
  const n = b.length;
  // A run of 16 or more covers three whole aligned 4-byte words in a row, one of them at an index
  // ≡ 2 (mod 3): only those words are looked at first, four bytes at once (two pairs). Where one
  // is all word bytes and so are neighbours making three in a row, the run around it is measured
  // byte by byte and skipped. Most of a session's bytes (prose, code, escapes) are never loaded
  // one by one.
  const head = (4 - (b.byteOffset & 3)) & 3;
  const words = n > head ? (n - head) >> 2 : 0;
  if (words >= 3) {
    const h = new Uint16Array(b.buffer, b.byteOffset + head, words << 1);
    // Word k is all word bytes: both its halves are.
    const all = (k: number): boolean => (PAIR[h[k << 1]] & PAIR[h[(k << 1) + 1]]) !== 0;
    for (let k = 2; k < words;) {
      if (!all(k)) {
        k += 3;
        continue;
      }
      const before = all(k - 1);
      const after = k + 1 < words && all(k + 1);
      if (!((before && (after || all(k - 2))) || (after && k + 2 < words && all(k + 2)))) {
        k += 3;
        continue;
      }
      const e = runAt(b, head + (k << 2));
      if (e < 0) return true;
      // The next run starts after e's byte (not a word byte): its three words start after it.
      const next = (e + 1 - head + 3) >> 2;
      k = next + ((((2 - next) % 3) + 3) % 3);
    }
  }
  return mayHoldSecretSigns(b);
}

/**
 * The gate's checks other than the run: `://…:…@`, a PEM header, `_authToken`. Apart, so that the
 * WebAssembly gate (secret-gate-wasm.ts), which decides the run itself, asks only this.
 */
export function mayHoldSecretSigns(b: Uint8Array): boolean {
  // Native searches; `://` (its `:` is everywhere in JSON) only in a line with an `@`.
  const bytes = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (bytes.includes(AT)) {
    for (let at = bytes.indexOf(SCHEME); at >= 0; at = bytes.indexOf(SCHEME, at + 3)) {
      if (credentialsAfter(b, at + 3)) return true;
    }
  }
  return bytes.includes(PEM) || bytes.includes(AUTH_TOKEN);
}

/**
 * The run of word bytes around `at` (a word byte): -1 when it could hold a token (16 or more, not
 * only hex digits and dashes, no JSON key), else where it ends (a byte that is no word byte, or n).
 */
function runAt(b: Uint8Array, at: number): number {
  const n = b.length;
  let kinds = WORD[b[at]];
  let s = at;
  while (s > 0) {
    const k = WORD[b[s - 1]];
    if (k === 0) break;
    kinds |= k;
    s--;
  }
  let e = at + 1;
  while (e < n) {
    const k = WORD[b[e]];
    if (k === 0) break;
    kinds |= k;
    e++;
  }
  // A JSON key (a run before `":`) is no token.
  if (e - s >= 16 && kinds & NON_HEX && !(e < n && b[e] === 34 && b[e + 1] === 58)) return -1;
  return e;
}

/** Per pair of bytes (a Uint16 as loaded): 1 when both are word bytes (two loads test four bytes). */
const PAIR = new Uint8Array(1 << 16);
for (let v = 0; v < 1 << 16; v++) PAIR[v] = WORD[v & 255] !== 0 && WORD[v >> 8] !== 0 ? 1 : 0;

const AT = 64;
const SCHEME = Buffer.from('://');
const PEM = Buffer.from('PRIVATE KEY');
const AUTH_TOKEN = Buffer.from('_authToken');

/** `user:password@` right after a `://` at `k` (before any space, slash or quote). */
function credentialsAfter(b: Uint8Array, k: number): boolean {
  let colon = false;
  for (let j = k; j < b.length && j < k + 512; j++) {
    const c = b[j];
    if (c === 58) colon = true;
    else if (c === 64) return colon;
    else if (c <= 32 || c === 47 || c === 34 || c === 39) return false;
  }
  return false;
}
