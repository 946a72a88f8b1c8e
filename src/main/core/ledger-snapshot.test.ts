import fc from 'fast-check';
import { hash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession } from '../../generator';
import { FIXTURES } from '../../test-support/fixtures';
import { useTempDir } from '../../test-support/temp-dir';
import { FileSource } from './byte-source';
import { Ledger } from './ledger';
import { idsDiffer, snapshotMismatch, SnapshotInvalidError, type LedgerSnapshot } from './ledger-snapshot';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec';
import { TreeLayout } from './tree-layout';
import { turnColumns, type KeptTurns } from './kept-turns';

const tmp = useTempDir();
const KEY = { realPath: '/x/s.jsonl', dev: 1, ino: 2 };

/** Everything the reader reports about a file, as plain data to compare. */
function readingOf(l: Ledger): unknown {
  const ix = l.index;
  const n = ix.count;
  return {
    warnings: l.warnings(),
    count: n,
    activeLeaf: ix.activeLeaf,
    header: ix.header,
    ids: ix.ids,
    byId: ix.ids.slice(0, n).map((id) => [id, ix.indexOf(id)]),
    arrays: [
      ix.parent,
      ix.firstChild,
      ix.lastChild,
      ix.nextSibling,
      ix.childCount,
      ix.kind,
      ix.flags,
      ix.line,
      ix.offset,
      ix.length,
    ].map((a) => [...a.subarray(0, n)]),
    usage: [...ix.usage.subarray(0, n * 4)],
    maps: [ix.orphanParent, ix.unknownKind, ix.routeKey, ix.packetRange].map((m) => [...m]),
    leaves: ix.leaves(),
    branchPoints: ix.branchPoints(),
    lastLineHash: l.lastLineHash,
    lastPhysicalLine: l.lastPhysicalLine(),
    pending: l.hasPendingTail,
    bytesRead: l.bytesRead,
    linesRead: l.linesRead,
  };
}

/** A snapshot through its file bytes, as a reopen gets it. */
function kept(l: Ledger): LedgerSnapshot {
  const snap = l.snapshot();
  if (!snap) throw new Error('nothing to keep');
  return decodeSnapshot(encodeSnapshot(snap, KEY)).snapshot;
}

/** A valid ledger whose ids do not increase in file order (vak's do: UUIDv7), a branch among them. */
function unorderedFile(): string {
  const ids = ['h', 'm', 'c', 'x', 'b', 'q', 'a', 'k', 'd'];
  const lines: string[] = [];
  ids.forEach((id, k) => {
    const parent = k === 0 ? null : ids[k === 5 ? 2 : k - 1];
    const prev = k === 0 ? null : hash('sha256', lines[k - 1], 'hex');
    const kind = k === 0 ? 'header' : 'message';
    const message = { role: 'user', content: [{ type: 'text', text: id }] };
    lines.push(JSON.stringify({ id, parent_id: parent, ts: 't', prev_hash: prev, kind, ...(k > 0 && { message }) }));
  });
  const file = join(tmp(), 'unordered.jsonl');
  writeFileSync(file, lines.map((l) => l + '\n').join(''));
  return file;
}

/** Reads `prefix` of `bytes` into a file, keeps its snapshot, appends the rest, resumes. */
async function resumedAfterAppend(bytes: Buffer, cut: number): Promise<{ resumed: Ledger; snap: LedgerSnapshot }> {
  const file = join(tmp(), 's.jsonl');
  writeFileSync(file, bytes.subarray(0, cut));
  const first = Ledger.openSync(file);
  const snap = kept(first);
  first.close();
  appendFileSync(file, bytes.subarray(cut));
  const source = new FileSource(file);
  expect(snapshotMismatch(source, snap)).toBeNull();
  return { resumed: await Ledger.resume(source, snap), snap };
}

/** A generated session with every kind of damage the reader reports, and a torn tail. */
function damagedSession(): Buffer {
  const g = generateSession({ seed: 9, entries: 1500, cwd: '/home/ana/projects/vak', branchChance: 0.05 });
  const lines = g.bytes.toString('utf8').split('\n');
  lines.pop(); // the final ''
  const dup = lines[100];
  lines[200] = lines[200].replace('"prev_hash":"', '"prev_hash":"00'); // hash_mismatch
  lines.splice(300, 0, '{"torn": tru'); // torn_line (and the next line's prev_hash breaks)
  lines.splice(400, 0, dup); // duplicate_id
  lines.splice(500, 0, '{"id":5}'); // invalid_entry
  lines.splice(
    600,
    0,
    lines[599].replace(/"parent_id":"[^"]*"/, '"parent_id":"nobody"').replace(/"id":"[^"]*"/, '"id":"orphan-1"'),
  );
  lines.splice(
    700,
    0,
    lines[699].replace(/"kind":"[^"]*"/, '"kind":"future_kind"').replace(/"id":"[^"]*"/, '"id":"unknown-1"'),
  );
  return Buffer.from(lines.join('\n') + '\n{"id":"half', 'utf8');
}

describe('a kept index resumes exactly where a full read would be', () => {
  it('on every fixture: snapshot, encode, decode, resume = the full read', async () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const file = join(FIXTURES, f);
      const full = Ledger.openSync(file);
      const snap = full.snapshot();
      if (snap === null) {
        console.log(`${f}: no complete line, nothing to keep`);
        continue;
      }
      const source = new FileSource(file);
      const resumed = await Ledger.resume(source, decodeSnapshot(encodeSnapshot(snap, KEY)).snapshot);
      expect(readingOf(resumed), f).toEqual(readingOf(full));
      // A complete file: the only bytes read are the ones after the kept last line (none, or a torn tail).
      expect(resumed.stats.bytesRead, f).toBe(full.bytesRead - snap.coveredBytes);
      expect(resumed.stats.linesParsed, f).toBe(0);
      full.close();
      resumed.close();
    }
  });

  it('on a damaged generated session, with appends after the kept part (cut anywhere, even mid-line)', async () => {
    const bytes = damagedSession();
    const file = join(tmp(), 'whole.jsonl');
    writeFileSync(file, bytes);
    const full = Ledger.openSync(file);
    const codes = new Set(full.warnings().map((w) => w.code));
    for (const c of [
      'hash_mismatch',
      'torn_line',
      'duplicate_id',
      'invalid_entry',
      'orphan',
      'unknown_kind',
      'unterminated_tail',
    ]) {
      expect(codes, c).toContain(c);
    }
    for (const cut of [
      bytes.indexOf('\n') + 50,
      Math.floor(bytes.length / 3),
      bytes.indexOf('{"torn"') + 3,
      bytes.length - 5,
      bytes.length,
    ]) {
      const { resumed, snap } = await resumedAfterAppend(bytes, cut);
      expect(readingOf(resumed), `cut at ${cut}`).toEqual(readingOf(full));
      // Work-count invariant: a reopen reads the kept last line (to check its hash), then only the bytes after it.
      expect(resumed.stats.bytesRead, `cut at ${cut}`).toBe(snap.lastLineLength + 1 + bytes.length - snap.coveredBytes);
      expect(resumed.stats.linesParsed).toBe(resumed.linesRead - snap.lines);
      resumed.close();
    }
    full.close();
  });

  it('a refresh after a resume goes on as after a full read', async () => {
    const bytes = damagedSession();
    const cut = bytes.indexOf('\n', Math.floor(bytes.length / 2)) + 1;
    const { resumed } = await resumedAfterAppend(bytes.subarray(0, cut + 20_000), cut);
    appendFileSync(resumed.path, bytes.subarray(cut + 20_000));
    await resumed.refresh();
    const whole = join(tmp(), 'whole.jsonl');
    writeFileSync(whole, bytes);
    expect(readingOf(resumed)).toEqual(readingOf(Ledger.openSync(whole)));
  });
});

describe('a kept index that no longer fits the file is not used', () => {
  it('reports a truncated file and a rewritten last line', () => {
    const bytes = damagedSession();
    const file = join(tmp(), 's.jsonl');
    writeFileSync(file, bytes);
    const snap = kept(Ledger.openSync(file));
    writeFileSync(file, bytes.subarray(0, snap.coveredBytes - 10));
    expect(snapshotMismatch(new FileSource(file), snap)).toMatch(/shrank/);
    const changed = Buffer.from(bytes);
    changed[snap.lastLineOffset + 10] ^= 1;
    writeFileSync(file, changed);
    expect(snapshotMismatch(new FileSource(file), snap)).toMatch(/changed/);
    const shifted = Buffer.concat([Buffer.from('\n'), bytes]);
    writeFileSync(file, shifted);
    expect(snapshotMismatch(new FileSource(file), snap)).not.toBeNull();
  });

  it('refuses a damaged or foreign kept index file', () => {
    const l = Ledger.openSync(join(FIXTURES, 'branching.jsonl'));
    const snap = l.snapshot();
    if (!snap) throw new Error('fixture has lines');
    const good = encodeSnapshot(snap, KEY);
    expect(decodeSnapshot(good).key).toEqual(KEY);
    const flipped = Buffer.from(good);
    flipped[40] ^= 1;
    expect(() => decodeSnapshot(flipped)).toThrow(SnapshotInvalidError);
    expect(() => decodeSnapshot(good.subarray(0, good.length - 1))).toThrow(SnapshotInvalidError);
    expect(() => decodeSnapshot(Buffer.from('not a kept index at all, just some bytes'))).toThrow(SnapshotInvalidError);
    const other = Buffer.from(good);
    other.writeUInt32LE(999, 4);
    expect(() => decodeSnapshot(other)).toThrow(/format 999/);
  });

  it("carries the active chain's work fold, and refuses one that does not fit the entries", () => {
    const l = Ledger.openSync(join(FIXTURES, 'branching.jsonl'));
    const snap = kept(l);
    const item = {
      work_id: 'w1',
      state: { nested: ['any', 'json'] },
      last_event: 'started',
      detail: null,
      events: 2,
      first_entry: l.index.ids[1],
      last_entry: l.index.ids[2],
      last_ts: '2026-12-01T00:00:00.000Z',
    };
    const work = { tip: 2, items: [item] };
    expect(decodeSnapshot(encodeSnapshot(snap, KEY, { work, turns: null, layout: null })).work).toEqual(work);
    expect(decodeSnapshot(encodeSnapshot(snap, KEY)).work).toBeNull();
    // A fold past the snapshot's entries is not kept at all.
    expect(
      decodeSnapshot(encodeSnapshot(snap, KEY, { work: { tip: snap.count, items: [item] }, turns: null, layout: null }))
        .work,
    ).toBeNull();
    for (const bad of [
      { tip: -1, items: [item] },
      { tip: 1.5, items: [item] },
      { tip: 0, items: [{ ...item, events: 0 }] },
      { tip: 0, items: [{ ...item, work_id: 7 }] },
      { tip: 0, items: 'none' },
    ]) {
      expect(() =>
        decodeSnapshot(encodeSnapshot(snap, KEY, { work: bad as never, turns: null, layout: null })),
      ).toThrow(/work/);
    }
  });

  it('writes its ids in pieces that decode as one list, whatever characters they hold', () => {
    const l = Ledger.openSync(join(FIXTURES, 'branching.jsonl'));
    const snap = kept(l);
    // More ids than a piece holds (65,536), with characters JSON escapes at the pieces' edges.
    const n = 150_000;
    const odd = ['q"uote', 'back\\slash', 'new\nline', 'é\u{1F600}', '\u0000', ''];
    const ids = Array.from({ length: n }, (_, i) =>
      i % 65_536 < 2 || i % 65_536 > 65_533 ? odd[i % odd.length] + i : `id-${i}`,
    );
    const big: LedgerSnapshot = {
      ...snap,
      count: n,
      ids,
      parent: new Int32Array(n).fill(-1),
      kind: new Uint8Array(n),
      flags: new Uint8Array(n),
      line: new Uint32Array(n),
      offset: new Float64Array(n),
      length: new Uint32Array(n),
      usage: new Uint32Array(n * 4),
    };
    const back = decodeSnapshot(encodeSnapshot(big, KEY)).snapshot;
    expect(back.ids).toEqual(ids);
    expect(back.count).toBe(n);
    expect(back.prevHash).toBe(snap.prevHash);
  });

  it('keeps no id UTF-8 cannot carry, and refuses id text that is not UTF-8 or not cut at its lengths', () => {
    const l = Ledger.openSync(join(FIXTURES, 'branching.jsonl'));
    const snap = kept(l);
    // A lone surrogate (JSON allows "\ud800") would come back as U+FFFD: another id.
    for (const lone of ['a\uD800', '\uDC00b']) {
      const ids = [...snap.ids];
      ids[1] = lone;
      expect(() => encodeSnapshot({ ...snap, ids }, KEY)).toThrow(SnapshotInvalidError);
    }
    // A pair is one character: kept.
    const paired = [...snap.ids];
    paired[1] = 'x\uD83D\uDE00';
    expect(decodeSnapshot(encodeSnapshot({ ...snap, ids: paired }, KEY)).snapshot.ids).toEqual(paired);
    // The ids' text is last before the checksum: a byte there that is not UTF-8, checksummed again.
    const good = encodeSnapshot(snap, KEY);
    const resum = (b: Buffer): Buffer => {
      hash('sha256', b.subarray(0, b.length - 32), 'buffer').copy(b, b.length - 32);
      return b;
    };
    const notUtf8 = Buffer.from(good);
    notUtf8[notUtf8.length - 33] = 0xff;
    expect(() => decodeSnapshot(resum(notUtf8))).toThrow(/ids/);
    // One id's length one longer (and so the last one's text short).
    const jsonLen = good.readUInt32LE(8);
    const text = Buffer.byteLength(snap.ids.join(''), 'utf8');
    const lengthsAt = good.length - 32 - text - 4 * snap.count;
    expect(jsonLen).toBeGreaterThan(0);
    const cut = Buffer.from(good);
    cut.writeUInt32LE(cut.readUInt32LE(lengthsAt) + 1, lengthsAt);
    expect(() => decodeSnapshot(resum(cut))).toThrow(/ids/);
    // A file of the format before (the ids as a JSON list) is refused by its version, never misread.
    const older = Buffer.from(good);
    older.writeUInt32LE(2, 4);
    expect(() => decodeSnapshot(older)).toThrow(/format 2, not 4/);
    older.writeUInt32LE(3, 4); // the turns' costs as JSON text
    expect(() => decodeSnapshot(older)).toThrow(/format 3, not 4/);
  });

  it('carries a whole tree layout of its entries, and refuses a malformed one', () => {
    const l = Ledger.openSync(join(FIXTURES, 'branching.jsonl'));
    const snap = kept(l);
    const layout = TreeLayout.build(l.index).kept()!;
    expect(layout.busy.length).toBeGreaterThan(1); // (a branching session: more than one lane)
    const back = decodeSnapshot(encodeSnapshot(snap, KEY, { work: null, turns: null, layout })).layout!;
    expect({ ...back, lanes: [...back.lanes], foldStart: [...back.foldStart] }).toEqual({
      ...layout,
      lanes: [...layout.lanes],
      foldStart: [...layout.foldStart],
    });
    expect(decodeSnapshot(encodeSnapshot(snap, KEY)).layout).toBeNull();
    // A layout of other entries than the snapshot's is not kept at all.
    const fewer = { ...layout, count: layout.count - 1, lanes: layout.lanes.subarray(0, -1) };
    expect(decodeSnapshot(encodeSnapshot(snap, KEY, { work: null, turns: null, layout: fewer })).layout).toBeNull();
    const odd = { ...layout, busy: 'none' as never };
    expect(() => decodeSnapshot(encodeSnapshot(snap, KEY, { work: null, turns: null, layout: odd }))).toThrow(/layout/);
  });

  it("carries the turns' costs as columns of raw numbers and sliced strings, beside a layout", () => {
    const l = Ledger.openSync(join(FIXTURES, 'branching.jsonl'));
    const snap = kept(l);
    const layout = TreeLayout.build(l.index).kept()!;
    const turns: KeptTurns = {
      full: [
        [1, 3, 4, 120, [1, 2, 3], [['toolu_é1', 2]], ['toolu_2', 'toolu_3']],
        [4, 4, 3.5, 7, [4], [], []],
      ],
      small: [
        ['card:3:4', 19],
        ['tools:0:4', 268],
      ],
    };
    const good = encodeSnapshot(snap, KEY, { work: null, turns, layout });
    const back = decodeSnapshot(good);
    const plain = (c: ReturnType<typeof turnColumns>): unknown =>
      Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)]));
    expect(plain(back.turns!)).toEqual(plain(turnColumns(turns)));
    expect(back.layout!.count).toBe(layout.count);
    expect(decodeSnapshot(encodeSnapshot(snap, KEY)).turns).toBeNull();
    // Nothing of them is in the JSON part but their sizes (a reopen parses no turn there).
    const json = good.toString('utf8', 12, 12 + good.readUInt32LE(8));
    expect(json).not.toContain('toolu_2');
    expect(JSON.parse(json).turns).toEqual({ facts: 2, sources: 4, acks: 1, small: 2, strings: 5, stringBytes: 40 });
  });

  it('maps no id on a resume until one is looked up, then every id as a full read does; ids that increase never', async () => {
    for (const [file, increase] of [
      [unorderedFile(), false],
      [join(FIXTURES, 'branching.jsonl'), true],
    ] as const) {
      const whole = Ledger.openSync(file);
      const resumed = await Ledger.resume(new FileSource(file), kept(whole));
      expect(resumed.index.mappedIds).toBe(0);
      expect(resumed.index.unmappedIds).toBe(increase ? 0 : resumed.index.count);
      expect(resumed.index.count).toBeGreaterThan(3);
      for (const id of whole.index.ids) expect(resumed.indexOf(id)).toBe(whole.indexOf(id));
      expect(resumed.index.mappedIds).toBe(increase ? 0 : resumed.index.count);
      expect(resumed.index.unmappedIds).toBe(0);
      expect(resumed.indexOf('no such id')).toBeUndefined();
    }
  });

  it('maps restored ids a few at a time, an entry added meanwhile after them, the rest on a lookup', async () => {
    const file = unorderedFile();
    const whole = Ledger.openSync(file);
    const ix = (await Ledger.resume(new FileSource(file), kept(whole))).index;
    const n = ix.count;
    expect(ix.mapSomeIds(2)).toBe(false);
    expect(ix.unmappedIds).toBe(n - 2);
    ix.add('added-meanwhile', n - 1, ix.kind[n - 1], 0, 999, 1e6, 10);
    expect(ix.mapSomeIds(3)).toBe(false);
    expect(ix.indexOf('added-meanwhile')).toBe(n); // (maps the rest)
    expect(ix.unmappedIds).toBe(0);
    for (let i = 0; i < n; i++) expect(ix.indexOf(whole.index.ids[i])).toBe(i);
    expect(ix.mapSomeIds(5)).toBe(true);
  });

  it('refuses a checksummed snapshot whose links do not hold (never trusted)', async () => {
    const file = join(FIXTURES, 'branching.jsonl');
    const l = Ledger.openSync(file);
    const snap = kept(l);
    const bad: LedgerSnapshot = { ...snap, parent: Int32Array.from(snap.parent) };
    bad.parent[1] = 7; // a parent later than its child
    const source = new FileSource(file);
    await expect(Ledger.resume(source, decodeSnapshot(encodeSnapshot(bad, KEY)).snapshot)).rejects.toThrow(
      SnapshotInvalidError,
    );
    // The source stays open for the full read the caller falls back to.
    expect(readingOf(await Ledger.open(source))).toEqual(readingOf(l));
    const dupIds: LedgerSnapshot = { ...snap, ids: snap.ids.map((id, i) => (i === 2 ? snap.ids[1] : id)) };
    await expect(Ledger.resume(new FileSource(file), dupIds)).rejects.toThrow(/ids/);
    expect(readFileSync(file).length).toBeGreaterThan(0);
  });
});

describe('ids told apart (a kept index restored)', () => {
  /** Ids from a few pieces (so repeats are common), any characters JSON allows, U+0000 too. */
  const ids = fc.array(
    fc
      .array(fc.constantFrom('a', 'b', '01a1f7f8-', 'é', '\u{1F600}', '\n', '', '\u0000', 'xyz'.repeat(20)), {
        maxLength: 4,
      })
      .map((parts) => parts.join('')),
    { maxLength: 60 },
  );

  it('tells exactly when an id is there twice, whether the ids increase or not', () => {
    fc.assert(
      fc.property(ids, fc.boolean(), (list, sorted) => {
        const l = sorted ? [...list].sort() : list;
        expect(idsDiffer(l)).toBe(new Set(l).size === l.length);
      }),
      { numRuns: 2000 },
    );
    const many = Array.from({ length: 50_000 }, (_, i) => `01a1f7f8-${i.toString(36).padStart(6, '0')}`);
    expect(idsDiffer(many)).toBe(true);
    expect(idsDiffer([...many, many[31_337]])).toBe(false); // increasing until the last
    expect(idsDiffer([...many.slice(1), many[0]])).toBe(true); // the first one last
    expect(idsDiffer(['b', 'a', 'b'])).toBe(false);
  });
});
