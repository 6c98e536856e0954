import { describe, expect, it } from 'vitest';
import { createResultCache } from '../../../src/sim/query/engine/result-cache.js';
import type { Row } from '../../../src/sim/query/engine/definition.js';

/** A computation that counts its runs and returns `rows`. */
function counted(rows: Row[]): { compute: () => Row[]; runs: () => number } {
  let runs = 0;
  return {
    compute: () => {
      runs++;
      return rows;
    },
    runs: () => runs,
  };
}

describe('the result cache', () => {
  it('forgets the entry read longest ago, not the one stored first, when it is full', () => {
    const cache = createResultCache(2);
    const a = counted([{ n: 1 }]);
    const b = counted([{ n: 2 }]);
    const c = counted([{ n: 3 }]);
    cache.page('a', a.compute, 0, 10);
    cache.page('b', b.compute, 0, 10);
    // Reading a again makes b the least recently read.
    cache.page('a', a.compute, 0, 10);
    cache.page('c', c.compute, 0, 10);
    expect(cache.stats().entries).toBe(2);
    cache.page('a', a.compute, 0, 10);
    expect(a.runs()).toBe(1);
    cache.page('b', b.compute, 0, 10);
    expect(b.runs()).toBe(2);
  });

  it('serves each page of a kept entry as the JSON of that slice, the same text when asked again', () => {
    const cache = createResultCache();
    const rows = Array.from({ length: 5 }, (_, i) => ({ i }));
    const source = counted(rows);
    const first = cache.page('k', source.compute, 0, 2);
    const second = cache.page('k', source.compute, 2, 2);
    expect(first).toBe(JSON.stringify(rows.slice(0, 2)));
    expect(second).toBe(JSON.stringify(rows.slice(2, 4)));
    expect(cache.page('k', source.compute, 0, 2)).toBe(first);
    expect(cache.page('k', source.compute, 2, 2)).toBe(second);
    expect(source.runs()).toBe(1);
    expect(cache.stats()).toEqual({ entries: 1, hits: 3, misses: 1 });
  });
});
