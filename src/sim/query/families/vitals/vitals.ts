import { METRIC_CLS, METRIC_FCP, METRIC_INP, METRIC_LCP, METRIC_TTFB, VITAL_METRICS } from '../../../model/derived/vitals.js';
import type { SessionDimension } from '../../../model/traffic.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { vitalsDerivation } from '../../../model/derived/vitals.js';
import { groupVitals, groupVitalsByDay, ingestedDimensionKey, ingestedPageKey, metricAverage, metricQuantile, metricQuantiles, countryGeo, placeGeo, regionLabel, type VitalsGroup, type VitalsKey, withGeo } from '../../readers/vitals-stats.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { pagePath } from '../../readers/vitals-labels.js';
import catalogue from './vitals-catalogue.json' with { type: 'json' };

/**
 * The vitals family: its types read analytics.web_vitals_spans, deriving vitalsDerivation on each
 * day of their range; their fields and meta are in vitals-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'vitals', table: 'analytics.web_vitals_spans', derives: [vitalsDerivation], catalogue: readCatalogue('vitals', catalogue) };

const PERCENTILES = [0.5, 0.75, 0.9, 0.95, 0.99] as const;

/** Metric indexes in metric-name order, the order of the per-metric rows. */
const METRICS_BY_NAME = VITAL_METRICS.map((name, metric) => ({ name, metric })).sort((a, b) => (a.name < b.name ? -1 : 1));

/** The percentile columns of a metric in a group, over every value of it. */
function percentileColumns(group: VitalsGroup, metric: number): Row {
  const [p50, p75, p90, p95, p99] = metricQuantiles(group, metric, PERCENTILES, true);
  return { p50: p50 ?? 0, p75: p75 ?? 0, p90: p90 ?? 0, p95: p95 ?? 0, p99: p99 ?? 0 };
}

/** One row per metric with samples in the group, in metric-name order; yields each metric's values read. */
function* metricRows(group: VitalsGroup, row: (metricName: string, metric: number, samples: number) => Row): PassSteps<Row[]> {
  const rows: Row[] = [];
  for (const { name, metric } of METRICS_BY_NAME) {
    const values = group.metrics[metric];
    if (values === undefined || values.total <= 0) continue;
    rows.push(row(name, metric, values.total));
    yield values.values.length;
  }
  return rows;
}

/** Percentiles per metric over every sample of the range; no filters apply. */
function* overviewRows(ctx: RunContext): PassSteps<Row[]> {
  const group = (yield* groupVitals(ctx, false, () => 0, () => 0)).get(0);
  if (!group) return [];
  return yield* metricRows(group, (metric_name, metric, samples) => ({
    metric_name,
    ...percentileColumns(group, metric),
    avg_value: metricAverage(group, metric, true) ?? 0,
    samples,
  }));
}

/** Percentiles per day (request time zone, granularity ignored) and metric; days without samples absent. */
function* timeSeriesRows(ctx: RunContext): PassSteps<Row[]> {
  const rows: Row[] = [];
  for (const [date, group] of yield* groupVitalsByDay(ctx)) {
    rows.push(...(yield* metricRows(group, (metric_name, metric, samples) => ({ date, metric_name, ...percentileColumns(group, metric), samples }))));
  }
  return rows;
}

/** Percentiles per page and metric, with the request's filters; most samples first. */
function* byPageRows(ctx: RunContext): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const pages = yield* groupVitals<VitalsKey>(ctx, true, (r) => r.activity.path[r.index] as number, (v) => ingestedPageKey(ctx, v.path));
  const rows: { page: string; metric_name: string; samples: number; row: Row }[] = [];
  for (const [key, group] of pages) {
    const page = typeof key === 'number' ? pagePath(paths[key] ?? '') : key;
    for (const row of yield* metricRows(group, (metric_name, metric, samples) => ({ page, metric_name, ...percentileColumns(group, metric), samples }))) {
      rows.push({ page, metric_name: row.metric_name as string, samples: row.samples as number, row });
    }
  }
  rows.sort((a, b) => b.samples - a.samples || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0) || (a.metric_name < b.metric_name ? -1 : 1));
  return rows.map((r) => r.row);
}

type DimensionRow = {
  name: string;
  visitors: number;
  p50_lcp: number | null;
  p50_fcp: number | null;
  p50_cls: number | null;
  p50_inp: number | null;
  p50_ttfb: number | null;
  samples: number;
};

/**
 * p50 per metric for each value of a session dimension, with the request's filters; empty values
 * left out. A posted measurement counts under what its request's User-Agent named (browser, OS,
 * device); it has no geography, so the geographic breakdowns leave it out.
 */
function* dimensionRows(ctx: RunContext, field: SessionDimension, label: (code: number) => string): PassSteps<DimensionRow[]> {
  const values = ctx.dictionaries.values[field];
  const groups = yield* groupVitals<VitalsKey>(
    ctx,
    true,
    (r) => {
      const code = r.sessions.dims[field][r.sample] as number;
      return values[code] ? code : null;
    },
    (v) => ingestedDimensionKey(ctx, field, v),
  );
  const rows: DimensionRow[] = [];
  const p50s: (number | null)[] = [];
  for (const [key, group] of groups) {
    // A metric's median selects among its values: a large group's take a piece each.
    p50s.length = 0;
    for (const metric of [METRIC_LCP, METRIC_FCP, METRIC_CLS, METRIC_INP, METRIC_TTFB]) {
      p50s.push(metricQuantile(group, metric, 0.5));
      yield group.metrics[metric]?.values.length ?? 0;
    }
    const [p50_lcp = null, p50_fcp = null, p50_cls = null, p50_inp = null, p50_ttfb = null] = p50s;
    rows.push({ name: typeof key === 'number' ? label(key) : key, visitors: group.visitors, p50_lcp, p50_fcp, p50_cls, p50_inp, p50_ttfb, samples: group.samples });
  }
  return rows.sort((a, b) => b.samples - a.samples || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The filters a vitals breakdown accepts besides the global ones (the live `vitalsByDimension` helper's). */
const VITALS_FILTERS = ["path", "country", "region", "city", "browser_name", "os_name", "device_type"];

/**
 * A vitals type: on the older public list; a breakdown (`filtered`) takes the builders' filters
 * and is customizable, the overview and series are not. The overview and series are custom SQL
 * that applies no filter, though the listing names the global ones: a request filtering them is
 * told the filter was ignored (`appliedFilters`). Its pass reads every value of its range,
 * so it runs in pieces ({@link PassSteps}). Its fields and meta are in vitals-catalogue.json.
 */
function defineVitalsType(spec: { name: string; filtered?: boolean; steps(ctx: RunContext): PassSteps<Row[]> }): QueryTypeDefinition {
  const filtered = spec.filtered === true;
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    olderPublicAccess: true,
    ...(filtered ? { filters: VITALS_FILTERS } : { appliedFilters: [] }),
    customizable: filtered,
    steps: spec.steps,
  });
}

/** A vitals_by_* breakdown of p50s by a place or browser. */
function defineVitalsBreakdown(name: string, steps: (ctx: RunContext) => PassSteps<Row[]>): QueryTypeDefinition {
  return defineVitalsType({ name, filtered: true, steps });
}

/** The live vitals builders. */
export const vitalsTypes: QueryTypeDefinition[] = [
  defineVitalsType({
    name: 'vitals_overview',
    steps: overviewRows,
  }),
  defineVitalsType({
    name: 'vitals_time_series',
    steps: timeSeriesRows,
  }),
  defineVitalsType({
    name: 'vitals_by_page',
    filtered: true,
    steps: byPageRows,
  }),
  defineVitalsBreakdown('vitals_by_country', function* (ctx) {
    const countries = ctx.dictionaries.values.country;
    return withGeo(yield* dimensionRows(ctx, 'country', (code) => countries[code] ?? ''), countryGeo(ctx));
  }),
  defineVitalsBreakdown('vitals_by_browser', function* (ctx) {
    const names = ctx.dictionaries.values.browser_name;
    return yield* dimensionRows(ctx, 'browser_name', (code) => names[code] ?? '');
  }),
  defineVitalsBreakdown('vitals_by_region', function* (ctx) {
    return withGeo(yield* dimensionRows(ctx, 'region', regionLabel(ctx)), placeGeo);
  }),
  defineVitalsBreakdown('vitals_by_city', function* (ctx) {
    const { values, regionCountry, cityRegion } = ctx.dictionaries;
    const country = (city: number): string => values.country[regionCountry[cityRegion[city] as number] as number] ?? '';
    const rows = yield* dimensionRows(ctx, 'city', (code) => `${values.city[code] ?? ''}, ${country(code)}`);
    return withGeo(rows, placeGeo);
  }),
];
