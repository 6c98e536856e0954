import { DAY_MS } from '../model/world.js';

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

/**
 * The sorted times of records by owner (a website, an organization) and UTC day, with each
 * owner's count over all days: what the tracked-event store and the ingest ledger count and date
 * their records by (the records themselves stay with each store, in arrival order).
 */
export interface SortedDayIndex {
  /** Adds the time of one record of the owner. */
  add(owner: string, ms: number): void;
  /** The owner's times on a UTC day, if it holds any. */
  timesOn(owner: string, day: number): SortedTimes | undefined;
  /** How many times the owners hold on the UTC days that [fromMs, toMs] touches (whole days). */
  countTouching(owners: Iterable<string>, fromMs: number, toMs: number): number;
  /** The latest time within [fromMs, toMs] of the owners, or -Infinity when none is. */
  latestWithin(owners: Iterable<string>, fromMs: number, toMs: number): number;
  /** How many times the owners hold, all days. */
  countOwned(owners: Iterable<string>): number;
}

/** An empty index. */
export function createSortedDayIndex(): SortedDayIndex {
  /** owner → UTC day → its times. */
  const byOwner = new Map<string, Map<number, SortedTimes>>();
  /** owner → times it holds, all days. */
  const totals = new Map<string, number>();
  return {
    add(owner, ms) {
      let days = byOwner.get(owner);
      if (!days) byOwner.set(owner, (days = new Map()));
      const day = Math.floor(ms / DAY_MS);
      let times = days.get(day);
      if (!times) days.set(day, (times = createSortedTimes()));
      insertTime(times, ms);
      totals.set(owner, (totals.get(owner) ?? 0) + 1);
    },
    timesOn(owner, day) {
      return byOwner.get(owner)?.get(day);
    },
    countTouching(owners, fromMs, toMs) {
      const first = Math.floor(fromMs / DAY_MS);
      const last = Math.floor(toMs / DAY_MS);
      let count = 0;
      for (const owner of owners) {
        const days = byOwner.get(owner);
        if (!days) continue;
        for (const [day, times] of days) if (day >= first && day <= last) count += times.length;
      }
      return count;
    },
    latestWithin(owners, fromMs, toMs) {
      const first = Math.floor(fromMs / DAY_MS);
      const last = Math.floor(toMs / DAY_MS);
      let latest = -Infinity;
      for (const owner of owners) {
        const days = byOwner.get(owner);
        if (!days) continue;
        for (const [day, times] of days) if (day >= first && day <= last) latest = Math.max(latest, latestWithin(times, fromMs, toMs));
      }
      return latest;
    },
    countOwned(owners) {
      let count = 0;
      for (const owner of owners) count += totals.get(owner) ?? 0;
      return count;
    },
  };
}
