import { VITAL_SPANS, type VitalSpanRecord } from '../../ingest/span-kinds.js';
import { METRIC_CLS, VITAL_METRICS, vitalsDerivation, type VitalsBatch } from '../../model/derived/vitals.js';
import { createDistinct, percentage } from './aggregate.js';
import { dictionaryCodeOf, scanActivitySteps, scanIngested, type ActivityRecord } from './activity-scan.js';
import type { PassSteps } from '../engine/pass-steps.js';
import { selectRanks } from './select-rank.js';
import { pagePath } from './vitals-labels.js';
import { createBucketer } from '../engine/dates.js';
import type { RunContext } from '../engine/definition.js';

/** Weighted values of one metric in one group. */
export interface MetricValues {
  readonly values: number[];
  /** Weight of each value; empty while every value has {@link MetricValues.weight}. */
  readonly weights: number[];
  /** The weight shared by every value while `weights` is empty. */
  weight: number;
  /** Sum of the weights. */
  total: number;
  /** Weighted sum of the values. */
  sum: number;
  /** Values ≤ 0 (left out of most statistics). */
  nonPositive: number;
  /** A copy of the values, once asked for, partly ordered by the selections of {@link quantiles}. */
  ordered?: Float64Array;
}

/** Vitals of one group (a page, a browser, a day …): weighted visitors and samples, values per metric. */
export interface VitalsGroup {
  visitors: number;
  /** Weighted samples of every metric. */
  samples: number;
  /** By metric index ({@link VITAL_METRICS}). */
  readonly metrics: MetricValues[];
}

function emptyValues(): MetricValues {
  return { values: [], weights: [], weight: 0, total: 0, sum: 0, nonPositive: 0 };
}

function emptyGroup(): VitalsGroup {
  return { visitors: 0, samples: 0, metrics: VITAL_METRICS.map(emptyValues) };
}

function addValue(values: MetricValues, value: number, weight: number): void {
  if (values.values.length === 0) values.weight = weight;
  else if (values.weights.length === 0 && weight !== values.weight) {
    for (let i = 0; i < values.values.length; i++) values.weights.push(values.weight);
  }
  if (values.weights.length > 0) values.weights.push(weight);
  values.values.push(value);
  values.total += weight;
  values.sum += value * weight;
  if (value <= 0) values.nonPositive++;
}

/** Metric indexes by name ({@link VITAL_METRICS}). */
const METRIC_INDEX: ReadonlyMap<string, number> = new Map(VITAL_METRICS.map((name, metric) => [name, metric]));

/**
 * Groups, in pieces ({@link PassSteps}), the vitals samples of the range by `keyOf` (null skips a sample), then the measurements
 * posted to `POST /vitals` by `ingestedKeyOf` (weight 1 each; without it they are not read).
 * `applyFilters`: the builders that append the request's filters (dictionary fields act on the
 * sample's session, a path filter on the sample's page, and on a posted measurement's own
 * fields); the others read every sample.
 */
export function* groupVitals<K>(
  ctx: RunContext,
  applyFilters: boolean,
  keyOf: (record: ActivityRecord<VitalsBatch>) => K | null,
  ingestedKeyOf?: (vital: VitalSpanRecord) => K | null,
): PassSteps<Map<K, VitalsGroup>> {
  const groups = new Map<K, VitalsGroup>();
  const indexes = new Map<K, number>();
  const isNewVisitor = createDistinct();
  const groupOf = (key: K): { group: VitalsGroup; groupIndex: number } => {
    let group = groups.get(key);
    if (!group) {
      group = emptyGroup();
      groups.set(key, group);
      indexes.set(key, indexes.size);
    }
    return { group, groupIndex: indexes.get(key) as number };
  };
  // Consecutive samples of one session in one group need one visitor check.
  let lastSession = -1;
  let lastGroup = -1;
  yield* scanActivitySteps(ctx, vitalsDerivation, { apply: applyFilters }, (record) => {
    const key = keyOf(record);
    if (key === null) return;
    const { group, groupIndex } = groupOf(key);
    const w = record.sessions.weight;
    const { activity, index } = record;
    addValue(group.metrics[activity.metric[index] as number] as MetricValues, activity.value[index] as number, w);
    group.samples += w;
    if (record.sessionKey === lastSession && groupIndex === lastGroup) return;
    lastSession = record.sessionKey;
    lastGroup = groupIndex;
    if (isNewVisitor(groupIndex, record.visitorKey)) group.visitors += w;
  });
  if (!ingestedKeyOf) return groups;
  scanIngested(ctx, VITAL_SPANS, { apply: applyFilters }, ({ record, visitorKey }) => {
    const metric = METRIC_INDEX.get(record.metricName);
    if (metric === undefined) return;
    const key = ingestedKeyOf(record);
    if (key === null) return;
    const { group, groupIndex } = groupOf(key);
    addValue(group.metrics[metric] as MetricValues, record.metricValue, 1);
    group.samples += 1;
    if (isNewVisitor(groupIndex, visitorKey)) group.visitors += 1;
  });
  return groups;
}

/** A group key of the vitals types: a dictionary code for generated samples and the measurements that match one, else a name. */
export type VitalsKey = number | string;

const pageCodesByDictionary = new WeakMap<readonly string[], Map<string, number>>();

/**
 * The group key of a posted measurement's page: the code of the first generated path with the
 * same page name ({@link pagePath}), so it joins that page's row; else its page name. Null for
 * an empty path (the builders' `path != ''`).
 */
export function ingestedPageKey(ctx: RunContext, path: string): VitalsKey | null {
  if (path === '') return null;
  const paths = ctx.dictionaries.values.path;
  let codes = pageCodesByDictionary.get(paths);
  if (!codes) {
    codes = new Map();
    for (let code = 0; code < paths.length; code++) {
      const raw = paths[code] ?? '';
      if (raw === '') continue;
      const page = pagePath(raw);
      if (!codes.has(page)) codes.set(page, code);
    }
    pageCodesByDictionary.set(paths, codes);
  }
  const page = pagePath(path);
  return codes.get(page) ?? page;
}

/**
 * The group key of a posted measurement for a session dimension: the dictionary code of what
 * its request's User-Agent named (browser, OS, device), else that name; null when it named
 * nothing, and for the geographic dimensions, which a posted measurement lacks.
 */
export function ingestedDimensionKey(ctx: RunContext, field: string, vital: VitalSpanRecord): VitalsKey | null {
  const value = field === 'browser_name' ? vital.browserName : field === 'os_name' ? vital.osName : field === 'device_type' ? vital.deviceType : '';
  if (value === '') return null;
  const dictionary = (ctx.dictionaries.values as Readonly<Record<string, readonly string[]>>)[field];
  const code = dictionary ? dictionaryCodeOf(dictionary, value) : -1;
  return code >= 0 ? code : value;
}

/** Rounds a metric value: CLS to 4 decimals, the millisecond metrics to 2. */
export function roundMetric(metric: number, value: number): number {
  const f = metric === METRIC_CLS ? 10_000 : 100;
  return Math.round(value * f) / f;
}

/** The values kept for a statistic: CLS keeps zeros, the other metrics only values above 0. */
function kept(metric: number, values: MetricValues): MetricValues {
  if (metric === METRIC_CLS || values.nonPositive === 0) return values;
  const out = emptyValues();
  values.values.forEach((v, i) => {
    if (v > 0) addValue(out, v, values.weights.length > 0 ? (values.weights[i] as number) : values.weight);
  });
  return out;
}

/**
 * Quantiles (0–1) of weighted values, linearly interpolated between order statistics when every
 * weight is equal (one website), by cumulative weight otherwise; null when there are none. The
 * order statistics are selected, not sorted for: linear in the values on average.
 */
export function quantiles(values: MetricValues, qs: readonly number[]): (number | null)[] {
  const n = values.values.length;
  if (n === 0) return qs.map(() => null);
  if (values.weights.length === 0) {
    values.ordered ??= Float64Array.from(values.values);
    const ordered = values.ordered;
    const positions = qs.map((q) => q * (n - 1));
    selectRanks(ordered, positions.flatMap((pos) => [Math.floor(pos), Math.min(n - 1, Math.floor(pos) + 1)]));
    return positions.map((pos) => {
      const lo = Math.floor(pos);
      const hi = Math.min(n - 1, lo + 1);
      return (ordered[lo] as number) + ((ordered[hi] as number) - (ordered[lo] as number)) * (pos - lo);
    });
  }
  return weightedQuantiles(values, qs);
}

/**
 * Quantiles by cumulative weight: the values of each weight (one per website) sorted apart,
 * natively, then merged in ascending order, the weight accumulated as they come.
 */
function weightedQuantiles(values: MetricValues, qs: readonly number[]): (number | null)[] {
  const byWeight = new Map<number, number[]>();
  values.values.forEach((value, i) => {
    const weight = values.weights[i] as number;
    const group = byWeight.get(weight);
    if (group) group.push(value);
    else byWeight.set(weight, [value]);
  });
  const runs = [...byWeight].map(([weight, group]) => ({ weight, sorted: Float64Array.from(group).sort(), next: 0 }));
  const targets = qs.map((q) => q * values.total);
  const out: (number | null)[] = qs.map(() => null);
  let seen = 0;
  let last = 0;
  let pending = qs.length;
  while (pending > 0) {
    let run: (typeof runs)[number] | null = null;
    for (const candidate of runs) {
      if (candidate.next < candidate.sorted.length && (run === null || (candidate.sorted[candidate.next] as number) < (run.sorted[run.next] as number))) run = candidate;
    }
    if (run === null) break;
    last = run.sorted[run.next++] as number;
    seen += run.weight;
    for (let q = 0; q < targets.length; q++) {
      if (out[q] === null && seen >= (targets[q] as number)) {
        out[q] = last;
        pending--;
      }
    }
  }
  return out.map((value) => value ?? last);
}

/** A metric's quantiles as rows print them (rounded; null when the group has no such value). */
export function metricQuantiles(group: VitalsGroup, metric: number, qs: readonly number[], keepAll = false): (number | null)[] {
  const values = group.metrics[metric] as MetricValues;
  return quantiles(keepAll ? values : kept(metric, values), qs).map((v) => (v === null ? null : roundMetric(metric, v)));
}

/** One quantile of a metric as rows print it (null when the group has no such value). */
export function metricQuantile(group: VitalsGroup, metric: number, q: number): number | null {
  return metricQuantiles(group, metric, [q])[0] ?? null;
}

/** A metric's weighted mean as rows print it (null when the group has no such value). */
export function metricAverage(group: VitalsGroup, metric: number, keepAll = false): number | null {
  const values = keepAll ? (group.metrics[metric] as MetricValues) : kept(metric, group.metrics[metric] as MetricValues);
  return values.total > 0 ? roundMetric(metric, values.sum / values.total) : null;
}

/** The vitals of each day in the request's time zone (hourly granularity is ignored), oldest first, in pieces; days without samples absent. */
export function* groupVitalsByDay(ctx: RunContext): PassSteps<[string, VitalsGroup][]> {
  const bucket = createBucketer('day', ctx.timezone);
  const days = yield* groupVitals(ctx, false, (r) => bucket(r.activity.timeMs[r.index] as number), (v) => bucket(v.timestamp));
  return [...days].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The values a group holds, of every metric: the work of its statistics, as a pass yields it ({@link PassSteps}). */
export function valueCount(group: VitalsGroup): number {
  let count = 0;
  for (const values of group.metrics) count += values.values.length;
  return count;
}

/** Orders by a nullable number descending (nulls last), then by name. */
export function byNullableDesc<T extends { name: string }>(value: (row: T) => number | null): (a: T, b: T) => number {
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  };
}

/** What the geo plugins add to a row. */
export type GeoColumns = { country_code: string; country_name: string; percentage: number };

/**
 * The normalizeGeo and deduplicateGeo plugins over rows with distinct names: country_code and
 * country_name from `geo`, percentage = the row's share of the rows' visitors (2 decimals), and
 * the rows re-sorted by visitors descending (then by name).
 */
export function withGeo<T extends { name: string; visitors: number }>(
  rows: readonly T[],
  geo: (row: T) => { country_code: string; country_name: string },
): (T & GeoColumns)[] {
  const total = rows.reduce((sum, row) => sum + row.visitors, 0);
  return rows
    .map((row) => ({ ...row, ...geo(row), percentage: percentage(row.visitors, total) }))
    .sort((a, b) => b.visitors - a.visitors || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The geo columns of a country row ({@link withGeo}): its code, and its name where the world names the country. */
export function countryGeo(ctx: RunContext): (row: { name: string }) => { country_code: string; country_name: string } {
  const { values, countryNames } = ctx.dictionaries;
  return (row) => ({ country_code: row.name, country_name: countryNames[values.country.indexOf(row.name)] ?? row.name });
}

/** The geo columns of a region or city row ({@link withGeo}): its name in both, as the plugins leave a non-country name. */
export function placeGeo(row: { name: string }): { country_code: string; country_name: string } {
  return { country_code: row.name, country_name: row.name };
}

/** A region's row name: `Region, Country`. */
export function regionLabel(ctx: RunContext): (region: number) => string {
  const { values, regionCountry } = ctx.dictionaries;
  return (code) => `${values.region[code] ?? ''}, ${values.country[regionCountry[code] as number] ?? ''}`;
}
