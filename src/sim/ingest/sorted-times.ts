/**
 * The times of one owner's records on one day, kept in ascending order beside the records
 * (which stay in arrival order): answers "how many before t" and "the latest up to t" with a
 * binary search, never one step per record.
 */
export interface SortedTimes {
  /** Ascending epoch ms; the first `length` slots are in use. */
  times: Float64Array;
  length: number;
}

/** An empty list of times. */
export function createSortedTimes(): SortedTimes {
  return { times: new Float64Array(16), length: 0 };
}

/** The number of times below `ms` (the first index whose time is ≥ ms); times are whole milliseconds, so `x + 0.5` counts those ≤ x. */
export function countBelow(sorted: SortedTimes, ms: number): number {
  const { times } = sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds `ms` in order (records mostly arrive in time order: an append). */
export function insertTime(sorted: SortedTimes, ms: number): void {
  const { length } = sorted;
  if (length === sorted.times.length) {
    const grown = new Float64Array(Math.max(16, length * 2));
    grown.set(sorted.times);
    sorted.times = grown;
  }
  const times = sorted.times;
  if (length === 0 || (times[length - 1] as number) <= ms) {
    times[length] = ms;
  } else {
    const at = countBelow(sorted, ms + 0.5);
    times.copyWithin(at + 1, at, length);
    times[at] = ms;
  }
  sorted.length = length + 1;
}

/** The latest time within [fromMs, toMs], or -Infinity when none is. */
export function latestWithin(sorted: SortedTimes, fromMs: number, toMs: number): number {
  const upTo = countBelow(sorted, toMs + 0.5);
  if (upTo === 0) return -Infinity;
  const latest = sorted.times[upTo - 1] as number;
  return latest >= fromMs ? latest : -Infinity;
}
