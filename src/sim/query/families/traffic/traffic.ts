import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { declareUnder, defineQueryType, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { int, num, text } from '../../engine/fields.js';
import { parseReferrer } from '../../readers/parse-referrers.js';
import { breakdownSql, defineDimensionBreakdown, groupVisits, labelledRows, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';

/**
 * Referrer rows as the live service answers them: grouped by the normalised referrer (distinct
 * visitors per group), then the parseReferrers fields, then deduplicateReferrers merging rows of
 * one display name (summing pageviews and visitors, so visitors may overlap) and recomputing the
 * share of summed visitors. `withDirect` keeps the direct row (traffic_sources).
 */
function referrerRows(ctx: RunContext, withDirect: boolean): Row[] {
  const { referrerSourceType, sourceTypes } = ctx.dictionaries;
  const groups = groupVisits(ctx, (s) => {
    const code = s.batch.dims.referrer[s.index] as number;
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
function derivedUtmRows(ctx: RunContext, field: 'utmTerm' | 'utmContent'): Row[] {
  return labelledRows(ctx, (s) => {
    const value = s.details()[field][s.index] as string;
    return value === '' ? null : value;
  });
}

/**
 * A breakdown by one UTM parameter (utm_sources … utm_content): its filter, limit 100, the
 * live meta these builders share in the `Acquisition` category, the rows of its dictionary
 * dimension or of the details.
 */
function defineUtmBreakdown(spec: {
  name: string;
  param: 'source' | 'medium' | 'campaign' | 'term' | 'content';
  label: string;
  publicAccess?: boolean;
  title: string;
  description: string;
  tags: string[];
  /** The rows: of the parameter's dictionary dimension, or of the details (term, content). */
  rows: 'utm_source' | 'utm_medium' | 'utm_campaign' | ((ctx: RunContext) => Row[]);
}): QueryTypeDefinition {
  const { param } = spec;
  const declaration = {
    name: spec.name,
    family: 'traffic',
    ...(typeof spec.rows === 'function' ? { derives: [deviceDetailsOf] } : {}),
    ...(spec.publicAccess === true ? { publicAccess: true } : {}),
    filters: [`utm_${param}`],
    limit: 100,
    fields: {
      name: text(spec.label, { description: `The UTM ${param} parameter value` }),
      pageviews: int("Pageviews", { description: `Total pageviews from this ${param}` }),
      visitors: int("Visitors", { description: `Unique visitors from this ${param}` }),
      percentage: num("Traffic %", { description: `Share of summed visitor counts across all UTM ${param} groups`, unit: "%" }),
    },
    meta: { title: spec.title, description: spec.description, category: "Acquisition", tags: spec.tags, default_visualization: "table" },
  };
  const rows = spec.rows;
  return typeof rows === 'function'
    ? defineQueryType({ ...declaration, customizable: true, sql: breakdownSql(`utm_${param}`), run: rows })
    : defineDimensionBreakdown({ ...declaration, dimension: rows });
}

/** What every traffic declaration below shares. */
const defineTrafficType = declareUnder({
  family: 'traffic',
  publicAccess: true,
  customizable: true,
  limit: 100,
  category: "Acquisition",
});

/** The fields the live parseReferrers plugin adds to a referrer breakdown, which the meta does not list. */
const PARSED_REFERRER_FIELDS = { referrer: 'string', source: 'string', domain: 'string', referrer_type: 'string', parsed_referrer: 'string' } as const;

/** The live traffic builders. */
export const trafficTypes: QueryTypeDefinition[] = [
  defineTrafficType({
    name: 'top_referrers',
    fields: {
      name: text("Referrer Domain", { description: "The referring domain or website" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this referrer" }),
      visitors: int("Visitors", { description: "Unique visitors from this referrer" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts in query-limited referrer groups", unit: "%" }),
      ...PARSED_REFERRER_FIELDS,
    },
    meta: {
      title: "Top Referrers",
      description: "External referrer traffic, excluding direct and self-referrals. Normalized aliases sum group-level visitor counts, so visitors may overlap within and across displayed sources. percentage is share of summed visitors in the query-limited source groups before agent row truncation, not site-wide unique visitors or customer acquisition.",
      tags: ["referrers", "traffic sources", "external", "backlinks"],
      default_visualization: "table",
    },
    sql: breakdownSql('domain(referrer)'),
    run(ctx) {
      return referrerRows(ctx, false);
    },
  }),
  defineUtmBreakdown({
    name: 'utm_sources',
    param: 'source',
    label: "UTM Source",
    publicAccess: true,
    title: "UTM Sources",
    description: "Traffic breakdown by UTM source parameters from your marketing campaigns and tracked links.",
    tags: ["utm", "campaigns", "marketing", "sources"],
    rows: 'utm_source',
  }),
  defineUtmBreakdown({
    name: 'utm_mediums',
    param: 'medium',
    label: "UTM Medium",
    publicAccess: true,
    title: "UTM Mediums",
    description: "Traffic breakdown by UTM medium parameters (e.g. cpc, email, social).",
    tags: ["utm", "medium", "acquisition"],
    rows: 'utm_medium',
  }),
  defineUtmBreakdown({
    name: 'utm_campaigns',
    param: 'campaign',
    label: "Campaign Name",
    publicAccess: true,
    title: "UTM Campaigns",
    description: "Performance breakdown by UTM campaign parameters to track individual marketing campaign effectiveness.",
    tags: ["utm", "campaigns", "marketing", "performance"],
    rows: 'utm_campaign',
  }),
  defineUtmBreakdown({
    name: 'utm_terms',
    param: 'term',
    label: "UTM Term",
    title: "UTM Terms",
    description: "Traffic breakdown by UTM term parameters, typically used for keyword tracking in paid campaigns.",
    tags: ["utm", "campaigns", "keywords", "terms"],
    rows: (ctx) => derivedUtmRows(ctx, 'utmTerm'),
  }),
  defineUtmBreakdown({
    name: 'utm_content',
    param: 'content',
    label: "UTM Content",
    title: "UTM Content",
    description: "Traffic breakdown by UTM content parameters, used to differentiate similar content or links within the same campaign.",
    tags: ["utm", "campaigns", "content", "creative"],
    rows: (ctx) => derivedUtmRows(ctx, 'utmContent'),
  }),
  defineTrafficType({
    name: 'traffic_sources',
    fields: {
      name: text("Source", { description: "The traffic source name or referrer domain" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this source" }),
      visitors: int("Visitors", { description: "Unique visitors from this source" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts in query-limited source groups", unit: "%" }),
      ...PARSED_REFERRER_FIELDS,
    },
    meta: {
      title: "Traffic Sources",
      description: "Page-view traffic by source; self-referrals are folded into Direct. Normalized aliases sum group-level visitor counts, so visitors may overlap within and across displayed sources. percentage is share of summed visitors in the query-limited source groups before agent row truncation, not site-wide unique visitors or customer acquisition.",
      tags: ["traffic sources", "direct", "referrers", "acquisition"],
      default_visualization: "table",
    },
    sql: breakdownSql("multiIf(referrer = '', 'direct', domain(referrer))"),
    run(ctx) {
      return referrerRows(ctx, true);
    },
  }),
];
