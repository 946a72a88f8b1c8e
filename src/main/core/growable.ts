/** Typed arrays that double when full: the index keeps one slot per entry without an object per entry. */
type TypedArrayCtor<T> = { new (length: number): T };

export function grow<T extends Int32Array | Uint32Array | Uint8Array | Float64Array>(
  arr: T,
  need: number,
  ctor: TypedArrayCtor<T>,
): T {
  if (need <= arr.length) return arr;
  let cap = Math.max(arr.length * 2, 1024);
  while (cap < need) cap *= 2;
  const next = new ctor(cap);
  next.set(arr);
  return next;
}
