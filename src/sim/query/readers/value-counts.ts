import { median, round2 } from './aggregate.js';

/** Values counted densely up to this (whole seconds): a larger one is kept as a plain value. */
const DENSE_LIMIT = 1 << 20;

/**
 * A multiset of whole non-negative numbers (seconds) whose median is asked once: values added
 * one by one, or many at once as (value, count) pairs from a per-day aggregate, which costs the
 * pairs and not the values they stand for. {@link median} answers what `median` of every value
 * answers, to the bit.
 */
export interface ValueCounts {
  add(value: number): void;
  /** Adds `counts[i]` times `values[i]`, for each i. */
  addCounts(values: ArrayLike<number>, counts: ArrayLike<number>): void;
  /** The median of the values (two decimals between two middle values); 0 for none. */
  median(): number;
}

/** An empty {@link ValueCounts}. */
export function createValueCounts(): ValueCounts {
  const values: number[] = [];
  let counts: Uint32Array | null = null;
  let counted = 0;
  let top = -1;
  const count = (value: number, times: number): void => {
    if (!Number.isInteger(value) || value < 0 || value >= DENSE_LIMIT) {
      for (let k = 0; k < times; k++) values.push(value);
      return;
    }
    if (counts === null || value >= counts.length) {
      let length = counts?.length ?? 1024;
      while (length <= value) length *= 2;
      const grown = new Uint32Array(length);
      if (counts) grown.set(counts);
      counts = grown;
    }
    counts[value] = (counts[value] as number) + times;
    counted += times;
    if (value > top) top = value;
  };
  /** The value of rank `rank` (from 0) among the counted values. */
  const atRank = (dense: Uint32Array, rank: number): number => {
    let seen = 0;
    for (let v = 0; v <= top; v++) {
      seen += dense[v] as number;
      if (seen > rank) return v;
    }
    return top;
  };
  return {
    add: (value) => void values.push(value),
    addCounts(vs, cs) {
      for (let i = 0; i < vs.length; i++) count(vs[i] as number, cs[i] as number);
    },
    median() {
      if (counts === null) return median(values);
      for (const value of values.splice(0)) count(value, 1);
      const dense = counts as Uint32Array;
      if (values.length > 0) {
        // Values past the dense counts: the median of every value, spelled out.
        const all = values.slice();
        for (let v = 0; v <= top; v++) for (let k = 0; k < (dense[v] as number); k++) all.push(v);
        return median(all);
      }
      if (counted === 0) return 0;
      const mid = counted >> 1;
      return counted % 2 === 1 ? atRank(dense, mid) : round2((atRank(dense, mid - 1) + atRank(dense, mid)) / 2);
    },
  };
}
