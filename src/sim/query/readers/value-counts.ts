import { median, round2 } from './aggregate.js';

/** Values counted densely up to this (whole seconds): a larger one is kept as a plain value. */
const DENSE_LIMIT = 1 << 20;

/**
 * A multiset of whole non-negative numbers (seconds) whose median is asked once: values added
 * one by one, or many at once as (value, count) pairs in ascending values from a per-day
 * aggregate, which costs the pairs and not the values they stand for. {@link median} answers
 * what `median` of every value answers, to the bit.
 */
export interface ValueCounts {
  add(value: number): void;
  /** Adds `counts[i]` times `values[i]`, for each i; `values` ascend. The arrays are kept, not copied: never change them. */
  addCounts(values: ArrayLike<number>, counts: ArrayLike<number>): void;
  /** The median of the values (two decimals between two middle values); 0 for none. */
  median(): number;
  /** The values and (value, count) pairs it holds: what its median reads. */
  size(): number;
}

/** The value of rank `rank` (from 0) of ascending (value, count) pairs. */
function rankOfPairs(values: ArrayLike<number>, counts: ArrayLike<number>, rank: number): number {
  let seen = 0;
  for (let i = 0; i < values.length; i++) {
    seen += counts[i] as number;
    if (seen > rank) return values[i] as number;
  }
  return values[values.length - 1] as number;
}

/** The value of rank `rank` (from 0) of counts by value (`counts[v]`: how many times v). */
function rankOfDense(counts: Float64Array, rank: number): number {
  let seen = 0;
  for (let v = 0; v < counts.length; v++) {
    seen += counts[v] as number;
    if (seen > rank) return v;
  }
  return counts.length - 1;
}

/** The median of ascending (value, count) pairs holding `n` values, as `median` computes it. */
function medianOfPairs(values: ArrayLike<number>, counts: ArrayLike<number>, n: number): number {
  if (n === 0) return 0;
  const mid = n >> 1;
  return n % 2 === 1 ? rankOfPairs(values, counts, mid) : round2((rankOfPairs(values, counts, mid - 1) + rankOfPairs(values, counts, mid)) / 2);
}

/** An empty {@link ValueCounts}. */
export function createValueCounts(): ValueCounts {
  const values: number[] = [];
  const chunks: [ArrayLike<number>, ArrayLike<number>][] = [];
  return {
    add: (value) => void values.push(value),
    addCounts(vs, cs) {
      if (vs.length > 0) chunks.push([vs, cs]);
    },
    size() {
      let n = values.length;
      for (const [vs] of chunks) n += vs.length;
      return n;
    },
    median() {
      if (chunks.length === 0) return median(values);
      const total = (): number => {
        let n = values.length;
        for (const [, cs] of chunks) for (let i = 0; i < cs.length; i++) n += cs[i] as number;
        return n;
      };
      // One day's pairs alone, the common bucket of a daily series: already in order.
      if (chunks.length === 1 && values.length === 0) return medianOfPairs(...(chunks[0] as [ArrayLike<number>, ArrayLike<number>]), total());
      let top = 0;
      let plain = false;
      for (const v of values) {
        if (!Number.isInteger(v) || v < 0 || v >= DENSE_LIMIT) plain = true;
        else if (v > top) top = v;
      }
      for (const [vs] of chunks) {
        const last = vs[vs.length - 1] as number;
        if (!Number.isInteger(last) || last >= DENSE_LIMIT) plain = true;
        else if (last > top) top = last;
      }
      if (plain) {
        // Values past the dense counts: the median of every value, spelled out.
        const all = values.slice();
        for (const [vs, cs] of chunks) for (let i = 0; i < vs.length; i++) for (let k = 0; k < (cs[i] as number); k++) all.push(vs[i] as number);
        return median(all);
      }
      const dense = new Float64Array(top + 1);
      for (const v of values) dense[v] = (dense[v] as number) + 1;
      for (const [vs, cs] of chunks) for (let i = 0; i < vs.length; i++) dense[vs[i] as number] = (dense[vs[i] as number] as number) + (cs[i] as number);
      const n = total();
      if (n === 0) return 0;
      const mid = n >> 1;
      return n % 2 === 1 ? rankOfDense(dense, mid) : round2((rankOfDense(dense, mid - 1) + rankOfDense(dense, mid)) / 2);
    },
  };
}
