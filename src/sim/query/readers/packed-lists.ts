/** Lists of whole numbers packed into one array: list `k` is `values[offsets[k] .. offsets[k + 1])`. */
export interface PackedLists {
  /** One more entry than lists. */
  readonly offsets: Uint32Array;
  readonly values: Uint32Array;
}

/** Packs `lists` (unsigned 32-bit values) into two typed arrays, in order. */
export function packLists(lists: readonly (readonly number[])[]): PackedLists {
  const offsets = new Uint32Array(lists.length + 1);
  let total = 0;
  lists.forEach((list, k) => {
    offsets[k] = total;
    total += list.length;
  });
  offsets[lists.length] = total;
  const values = new Uint32Array(total);
  lists.forEach((list, k) => values.set(list, offsets[k] as number));
  return { offsets, values };
}

/** The keys of each tally in ascending order and how many each counted, packed tally after tally: lists of (value, count) pairs. */
export function packTallies(tallies: readonly ReadonlyMap<number, number>[]): [PackedLists, PackedLists] {
  const keys = tallies.map((tally) => [...tally.keys()].sort((a, b) => a - b));
  return [packLists(keys), packLists(keys.map((list, k) => list.map((key) => (tallies[k] as ReadonlyMap<number, number>).get(key) as number)))];
}
