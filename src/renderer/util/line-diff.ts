export type DiffOp = { op: 'same' | 'add' | 'del'; text: string };

/** Above this many LCS cells the middle is shown as one removed and one added block. */
const MAX_CELLS = 4_000_000;

/** A line diff by longest common subsequence, with the common head and tail trimmed first. */
export function lineDiff(a: string[], b: string[]): DiffOp[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const out: DiffOp[] = a.slice(0, head).map((text) => ({ op: 'same', text }));
  if (am.length * bm.length > MAX_CELLS) {
    for (const text of am) out.push({ op: 'del', text });
    for (const text of bm) out.push({ op: 'add', text });
  } else {
    const n = am.length;
    const m = bm.length;
    const w = m + 1;
    const t = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        t[i * w + j] = am[i] === bm[j] ? t[(i + 1) * w + j + 1] + 1 : Math.max(t[(i + 1) * w + j], t[i * w + j + 1]);
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (am[i] === bm[j]) {
        out.push({ op: 'same', text: am[i] });
        i++;
        j++;
      } else if (t[(i + 1) * w + j] >= t[i * w + j + 1]) out.push({ op: 'del', text: am[i++] });
      else out.push({ op: 'add', text: bm[j++] });
    }
    while (i < n) out.push({ op: 'del', text: am[i++] });
    while (j < m) out.push({ op: 'add', text: bm[j++] });
  }
  for (const text of a.slice(a.length - tail)) out.push({ op: 'same', text });
  return out;
}
