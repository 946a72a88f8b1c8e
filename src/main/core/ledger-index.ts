import { KNOWN_KINDS } from './entry-types';
import { grow } from './growable';

/**
 * The compact in-memory index of a ledger: one slot per accepted entry, held in
 * typed arrays (links, offsets, kind and role codes). Payloads are not kept: they
 * are read back by offset when asked for (see `Ledger.entry`).
 */

/** Kind codes: the index in KNOWN_KINDS; anything else is UNKNOWN_KIND (its name kept aside). */
export const UNKNOWN_KIND = 255;
const KIND_CODE = new Map<string, number>(KNOWN_KINDS.map((k, i) => [k, i]));
export const KIND = Object.fromEntries(KNOWN_KINDS.map((k, i) => [k, i])) as Record<
  (typeof KNOWN_KINDS)[number],
  number
>;

export function kindCode(kind: string): number {
  return KIND_CODE.get(kind) ?? UNKNOWN_KIND;
}

/** Parent slot values that are not an index. */
export const NO_PARENT = -1; // parent_id null: a root
export const ORPHAN = -2; // parent_id names no earlier valid entry

/** Bits of `flags`: what TurnIndex needs, decided once while reading. */
export const F_MESSAGE = 1; // a well-formed message entry
export const F_USER = 2;
export const F_ASSISTANT = 4;
export const F_TOOL = 8;
export const F_CONTROL = 16; // a control nudge: a user message whose meta.control is set (§4, §8)
export const F_HASH_MISMATCH = 32;
export const F_RESET = 64; // a compaction with reset_all: true
export const F_USAGE = 128; // a message with meta.usage (see `usage`)

/** How many of the last entries `recentIndexOf` compares before a lookup (a parent is nearly always the last). */
const RECENT = 4;

/** Whether each id is greater than the one before it (then none is there twice). */
export function idsIncrease(ids: readonly string[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1] < ids[i])) return false;
  return true;
}

export class LedgerIndex {
  count = 0;
  /** Entry ids by index (replaced whole only by restoreIndex). */
  ids: string[] = [];
  /**
   * Whether each id is greater than the one before it. vak's ids are UUIDv7 (time first), so they
   * increase in file order, and then the ids are their own index: an id is found by binary search
   * (`indexOf`), and a new one greater than the last is no repeat of any (`repeatOf`). No map is
   * made: it was ~2 lookups a line of a first read, the largest part of restoring a kept index
   * (36k ids: 26-38 ms in code still cold; 1M: ~0.5 s) and ~29 bytes an entry (1M: ~29 MB).
   */
  private idsIncrease = true;
  /**
   * Otherwise, id → index of the entries before `mapped`, mapped when needed: a lookup maps the
   * ones not yet mapped at once, and a session maps them between requests (`mapSomeIds`).
   */
  private readonly idMap = new Map<string, number>();
  private mapped = 0;
  parent = new Int32Array(1024);
  firstChild = new Int32Array(1024).fill(-1);
  lastChild = new Int32Array(1024).fill(-1);
  nextSibling = new Int32Array(1024).fill(-1);
  childCount = new Uint32Array(1024);
  kind = new Uint8Array(1024);
  flags = new Uint8Array(1024);
  line = new Uint32Array(1024);
  offset = new Float64Array(1024);
  length = new Uint32Array(1024);
  /** Recorded parent_id of orphans (their `parent` slot is ORPHAN). */
  readonly orphanParent = new Map<number, string>();
  /** Kind names of entries with UNKNOWN_KIND. */
  readonly unknownKind = new Map<number, string>();
  /**
   * `meta.usage` of message entries that carry one (flag F_USAGE): input, output,
   * cache read, cache write, 4 slots per entry. Typed, not objects: no garbage per line.
   */
  usage = new Uint32Array(4096);
  /**
   * Routing keys read once at index time so a projection parses only the
   * entries it uses: turn_card → turn_id, presentation → tool_use_id.
   */
  readonly routeKey = new Map<number, string>();
  /** compaction packet → [first_turn_id, last_turn_id]. */
  readonly packetRange = new Map<number, [string, string]>();
  /** Index of the header entry on line 1, or -1. */
  header = -1;

  /** §2: the newest valid entry in file order. */
  get activeLeaf(): number {
    return this.count - 1;
  }

  private ensure(n: number): void {
    if (n <= this.parent.length) return;
    const old = this.parent.length;
    this.parent = grow(this.parent, n, Int32Array);
    this.firstChild = grow(this.firstChild, n, Int32Array);
    this.lastChild = grow(this.lastChild, n, Int32Array);
    this.nextSibling = grow(this.nextSibling, n, Int32Array);
    this.firstChild.fill(-1, old);
    this.lastChild.fill(-1, old);
    this.nextSibling.fill(-1, old);
    this.childCount = grow(this.childCount, n, Uint32Array);
    this.kind = grow(this.kind, n, Uint8Array);
    this.flags = grow(this.flags, n, Uint8Array);
    this.line = grow(this.line, n, Uint32Array);
    this.offset = grow(this.offset, n, Float64Array);
    this.length = grow(this.length, n, Uint32Array);
    this.usage = grow(this.usage, n * 4, Uint32Array);
  }

  /** Adds an accepted entry; `parentIdx` is an index, NO_PARENT or ORPHAN. */
  add(
    id: string,
    parentIdx: number,
    kind: number,
    flags: number,
    line: number,
    offset: number,
    length: number,
  ): number {
    const i = this.count;
    this.ensure(i + 1);
    if (i > 0 && !(id > this.ids[i - 1])) this.idsIncrease = false;
    this.ids.push(id); // (searched while the ids increase; else mapped by the next lookup or between requests)
    this.parent[i] = parentIdx;
    this.kind[i] = kind;
    this.flags[i] = flags;
    this.line[i] = line;
    this.offset[i] = offset;
    this.length[i] = length;
    if (parentIdx >= 0) {
      if (this.lastChild[parentIdx] < 0) this.firstChild[parentIdx] = i;
      else this.nextSibling[this.lastChild[parentIdx]] = i;
      this.lastChild[parentIdx] = i;
      this.childCount[parentIdx]++;
    }
    this.count = i + 1;
    return i;
  }

  /** The index of the entry with this id, or undefined. */
  indexOf(id: string): number | undefined {
    if (this.idsIncrease) return this.searchIds(id);
    if (this.mapped < this.count) {
      this.lookupsThatMapped++;
      this.mapSomeIds(Infinity);
    }
    return this.idMap.get(id);
  }

  /** Binary search of ids that increase (compared as `idsIncrease` compared them: UTF-16 code units). */
  private searchIds(id: string): number | undefined {
    const ids = this.ids;
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = ids[mid];
      if (m === id) return mid;
      if (m < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** `indexOf` for an id about to be added (a reader's duplicate_id): nothing to look up when the ids increase past it. */
  repeatOf(id: string): number | undefined {
    const n = this.count;
    if (this.idsIncrease && (n === 0 || id > this.ids[n - 1])) return undefined;
    return this.indexOf(id);
  }

  /** `indexOf` that looks at the last few entries first: a new entry's parent (most often one of them). */
  recentIndexOf(id: string): number | undefined {
    const ids = this.ids;
    for (let i = this.count - 1, end = Math.max(0, this.count - RECENT); i >= end; i--) if (ids[i] === id) return i;
    return this.indexOf(id);
  }

  /**
   * Takes restored ids (restoreIndex: `ids` has no repeat, and `increase` tells whether each is
   * greater than the one before), mapped later if they do not increase. The reader adds no id it
   * holds already (duplicate_id): the map is the same.
   */
  adoptIds(ids: string[], increase: boolean): void {
    this.ids = ids;
    this.idMap.clear();
    this.mapped = 0;
    this.idsIncrease = increase;
  }

  /** Ids a lookup would map before it answers: 0 when they increase (searched) or are mapped. */
  get unmappedIds(): number {
    return this.idsIncrease ? 0 : this.count - this.mapped;
  }

  /**
   * Lookups that had to map the ids left unmapped before they could answer (the work-count tests:
   * mapping between requests may run at any moment, so `mappedIds` alone cannot tell who mapped).
   */
  lookupsThatMapped = 0;

  /** Ids in the map (the work-count tests: ids that increase are never mapped). */
  get mappedIds(): number {
    return this.mapped;
  }

  /** Maps up to `max` more ids, in file order (none when they increase); whether none is left. */
  mapSomeIds(max: number): boolean {
    if (this.idsIncrease) return true;
    const m = this.idMap;
    const ids = this.ids;
    const end = Math.min(this.count, this.mapped + max);
    for (let i = this.mapped; i < end; i++) m.set(ids[i], i);
    this.mapped = end;
    return end === this.count;
  }

  /** The children of an entry, in file order. */
  children(i: number): number[] {
    const out: number[] = [];
    for (let c = this.firstChild[i]; c >= 0; c = this.nextSibling[c]) out.push(c);
    return out;
  }

  /** The recorded parent_id of an entry (orphans keep theirs). */
  parentId(i: number): string | null {
    const p = this.parent[i];
    if (p >= 0) return this.ids[p];
    if (p === ORPHAN) return this.orphanParent.get(i) ?? null;
    return null;
  }

  kindName(i: number): string {
    const k = this.kind[i];
    return k === UNKNOWN_KIND ? (this.unknownKind.get(i) ?? 'unknown') : KNOWN_KINDS[k];
  }

  /** Entries with more than one child, in file order. */
  branchPoints(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.childCount[i] > 1) out.push(i);
    return out;
  }

  /** Entries with no children, in file order. */
  leaves(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.childCount[i] === 0) out.push(i);
    return out;
  }
}
