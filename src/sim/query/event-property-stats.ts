import { scanCustomEvents } from './custom-event-scan.js';
import type { RunContext } from './definition.js';
import { passesFilters, type FilterPlan } from './filters.js';

/** The values one property key of one event took over the range, weighted by events. */
export interface PropertyStats {
  readonly event: string;
  readonly key: string;
  /** Events that carried the key. */
  total: number;
  /** Quote-trimmed value → events. */
  readonly values: Map<string, number>;
  /** Raw JSON value texts seen (the service's cardinality counts those, quotes kept). */
  readonly raws: Set<string>;
}

/** A value and its events, as `[value, count]` pairs are listed. */
export type ValueCount = readonly [value: string, count: number];

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The property statistics of every (event, key) pair of the filtered custom events, in event
 * then key order. `property_key` filters apply to the expanded keys, as the service applies them
 * after expanding the JSON.
 */
export function collectPropertyStats(ctx: RunContext): PropertyStats[] {
  const keyPlan: FilterPlan = { ...ctx.filters, tests: ctx.filters.tests.filter((t) => t.field === 'property_key') };
  const keyPasses = new Map<string, boolean>();
  const passesKey = (key: string): boolean => {
    let passes = keyPasses.get(key);
    if (passes === undefined) {
      passes = keyPlan.tests.length === 0 || passesFilters(keyPlan, () => key);
      keyPasses.set(key, passes);
    }
    return passes;
  };
  const byPair = new Map<string, PropertyStats>();
  scanCustomEvents(ctx, (occurrence) => {
    for (const property of occurrence.properties) {
      if (!passesKey(property.key)) continue;
      const pair = `${occurrence.name}\u0000${property.key}`;
      let stats = byPair.get(pair);
      if (!stats) {
        stats = { event: occurrence.name, key: property.key, total: 0, values: new Map(), raws: new Set() };
        byPair.set(pair, stats);
      }
      stats.total += occurrence.weight;
      stats.values.set(property.value, (stats.values.get(property.value) ?? 0) + occurrence.weight);
      stats.raws.add(property.raw);
    }
  });
  return [...byPair.values()].sort((a, b) => compareText(a.event, b.event) || compareText(a.key, b.key));
}

/** The values of a key by events, most frequent first (ties by value). */
export function rankedValues(stats: PropertyStats): ValueCount[] {
  return [...stats.values].sort(([a, x], [b, y]) => y - x || compareText(a, b));
}
