import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { int, num, text } from '../../engine/fields.js';
import { parseReferrer } from '../../readers/parse-referrers.js';
import { breakdownSql, dimensionRows, groupVisits, labelledRows, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';

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

/** The live traffic builders. */
export const trafficTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'top_referrers',
    family: 'traffic',
    publicAccess: true,
    customizable: true,
    limit: 100,
    fields: {
      name: text("Referrer Domain", { description: "The referring domain or website" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this referrer" }),
      visitors: int("Visitors", { description: "Unique visitors from this referrer" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts in query-limited referrer groups", unit: "%" }),
      referrer: 'string',
      source: 'string',
      domain: 'string',
      referrer_type: 'string',
      parsed_referrer: 'string',
    },
    meta: {
      title: "Top Referrers",
      description: "External referrer traffic, excluding direct and self-referrals. Normalized aliases sum group-level visitor counts, so visitors may overlap within and across displayed sources. percentage is share of summed visitors in the query-limited source groups before agent row truncation, not site-wide unique visitors or customer acquisition.",
      category: "Acquisition",
      tags: ["referrers", "traffic sources", "external", "backlinks"],
      default_visualization: "table",
    },
    sql: breakdownSql('domain(referrer)'),
    run(ctx) {
      return referrerRows(ctx, false);
    },
  }),
  defineQueryType({
    name: 'utm_sources',
    family: 'traffic',
    publicAccess: true,
    filters: ["utm_source"],
    customizable: true,
    limit: 100,
    fields: {
      name: text("UTM Source", { description: "The UTM source parameter value" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this source" }),
      visitors: int("Visitors", { description: "Unique visitors from this source" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts across all UTM source groups", unit: "%" }),
    },
    meta: {
      title: "UTM Sources",
      description: "Traffic breakdown by UTM source parameters from your marketing campaigns and tracked links.",
      category: "Acquisition",
      tags: ["utm", "campaigns", "marketing", "sources"],
      default_visualization: "table",
    },
    sql: breakdownSql('utm_source'),
    run(ctx) {
      return dimensionRows(ctx, 'utm_source');
    },
  }),
  defineQueryType({
    name: 'utm_mediums',
    family: 'traffic',
    publicAccess: true,
    filters: ["utm_medium"],
    customizable: true,
    limit: 100,
    fields: {
      name: text("UTM Medium", { description: "The UTM medium parameter value" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this medium" }),
      visitors: int("Visitors", { description: "Unique visitors from this medium" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts across all UTM medium groups", unit: "%" }),
    },
    meta: {
      title: "UTM Mediums",
      description: "Traffic breakdown by UTM medium parameters (e.g. cpc, email, social).",
      category: "Acquisition",
      tags: ["utm", "medium", "acquisition"],
      default_visualization: "table",
    },
    sql: breakdownSql('utm_medium'),
    run(ctx) {
      return dimensionRows(ctx, 'utm_medium');
    },
  }),
  defineQueryType({
    name: 'utm_campaigns',
    family: 'traffic',
    publicAccess: true,
    filters: ["utm_campaign"],
    customizable: true,
    limit: 100,
    fields: {
      name: text("Campaign Name", { description: "The UTM campaign parameter value" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this campaign" }),
      visitors: int("Visitors", { description: "Unique visitors from this campaign" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts across all UTM campaign groups", unit: "%" }),
    },
    meta: {
      title: "UTM Campaigns",
      description: "Performance breakdown by UTM campaign parameters to track individual marketing campaign effectiveness.",
      category: "Acquisition",
      tags: ["utm", "campaigns", "marketing", "performance"],
      default_visualization: "table",
    },
    sql: breakdownSql('utm_campaign'),
    run(ctx) {
      return dimensionRows(ctx, 'utm_campaign');
    },
  }),
  defineQueryType({
    name: 'utm_terms',
    family: 'traffic',
    derives: [deviceDetailsOf],
    filters: ["utm_term"],
    customizable: true,
    limit: 100,
    fields: {
      name: text("UTM Term", { description: "The UTM term parameter value" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this term" }),
      visitors: int("Visitors", { description: "Unique visitors from this term" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts across all UTM term groups", unit: "%" }),
    },
    meta: {
      title: "UTM Terms",
      description: "Traffic breakdown by UTM term parameters, typically used for keyword tracking in paid campaigns.",
      category: "Acquisition",
      tags: ["utm", "campaigns", "keywords", "terms"],
      default_visualization: "table",
    },
    sql: breakdownSql('utm_term'),
    run(ctx) {
      return derivedUtmRows(ctx, 'utmTerm');
    },
  }),
  defineQueryType({
    name: 'utm_content',
    family: 'traffic',
    derives: [deviceDetailsOf],
    filters: ["utm_content"],
    customizable: true,
    limit: 100,
    fields: {
      name: text("UTM Content", { description: "The UTM content parameter value" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this content" }),
      visitors: int("Visitors", { description: "Unique visitors from this content" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts across all UTM content groups", unit: "%" }),
    },
    meta: {
      title: "UTM Content",
      description: "Traffic breakdown by UTM content parameters, used to differentiate similar content or links within the same campaign.",
      category: "Acquisition",
      tags: ["utm", "campaigns", "content", "creative"],
      default_visualization: "table",
    },
    sql: breakdownSql('utm_content'),
    run(ctx) {
      return derivedUtmRows(ctx, 'utmContent');
    },
  }),
  defineQueryType({
    name: 'traffic_sources',
    family: 'traffic',
    publicAccess: true,
    customizable: true,
    limit: 100,
    fields: {
      name: text("Source", { description: "The traffic source name or referrer domain" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this source" }),
      visitors: int("Visitors", { description: "Unique visitors from this source" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts in query-limited source groups", unit: "%" }),
      referrer: 'string',
      source: 'string',
      domain: 'string',
      referrer_type: 'string',
      parsed_referrer: 'string',
    },
    meta: {
      title: "Traffic Sources",
      description: "Page-view traffic by source; self-referrals are folded into Direct. Normalized aliases sum group-level visitor counts, so visitors may overlap within and across displayed sources. percentage is share of summed visitors in the query-limited source groups before agent row truncation, not site-wide unique visitors or customer acquisition.",
      category: "Acquisition",
      tags: ["traffic sources", "direct", "referrers", "acquisition"],
      default_visualization: "table",
    },
    sql: breakdownSql("multiIf(referrer = '', 'direct', domain(referrer))"),
    run(ctx) {
      return referrerRows(ctx, true);
    },
  }),
];
