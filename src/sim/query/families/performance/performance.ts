import { METRIC_CLS, METRIC_FCP, METRIC_INP, METRIC_LCP, METRIC_TTFB, type VitalsBatch } from '../../../model/derived/vitals.js';
import type { SessionDimension } from '../../../model/traffic.js';
import type { ActivityRecord } from '../../readers/activity-scan.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { vitalsDerivation } from '../../../model/derived/vitals.js';
import type { VitalSpanRecord } from '../../../ingest/span-kinds.js';
import { byNullableDesc, groupVitals, groupVitalsByDay, ingestedDimensionKey, ingestedPageKey, metricAverage, metricQuantile, countryGeo, placeGeo, regionLabel, valueCount, type VitalsGroup, type VitalsKey, withGeo } from '../../readers/vitals-stats.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { pagePath } from '../../readers/vitals-labels.js';
import catalogue from './performance-catalogue.json' with { type: 'json' };

/**
 * The performance family: its types read analytics.web_vitals_spans, deriving vitalsDerivation on
 * each day of their range; their fields and meta are in performance-catalogue.json.
 */
const FAMILY: QueryFamilySpec = { name: 'performance', table: 'analytics.web_vitals_spans', derives: [vitalsDerivation], catalogue: readCatalogue('performance', catalogue) };

/** The limit /v1/query passes to custom SQL when the request names none; the SQL applies no offset. */
const ROUTE_DEFAULT_LIMIT = 100;

type VitalsRecord = ActivityRecord<VitalsBatch>;

/** The session's dictionary code of a dimension. */
function sessionCode(record: VitalsRecord, field: SessionDimension): number {
  return record.sessions.dims[field][record.sample] as number;
}

/** The statistics of a web_vitals_by_* row, after its name. */
type WebVitalsStats = {
  visitors: number;
  avg_fcp: number | null;
  p50_fcp: number | null;
  avg_lcp: number | null;
  p50_lcp: number | null;
  p75_lcp: number | null;
  avg_cls: number | null;
  p50_cls: number | null;
  avg_inp: number | null;
  p75_inp: number | null;
  avg_ttfb: number | null;
  measurements: number;
};

type BreakdownRow = { name: string } & WebVitalsStats;

function* statsOf(group: VitalsGroup): PassSteps<WebVitalsStats> {
  // Each metric's statistics read its values: a large group's take a piece each.
  const valuesOf = (metric: number): number => group.metrics[metric]?.values.length ?? 0;
  const avg_fcp = metricAverage(group, METRIC_FCP);
  const p50_fcp = metricQuantile(group, METRIC_FCP, 0.5);
  yield valuesOf(METRIC_FCP);
  const avg_lcp = metricAverage(group, METRIC_LCP);
  const p50_lcp = metricQuantile(group, METRIC_LCP, 0.5);
  const p75_lcp = metricQuantile(group, METRIC_LCP, 0.75);
  yield valuesOf(METRIC_LCP);
  const avg_cls = metricAverage(group, METRIC_CLS);
  const p50_cls = metricQuantile(group, METRIC_CLS, 0.5);
  yield valuesOf(METRIC_CLS);
  const avg_inp = metricAverage(group, METRIC_INP);
  const p75_inp = metricQuantile(group, METRIC_INP, 0.75);
  yield valuesOf(METRIC_INP);
  const avg_ttfb = metricAverage(group, METRIC_TTFB);
  yield valuesOf(METRIC_TTFB);
  return { visitors: group.visitors, avg_fcp, p50_fcp, avg_lcp, p50_lcp, p75_lcp, avg_cls, p50_cls, avg_inp, p75_inp, avg_ttfb, measurements: group.samples };
}

/**
 * Rows per group, ordered by p50 LCP descending (as the SQL), limited to the request's limit.
 * Posted measurements join by `ingestedKeyOf` (none: they are left out); a key that is not a
 * code names its row itself.
 */
function* breakdownRows(
  ctx: RunContext,
  keyOf: (record: VitalsRecord) => number | null,
  label: (code: number) => string,
  ingestedKeyOf?: (vital: VitalSpanRecord) => VitalsKey | null,
): PassSteps<BreakdownRow[]> {
  const groups = yield* groupVitals<VitalsKey>(ctx, false, keyOf, ingestedKeyOf);
  const rows: BreakdownRow[] = [];
  for (const [key, group] of groups) rows.push({ name: typeof key === 'number' ? label(key) : key, ...(yield* statsOf(group)) });
  rows.sort(byNullableDesc((row) => row.p50_lcp));
  return rows.slice(0, ctx.limit ?? ROUTE_DEFAULT_LIMIT);
}

/**
 * Rows per value of a session dimension (the session's first non-empty value); empty values are
 * left out. A posted measurement counts under what its request's User-Agent named.
 */
function sessionBreakdownRows(ctx: RunContext, field: SessionDimension): PassSteps<BreakdownRow[]> {
  const values = ctx.dictionaries.values[field];
  return breakdownRows(
    ctx,
    (r) => (values[sessionCode(r, field)] ? sessionCode(r, field) : null),
    (code) => values[code] ?? '',
    (v) => ingestedDimensionKey(ctx, field, v),
  );
}


/** Daily vitals in the request's time zone (hourly granularity is ignored), days without samples absent. */
function* timeSeriesRows(ctx: RunContext): PassSteps<Row[]> {
  const rows: Row[] = [];
  for (const [date, group] of yield* groupVitalsByDay(ctx)) {
    rows.push({
    date,
    avg_fcp: metricAverage(group, METRIC_FCP),
    p50_fcp: metricQuantile(group, METRIC_FCP, 0.5),
    avg_lcp: metricAverage(group, METRIC_LCP),
    p50_lcp: metricQuantile(group, METRIC_LCP, 0.5),
    avg_cls: metricAverage(group, METRIC_CLS),
    p50_cls: metricQuantile(group, METRIC_CLS, 0.5),
    avg_inp: metricAverage(group, METRIC_INP),
    p50_inp: metricQuantile(group, METRIC_INP, 0.5),
    avg_ttfb: metricAverage(group, METRIC_TTFB),
    p50_ttfb: metricQuantile(group, METRIC_TTFB, 0.5),
    measurements: group.samples,
    });
    yield valueCount(group);
  }
  return rows;
}

/** What a web_vitals_by_* declaration says: the session dimension its rows group by, or its own rows. */
type VitalsBreakdownSpec = { name: string } & (
  | { dimension: SessionDimension; run?: undefined }
  | { dimension?: undefined; steps(ctx: RunContext): PassSteps<Row[]> }
);

/** The rows of a breakdown by one session dimension. */
function sessionBreakdown(dimension: SessionDimension): (ctx: RunContext) => PassSteps<Row[]> {
  return (ctx) => sessionBreakdownRows(ctx, dimension);
}

/**
 * A web_vitals_by_* breakdown, paged by itself. Its pass reads every value of its range, so it
 * runs in pieces ({@link PassSteps}). Its fields and meta are in performance-catalogue.json.
 */
function defineVitalsBreakdown(spec: VitalsBreakdownSpec): QueryTypeDefinition {
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    customizable: true,
    paging: 'self',
    steps: spec.dimension === undefined ? spec.steps : sessionBreakdown(spec.dimension),
  });
}

/** The live performance builders. */
export const performanceTypes: QueryTypeDefinition[] = [
  defineVitalsBreakdown({
    name: 'web_vitals_by_page',
    *steps(ctx) {
    const paths = ctx.dictionaries.values.path;
    return yield* breakdownRows(ctx, (r) => r.activity.path[r.index] as number, (code) => pagePath(paths[code] ?? ''), (v) => ingestedPageKey(ctx, v.path));
    },
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_browser',
    dimension: 'browser_name',
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_country',
    *steps(ctx) {
    const countries = ctx.dictionaries.values.country;
    return withGeo(yield* breakdownRows(ctx, (r) => sessionCode(r, 'country'), (code) => countries[code] ?? ''), countryGeo(ctx));
    },
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_os',
    dimension: 'os_name',
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_device',
    dimension: 'device_type',
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_region',
    *steps(ctx) {
    const regions = ctx.dictionaries.values.region;
    return withGeo(yield* breakdownRows(ctx, (r) => (regions[sessionCode(r, 'region')] ? sessionCode(r, 'region') : null), regionLabel(ctx)), placeGeo);
    },
  }),
  defineQueryType({
    name: 'web_vitals_time_series',
    family: FAMILY,
    customizable: true,
    paging: 'self',
    steps: timeSeriesRows,
  }),
];
