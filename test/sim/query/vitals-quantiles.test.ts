import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantiles, type MetricValues } from '../../../src/sim/query/readers/vitals-stats.js';

const QS = [0, 0.5, 0.75, 0.9, 0.95, 0.99, 1];

/** The definition the selection must keep: a full sort, interpolated, or a walk by cumulative weight. */
function bySorting(values: readonly number[], weights: readonly number[]): (number | null)[] {
  const n = values.length;
  if (n === 0) return QS.map(() => null);
  if (weights.length === 0) {
    const sorted = Float64Array.from(values).sort();
    return QS.map((q) => {
      const pos = q * (n - 1);
      const lo = Math.floor(pos);
      const hi = Math.min(n - 1, lo + 1);
      return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
    });
  }
  const total = weights.reduce((sum, w) => sum + w, 0);
  const order = values.map((_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  return QS.map((q) => {
    let seen = 0;
    for (const i of order) {
      seen += weights[i] as number;
      if (seen >= q * total) return values[i] as number;
    }
    return values[order[order.length - 1] as number] as number;
  });
}

describe('vitals quantiles', () => {
  it('select the same values a full sort gives, with one weight or one per website, ties and all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -5, max: 60 }), { maxLength: 400 }),
        fc.option(fc.array(fc.constantFrom(1, 2, 4, 10), { minLength: 1, maxLength: 5 })),
        (tenths, websiteWeights) => {
          const values = tenths.map((t) => t / 10);
          const weights = websiteWeights ? values.map((_, i) => websiteWeights[i % websiteWeights.length] as number) : [];
          const total = weights.length > 0 ? weights.reduce((sum, w) => sum + w, 0) : values.length;
          const metric: MetricValues = { values, weights, weight: 1, total, sum: 0, nonPositive: 0 };
          expect(quantiles(metric, QS)).toEqual(bySorting(values, weights));
          // A second call reads the copy the first one partly ordered.
          expect(quantiles(metric, QS)).toEqual(bySorting(values, weights));
        },
      ),
      { seed: 15, numRuns: 2000 },
    );
  });

  it('select the right values where a median-of-three pivot partitions worst: organ pipes and many equal values', () => {
    const n = 200_000;
    const pipes = Array.from({ length: n }, (_, i) => (i < n / 2 ? i : n - i));
    const equal = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 2));
    for (const values of [pipes, equal]) {
      const metric: MetricValues = { values, weights: [], weight: 1, total: n, sum: 0, nonPositive: 0 };
      expect(quantiles(metric, QS)).toEqual(bySorting(values, []));
    }
  });
});
