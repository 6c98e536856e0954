import { METRIC_CLS, METRIC_FCP, METRIC_INP, METRIC_LCP, METRIC_TTFB, type VitalsBatch } from '../../../model/derived/vitals.js';
import type { SessionDimension } from '../../../model/traffic.js';
import type { ActivityRecord } from '../../readers/activity-scan.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { int, numOrNull, text } from '../../engine/fields.js';
import { vitalsDerivation } from '../../../model/derived/vitals.js';
import type { VitalSpanRecord } from '../../../ingest/span-kinds.js';
import { byNullableDesc, groupVitals, groupVitalsByDay, ingestedDimensionKey, ingestedPageKey, metricAverage, metricQuantile, countryGeo, placeGeo, regionLabel, type VitalsGroup, type VitalsKey, withGeo } from '../../readers/vitals-stats.js';
import { pagePath } from '../../readers/vitals-labels.js';

/** The performance family: its types read analytics.web_vitals_spans, deriving vitalsDerivation on each day of their range. */
const FAMILY: QueryFamilySpec = { name: 'performance', table: 'analytics.web_vitals_spans', derives: [vitalsDerivation] };

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

function statsOf(group: VitalsGroup): WebVitalsStats {
  return {
    visitors: group.visitors,
    avg_fcp: metricAverage(group, METRIC_FCP),
    p50_fcp: metricQuantile(group, METRIC_FCP, 0.5),
    avg_lcp: metricAverage(group, METRIC_LCP),
    p50_lcp: metricQuantile(group, METRIC_LCP, 0.5),
    p75_lcp: metricQuantile(group, METRIC_LCP, 0.75),
    avg_cls: metricAverage(group, METRIC_CLS),
    p50_cls: metricQuantile(group, METRIC_CLS, 0.5),
    avg_inp: metricAverage(group, METRIC_INP),
    p75_inp: metricQuantile(group, METRIC_INP, 0.75),
    avg_ttfb: metricAverage(group, METRIC_TTFB),
    measurements: group.samples,
  };
}

/**
 * Rows per group, ordered by p50 LCP descending (as the SQL), limited to the request's limit.
 * Posted measurements join by `ingestedKeyOf` (none: they are left out); a key that is not a
 * code names its row itself.
 */
function breakdownRows(
  ctx: RunContext,
  keyOf: (record: VitalsRecord) => number | null,
  label: (code: number) => string,
  ingestedKeyOf?: (vital: VitalSpanRecord) => VitalsKey | null,
): BreakdownRow[] {
  const groups = groupVitals<VitalsKey>(ctx, false, keyOf, ingestedKeyOf);
  const rows = [...groups].map(([key, group]) => ({ name: typeof key === 'number' ? label(key) : key, ...statsOf(group) }));
  rows.sort(byNullableDesc((row) => row.p50_lcp));
  return rows.slice(0, ctx.limit ?? ROUTE_DEFAULT_LIMIT);
}

/**
 * Rows per value of a session dimension (the session's first non-empty value); empty values are
 * left out. A posted measurement counts under what its request's User-Agent named.
 */
function sessionBreakdownRows(ctx: RunContext, field: SessionDimension): BreakdownRow[] {
  const values = ctx.dictionaries.values[field];
  return breakdownRows(
    ctx,
    (r) => (values[sessionCode(r, field)] ? sessionCode(r, field) : null),
    (code) => values[code] ?? '',
    (v) => ingestedDimensionKey(ctx, field, v),
  );
}


/** Daily vitals in the request's time zone (hourly granularity is ignored), days without samples absent. */
function timeSeriesRows(ctx: RunContext): Row[] {
  return groupVitalsByDay(ctx).map(([date, group]) => ({
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
  }));
}

/** The fields every web_vitals_by_* breakdown starts with, in the live order. */
const BREAKDOWN_FIELDS = {
  name: text("Name"),
  visitors: int("Visitors"),
  avg_fcp: numOrNull("Avg FCP"),
  p50_fcp: numOrNull("p50 FCP"),
  avg_lcp: numOrNull("Avg LCP"),
  p50_lcp: numOrNull("p50 LCP"),
  p75_lcp: numOrNull("p75 LCP"),
  avg_cls: numOrNull("Avg CLS"),
  p50_cls: numOrNull("p50 CLS"),
  avg_inp: numOrNull("Avg INP"),
  p75_inp: numOrNull("p75 INP"),
  avg_ttfb: numOrNull("Avg TTFB"),
  measurements: int("Measurements"),
};

/** The fields the geographic breakdowns add after those, which their meta does not list. */
const GEO_FIELDS = { country_code: 'string', country_name: 'string', percentage: 'number' } as const;

/** What a web_vitals_by_* declaration says: its meta, and the session dimension its rows group by, or its own rows. */
type VitalsBreakdownSpec = { name: string; title: string; description: string; tags: string[]; geo?: boolean } & (
  | { dimension: SessionDimension; run?: undefined }
  | { dimension?: undefined; run(ctx: RunContext): Row[] }
);

/** The rows of a breakdown by one session dimension. */
function sessionBreakdown(dimension: SessionDimension): (ctx: RunContext) => Row[] {
  return (ctx) => sessionBreakdownRows(ctx, dimension);
}

/**
 * A web_vitals_by_* breakdown: the {@link BREAKDOWN_FIELDS} (and {@link GEO_FIELDS} for a
 * geographic one), paged by itself, with the live meta these builders share.
 */
function defineVitalsBreakdown(spec: VitalsBreakdownSpec): QueryTypeDefinition {
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    customizable: true,
    paging: 'self',
    fields: spec.geo === true ? { ...BREAKDOWN_FIELDS, ...GEO_FIELDS } : BREAKDOWN_FIELDS,
    meta: {
      title: spec.title,
      description: spec.description,
      category: "Performance",
      tags: spec.tags,
      default_visualization: "table",
    },
    run: spec.dimension === undefined ? spec.run : sessionBreakdown(spec.dimension),
  });
}

/** The live performance builders. */
export const performanceTypes: QueryTypeDefinition[] = [
  defineVitalsBreakdown({
    name: 'web_vitals_by_page',
    title: "Web Vitals by Page",
    description: "Average and p50 Core Web Vitals per page.",
    tags: ["vitals", "performance", "page"],
    run(ctx) {
    const paths = ctx.dictionaries.values.path;
    return breakdownRows(ctx, (r) => r.activity.path[r.index] as number, (code) => pagePath(paths[code] ?? ''), (v) => ingestedPageKey(ctx, v.path));
    },
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_browser',
    title: "Web Vitals by Browser",
    description: "Average and p50 Core Web Vitals per browser.",
    tags: ["vitals", "performance", "browser"],
    dimension: 'browser_name',
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_country',
    title: "Web Vitals by Country",
    description: "Average and p50 Core Web Vitals per country.",
    tags: ["vitals", "performance", "country", "geo"],
    geo: true,
    run(ctx) {
    const countries = ctx.dictionaries.values.country;
    return withGeo(breakdownRows(ctx, (r) => sessionCode(r, 'country'), (code) => countries[code] ?? ''), countryGeo(ctx));
    },
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_os',
    title: "Web Vitals by OS",
    description: "Average and p50 Core Web Vitals per operating system.",
    tags: ["vitals", "performance", "os"],
    dimension: 'os_name',
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_device',
    title: "Web Vitals by Device Type",
    description: "Average and p50 Core Web Vitals split by mobile / desktop / tablet. Use it for mobile-vs-desktop comparisons.",
    tags: ["vitals", "performance", "device", "mobile", "desktop"],
    dimension: 'device_type',
  }),
  defineVitalsBreakdown({
    name: 'web_vitals_by_region',
    title: "Web Vitals by Region",
    description: "Average and p50 Core Web Vitals per region.",
    tags: ["vitals", "performance", "region", "geo"],
    geo: true,
    run(ctx) {
    const regions = ctx.dictionaries.values.region;
    return withGeo(breakdownRows(ctx, (r) => (regions[sessionCode(r, 'region')] ? sessionCode(r, 'region') : null), regionLabel(ctx)), placeGeo);
    },
  }),
  defineQueryType({
    name: 'web_vitals_time_series',
    family: FAMILY,
    customizable: true,
    paging: 'self',
    fields: {
      date: text("Date"),
      avg_fcp: numOrNull("Avg FCP"),
      p50_fcp: numOrNull("p50 FCP"),
      avg_lcp: numOrNull("Avg LCP"),
      p50_lcp: numOrNull("p50 LCP"),
      avg_cls: numOrNull("Avg CLS"),
      p50_cls: numOrNull("p50 CLS"),
      avg_inp: numOrNull("Avg INP"),
      p50_inp: numOrNull("p50 INP"),
      avg_ttfb: numOrNull("Avg TTFB"),
      p50_ttfb: numOrNull("p50 TTFB"),
      measurements: int("Measurements"),
    },
    meta: {
      title: "Web Vitals Time Series",
      description: "Daily averages and p50s for each Core Web Vital metric.",
      category: "Performance",
      tags: ["vitals", "performance", "time-series"],
      default_visualization: "timeseries",
      supports_granularity: ["hour", "day"],
    },
    run(ctx) {
      return timeSeriesRows(ctx);
    },
  }),
];
