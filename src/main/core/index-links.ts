/**
 * The checks a kept index's entries must pass and the children links rebuilt from their parents
 * (restoreIndex, ledger-snapshot.ts). A reopen runs them over every entry before its first rows, in
 * code that has not run yet in that process: as a loop of ours, ~40 ms for the 100 MB bench session's
 * 36k entries (V8 interprets it until an optimized version is ready, which here came after the loop
 * ended); as WebAssembly (index-links.wat), compiled before it runs, 3-5 ms with its copies. Both give the same answer
 * on the same arrays (a property test runs both); the loop runs where WebAssembly cannot load.
 */
import { KNOWN_KINDS } from './entry-types';
import { INDEX_LINKS_WASM_BASE64 } from './index-links-wasm';
import { NO_PARENT, ORPHAN, UNKNOWN_KIND } from './ledger-index';
import { compileWasm, type CompiledWasm } from './wasm-module';

/** The arrays of an index's first `n` entries that are checked, and the links written. */
export interface EntryArrays {
  parent: Int32Array;
  kind: Uint8Array;
  offset: Float64Array;
  length: Uint32Array;
  line: Uint32Array;
  /** Written: each at least `n` long, every slot -1 (the links) or 0 (the counts) before. */
  firstChild: Int32Array;
  lastChild: Int32Array;
  nextSibling: Int32Array;
  childCount: Uint32Array;
}

/** What the first entry that fails a check fails; the checks run in this order per entry. */
export type LinkProblem = 'parent links' | 'kind codes' | 'offsets' | 'line numbers';
const PROBLEMS: readonly (LinkProblem | null)[] = [null, 'parent links', 'kind codes', 'offsets', 'line numbers'];

/**
 * Checks entries 0 … n-1 (parents earlier, known kind codes, offsets increasing and integral with
 * each line inside `coveredBytes`, line numbers increasing up to `lines`) and links each to its
 * parent, as LedgerIndex.add does. Returns the first problem, or null; the links are complete only then.
 */
export function linkEntries(a: EntryArrays, n: number, coveredBytes: number, lines: number): LinkProblem | null {
  const wasm = linkEntriesWasm(a, n, coveredBytes, lines);
  return wasm === undefined ? linkEntriesJs(a, n, coveredBytes, lines) : wasm;
}

/** linkEntries as a loop of ours (no call per entry: it runs cold). */
export function linkEntriesJs(a: EntryArrays, n: number, coveredBytes: number, lines: number): LinkProblem | null {
  const { parent, kind, offset, length, line, firstChild, lastChild, nextSibling, childCount } = a;
  let prevEnd = 0;
  let prevLine = 0;
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    const k = kind[i];
    const off = offset[i];
    if (!(p === NO_PARENT || p === ORPHAN || (p >= 0 && p < i))) return 'parent links';
    if (!(k < KNOWN_KINDS.length || k === UNKNOWN_KIND)) return 'kind codes';
    if (!(off >= prevEnd && Number.isInteger(off) && off + length[i] < coveredBytes)) return 'offsets';
    prevEnd = off + length[i] + 1;
    if (!(line[i] > prevLine && line[i] <= lines)) return 'line numbers';
    prevLine = line[i];
    if (p >= 0) {
      if (lastChild[p] < 0) firstChild[p] = i;
      else nextSibling[lastChild[p]] = i;
      lastChild[p] = i;
      childCount[p]++;
    }
  }
  return null;
}

interface LinkExports {
  link(
    from: number,
    to: number,
    kinds: number,
    covered: number,
    lines: number,
    parent: number,
    kind: number,
    offset: number,
    length: number,
    line: number,
    first: number,
    last: number,
    next: number,
    count: number,
  ): number;
}

/** The compiled module, or null where WebAssembly cannot load (then the loop runs). */
let compiled: CompiledWasm | null | undefined;

function linkModule(): CompiledWasm | null {
  if (compiled === undefined) compiled = compileWasm(INDEX_LINKS_WASM_BASE64);
  return compiled;
}

const PAGE = 65536;
/**
 * Entries whose arrays are in the module's memory at once (offsets 8 bytes, parents, lengths and lines
 * 4, kinds 1 each): a chunk at a time, so a 1M-entry reopen does not hold another copy of them all
 * (its peak memory is issue 9's bound). The links of every entry (4 arrays of 4 bytes) are there whole.
 */
const CHUNK = 65536;
const CHUNK_BYTES = CHUNK * (8 + 4 * 3 + 1);
/** A memory of its own per call, sized for it (a wasm32 memory holds at most 65,536 pages). */
const MAX_PAGES = 32768;

/** An instance with a memory of its own of at least `bytes` (zeroed), or null when there is none that big. */
function instanceFor(m: CompiledWasm, bytes: number): { memory: { buffer: ArrayBuffer }; exports: LinkExports } | null {
  const pages = Math.ceil((bytes + 64) / PAGE);
  if (pages > MAX_PAGES) return null;
  try {
    const memory = new m.api.Memory({ initial: pages, maximum: pages });
    return { memory, exports: new m.api.Instance(m.module, { env: { memory } }).exports as LinkExports };
  } catch {
    return null; // (no memory that big here: the JavaScript ways need none)
  }
}

/** linkEntries in WebAssembly, or undefined when it cannot run here (or `n` does not fit its memory). */
export function linkEntriesWasm(
  a: EntryArrays,
  n: number,
  coveredBytes: number,
  lines: number,
): LinkProblem | null | undefined {
  const m = linkModule();
  const instance = m === null ? null : instanceFor(m, CHUNK_BYTES + 16 * n);
  if (instance === null) return undefined;
  const { link } = instance.exports;
  const buf = instance.memory.buffer;
  // A chunk's inputs first (its offsets 8-byte aligned at 0, the kinds last), then every entry's links.
  const input = { offset: 0, parent: 8 * CHUNK, length: 12 * CHUNK, line: 16 * CHUNK, kind: 20 * CHUNK };
  const out = { first: CHUNK_BYTES, last: CHUNK_BYTES + 4 * n, next: CHUNK_BYTES + 8 * n, count: CHUNK_BYTES + 12 * n };
  new Int32Array(buf, out.first, 3 * n).fill(-1); // first, last, next (the counts are zeroed)
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK);
    new Float64Array(buf, input.offset, to - from).set(a.offset.subarray(from, to));
    new Int32Array(buf, input.parent, to - from).set(a.parent.subarray(from, to));
    new Uint32Array(buf, input.length, to - from).set(a.length.subarray(from, to));
    new Uint32Array(buf, input.line, to - from).set(a.line.subarray(from, to));
    new Uint8Array(buf, input.kind, to - from).set(a.kind.subarray(from, to));
    const code = link(
      from,
      to,
      KNOWN_KINDS.length,
      coveredBytes,
      lines,
      input.parent,
      input.kind,
      input.offset,
      input.length,
      input.line,
      out.first,
      out.last,
      out.next,
      out.count,
    );
    const problem = PROBLEMS[code];
    if (problem === undefined) throw new Error(`index-links: unexpected result ${code}`);
    if (problem !== null) return problem;
  }
  a.firstChild.set(new Int32Array(buf, out.first, n));
  a.lastChild.set(new Int32Array(buf, out.last, n));
  a.nextSibling.set(new Int32Array(buf, out.next, n));
  a.childCount.set(new Uint32Array(buf, out.count, n));
  return null;
}
