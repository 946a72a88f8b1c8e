import diffSequence from '@jest/diff-sequences';

export type DiffOp = { op: 'same' | 'add' | 'del'; text: string };

/**
 * A shortest line diff: Jest's Myers diff in linear space over the lines as integers. Lines that
 * occur on one side only can never be common, so they are set aside before the diff (GNU diff does
 * the same): the longest common subsequence is unchanged, and two texts that share little cost a
 * diff of what they share, not of everything they differ in.
 */
export function lineDiff(a: string[], b: string[]): DiffOp[] {
  const ids = new Map<string, number>();
  const idOf = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const aIds = Int32Array.from(a, idOf);
  const bIds = Int32Array.from(b, idOf);
  const inA = new Uint8Array(ids.size);
  const inB = new Uint8Array(ids.size);
  for (const id of aIds) inA[id] = 1;
  for (const id of bIds) inB[id] = 1;
  // Positions (in a and b) of the lines the other side has too: the only ones the diff can match.
  const aKept = keptPositions(aIds, inB);
  const bKept = keptPositions(bIds, inA);

  const out: DiffOp[] = [];
  let i = 0;
  let j = 0;
  /** Lines up to a[ai] and b[bj] (exclusive) that are not common: removed first, then added. */
  const gapTo = (ai: number, bj: number) => {
    while (i < ai) out.push({ op: 'del', text: a[i++] });
    while (j < bj) out.push({ op: 'add', text: b[j++] });
  };
  diffSequence(
    aKept.length,
    bKept.length,
    (x, y) => aIds[aKept[x]] === bIds[bKept[y]],
    (n, x, y) => {
      for (let k = 0; k < n; k++) {
        gapTo(aKept[x + k], bKept[y + k]);
        out.push({ op: 'same', text: a[i++] });
        j++;
      }
    },
  );
  gapTo(a.length, b.length);
  return out;
}

function keptPositions(ids: Int32Array, other: Uint8Array): Int32Array {
  let n = 0;
  for (const id of ids) if (other[id]) n++;
  const kept = new Int32Array(n);
  n = 0;
  for (let p = 0; p < ids.length; p++) if (other[ids[p]]) kept[n++] = p;
  return kept;
}
