import type { EventCursor } from '../../../ingest/event-store.js';
import { scanGeneratedEvents, scanTrackedOccurrences, type EventOccurrence } from './custom-event-scan.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import type { RunContext } from '../../engine/definition.js';
import { passesFilters, type FilterPlan } from '../../engine/filters.js';

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

/** Property statistics by `event\u0000key`, filled occurrence by occurrence. */
type PairStats = Map<string, PropertyStats>;

/** A tally of tracked events kept between runs, with where it stopped reading each owner. */
interface TrackedPairs {
  readonly pairs: PairStats;
  readonly cursors: Map<string, EventCursor>;
  /** Distinct values and raw texts held, a measure of its memory. */
  held: number;
}

/** Distinct tracked values a kept tally may hold; past it, each run tallies afresh. */
const MAX_KEPT_VALUES = 100_000;

/** Adds an occurrence's properties that pass `passesKey` to `pairs`; returns how many new values and raw texts it held. */
function addOccurrence(pairs: PairStats, occurrence: EventOccurrence, passesKey: (key: string) => boolean): number {
  let added = 0;
  for (const property of occurrence.properties) {
    if (!passesKey(property.key)) continue;
    const pair = `${occurrence.name}\u0000${property.key}`;
    let stats = pairs.get(pair);
    if (!stats) {
      stats = { event: occurrence.name, key: property.key, total: 0, values: new Map(), raws: new Set() };
      pairs.set(pair, stats);
    }
    stats.total += occurrence.weight;
    const count = stats.values.get(property.value);
    if (count === undefined) added++;
    stats.values.set(property.value, (count ?? 0) + occurrence.weight);
    if (!stats.raws.has(property.raw)) {
      stats.raws.add(property.raw);
      added++;
    }
  }
  return added;
}

/**
 * The property statistics of every (event, key) pair of the filtered custom events, in event
 * then key order. `property_key` filters apply to the expanded keys, as the service applies them
 * after expanding the JSON.
 *
 * The generated events are tallied once per range and the tracked ones by a fold that the next
 * run brings up to date with the events appended since (both kept in `ctx.memo`), then merged:
 * totals and value counts add, raw texts unite.
 */
export function* collectPropertyStats(ctx: RunContext): PassSteps<PropertyStats[]> {
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
  const generated = yield* ctx.memoSteps('property-stats:generated', function* () {
    const pairs: PairStats = new Map();
    yield* scanGeneratedEvents(ctx, (occurrence) => addOccurrence(pairs, occurrence, passesKey));
    return pairs;
  });
  // A fold grown past the bound is no longer kept, once the run that grew it is over: every
  // later run tallies afresh. One still read by a pass in pieces is left whole (that pass holds
  // it), only forgotten here.
  const kept = ctx.memo<{ fold: TrackedPairs | null }>('property-stats:tracked', () => ({ fold: { pairs: new Map(), cursors: new Map(), held: 0 } }));
  const tracked = kept.fold ?? { pairs: new Map(), cursors: new Map(), held: 0 };
  yield* scanTrackedOccurrences(ctx, (occurrence) => {
    tracked.held += addOccurrence(tracked.pairs, occurrence, passesKey);
  }, tracked.cursors);
  if (kept.fold === tracked && tracked.held > MAX_KEPT_VALUES) kept.fold = null;
  const merged: PairStats = new Map();
  for (const [pair, a] of generated) merged.set(pair, { ...a, values: new Map(a.values), raws: new Set(a.raws) });
  for (const [pair, b] of tracked.pairs) {
    const stats = merged.get(pair);
    if (!stats) {
      merged.set(pair, { ...b, values: new Map(b.values), raws: new Set(b.raws) });
      continue;
    }
    stats.total += b.total;
    for (const [value, count] of b.values) stats.values.set(value, (stats.values.get(value) ?? 0) + count);
    for (const raw of b.raws) stats.raws.add(raw);
  }
  return [...merged.values()].sort((a, b) => compareText(a.event, b.event) || compareText(a.key, b.key));
}

/** The values of a key by events, most frequent first (ties by value). */
export function rankedValues(stats: PropertyStats): ValueCount[] {
  return [...stats.values].sort(([a, x], [b, y]) => y - x || compareText(a, b));
}
