import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, defineQueryType, type QueryFamilySpec, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { parseReferrer } from '../../readers/parse-referrers.js';
import { DIMENSION_DAY_DIGESTS } from '../../readers/dimension-day-digest.js';
import { breakdownSql, defineDimensionBreakdown, groupVisitsByCodeSteps, labelledRowsSteps, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import catalogue from './traffic-catalogue.json' with { type: 'json' };

/** The traffic family: its types' fields and meta are in traffic-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'traffic', catalogue: readCatalogue('traffic', catalogue) };

/**
 * Referrer rows as the live service answers them: grouped by the normalised referrer (distinct
 * visitors per group), then the parseReferrers fields, then deduplicateReferrers merging rows of
 * one display name (summing pageviews and visitors, so visitors may overlap) and recomputing the
 * share of summed visitors. `withDirect` keeps the direct row (traffic_sources).
 */
function* referrerRows(ctx: RunContext, withDirect: boolean): PassSteps<Row[]> {
  const { referrerSourceType, sourceTypes } = ctx.dictionaries;
  const groups = yield* groupVisitsByCodeSteps(ctx, 'referrer', (code) => {
    if (code === 0 && !withDirect) return null;
    return code === 0 ? 'direct' : parseReferrer(ctx.dictionaries.values.referrer[code] ?? '').url;
  });
  const typeOfUrl = new Map<string, string>();
  ctx.dictionaries.values.referrer.forEach((url, code) => {
    if (code === 0) return;
    const parsed = parseReferrer(url);
    if (!typeOfUrl.has(parsed.url)) typeOfUrl.set(parsed.url, (sourceTypes[referrerSourceType[code] as number] ?? 'Referral').toLowerCase());
  });
  const merged = new Map<string, Row>();
  const ordered = sortByVisitors(
    [...groups].map(([url, stats]): Row => ({ url, pageviews: stats.pageviews, visitors: stats.visitors })),
    (r) => r.url as string,
  );
  for (const group of ordered) {
    const url = group.url as string;
    const parsed = url === 'direct' ? parseReferrer('') : parseReferrer(url);
    const key = parsed.name.toLowerCase();
    const row = merged.get(key);
    if (row) {
      row.pageviews = (row.pageviews as number) + (group.pageviews as number);
      row.visitors = (row.visitors as number) + (group.visitors as number);
      continue;
    }
    merged.set(key, {
      name: parsed.name,
      pageviews: group.pageviews as number,
      visitors: group.visitors as number,
      percentage: 0,
      referrer: parsed.url,
      source: parsed.url,
      domain: parsed.domain,
      referrer_type: url === 'direct' ? 'direct' : (typeOfUrl.get(url) ?? 'referral'),
      parsed_referrer: parsed.name,
    });
  }
  const rows = sortByVisitors([...merged.values()], (r) => r.name as string);
  const total = visitorTotal(rows);
  for (const row of rows) row.percentage = visitorShare(row.visitors as number, total);
  return rows;
}

/** Rows of a UTM tag the samples lack (utm_term, utm_content), sessions without one left out. */
function derivedUtmRows(ctx: RunContext, field: 'utmTerm' | 'utmContent'): PassSteps<Row[]> {
  return labelledRowsSteps(ctx, (s) => {
    const value = s.details()[field][s.index] as string;
    return value === '' ? null : value;
  });
}

/**
 * A breakdown by one UTM parameter (utm_sources … utm_content): its filter, limit 100, the rows
 * of its dictionary dimension or of the details; its fields and meta are in traffic-catalogue.json.
 */
function defineUtmBreakdown(spec: {
  name: string;
  param: 'source' | 'medium' | 'campaign' | 'term' | 'content';
  publicAccess?: boolean;
  /** The rows: of the parameter's dictionary dimension, or of the details (term, content). */
  rows: 'utm_source' | 'utm_medium' | 'utm_campaign' | ((ctx: RunContext) => PassSteps<Row[]>);
}): QueryTypeDefinition {
  const { param } = spec;
  const declaration = {
    name: spec.name,
    family: FAMILY,
    ...(typeof spec.rows === 'function' ? { derives: [deviceDetailsOf] } : {}),
    ...(spec.publicAccess === true ? { publicAccess: true } : {}),
    filters: [`utm_${param}`],
    limit: 100,
  };
  const rows = spec.rows;
  return typeof rows === 'function'
    ? defineQueryType({ ...declaration, customizable: true, sql: breakdownSql(`utm_${param}`), steps: rows })
    : defineDimensionBreakdown({ ...declaration, dimension: rows });
}

/** What every traffic declaration below shares. */
const defineTrafficType = declareUnder({
  family: FAMILY,
  publicAccess: true,
  customizable: true,
  limit: 100,
});

/** The live traffic builders. */
export const trafficTypes: QueryTypeDefinition[] = [
  defineTrafficType({
    name: 'top_referrers',
    derives: [DIMENSION_DAY_DIGESTS.referrer],
    sql: breakdownSql('domain(referrer)'),
    steps: (ctx) => referrerRows(ctx, false),
  }),
  defineUtmBreakdown({
    name: 'utm_sources',
    param: 'source',
    publicAccess: true,
    rows: 'utm_source',
  }),
  defineUtmBreakdown({
    name: 'utm_mediums',
    param: 'medium',
    publicAccess: true,
    rows: 'utm_medium',
  }),
  defineUtmBreakdown({
    name: 'utm_campaigns',
    param: 'campaign',
    publicAccess: true,
    rows: 'utm_campaign',
  }),
  defineUtmBreakdown({
    name: 'utm_terms',
    param: 'term',
    rows: (ctx) => derivedUtmRows(ctx, 'utmTerm'),
  }),
  defineUtmBreakdown({
    name: 'utm_content',
    param: 'content',
    rows: (ctx) => derivedUtmRows(ctx, 'utmContent'),
  }),
  defineTrafficType({
    name: 'traffic_sources',
    derives: [DIMENSION_DAY_DIGESTS.referrer],
    sql: breakdownSql("multiIf(referrer = '', 'direct', domain(referrer))"),
    steps: (ctx) => referrerRows(ctx, true),
  }),
];
