/** Above this many wanted items every item is kept and sorted at the end: cheaper than keeping them in order one by one. */
const MAX_KEPT = 1024;

/** The first items of a stream in a given order ({@link createFirstSelection}). */
export interface FirstSelection<T> {
  /**
   * The last item kept once `count` are kept (an item that does not come before it is not
   * wanted), else undefined: lets a caller skip building an item that cannot enter.
   */
  last(): T | undefined;
  add(item: T): void;
  /** The first `count` items added, in order. */
  items(): T[];
}

/**
 * Keeps the first `count` items added in the order of `compare`: exactly what a stable sort of
 * every item added, cut to `count`, gives, ties in the order they were added. For a small
 * `count`, a bounded sorted list that an item enters only when it comes before the last one
 * kept, so a long stream costs a comparison per item instead of holding and sorting it all.
 */
export function createFirstSelection<T>(count: number, compare: (a: T, b: T) => number): FirstSelection<T> {
  const kept: T[] = [];
  if (count > MAX_KEPT) {
    return { last: () => undefined, add: (item) => void kept.push(item), items: () => kept.sort(compare).slice(0, count) };
  }
  return {
    last: () => (kept.length === count && count > 0 ? kept[count - 1] : undefined),
    add(item) {
      if (count <= 0) return;
      // A tie with the last one kept comes after it, as in a stable sort.
      if (kept.length === count && compare(item, kept[count - 1] as T) >= 0) return;
      let low = 0;
      let high = kept.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compare(item, kept[middle] as T) < 0) high = middle;
        else low = middle + 1;
      }
      kept.splice(low, 0, item);
      if (kept.length > count) kept.pop();
    },
    items: () => kept.slice(),
  };
}
