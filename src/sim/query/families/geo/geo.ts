import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { int, num, text } from '../../engine/fields.js';
import { breakdownSql, defineDimensionBreakdown, dimensionRows, groupVisits, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';

/**
 * The live normalizeGeo plugin: `country_code` and `country_name` from the row's country (an
 * ISO 3166-1 alpha-2 code in the world's data).
 */
function geoFields(ctx: RunContext, countryCode: number): { country_code: string; country_name: string } {
  return {
    country_code: ctx.dictionaries.values.country[countryCode] ?? '',
    country_name: ctx.dictionaries.countryNames[countryCode] ?? '',
  };
}

/**
 * Rows of a place breakdown with its country (region, city): one row per (place, country),
 * places with an empty name left out, then the normalizeGeo fields.
 */
function placeRows(ctx: RunContext, dimension: 'region' | 'city', countryOf: (code: number) => number): Row[] {
  const values = ctx.dictionaries.values[dimension];
  const groups = groupVisits(ctx, (s) => {
    const code = s.batch.dims[dimension][s.index] as number;
    return values[code] ? code : null;
  });
  const rows: Row[] = [];
  for (const [code, stats] of groups) {
    const country = countryOf(code);
    const countryCode = ctx.dictionaries.values.country[country] ?? '';
    rows.push({ name: values[code] ?? '', country: countryCode, pageviews: stats.pageviews, visitors: stats.visitors, countryIndex: country });
  }
  const ordered = sortByVisitors(rows, (r) => `${r.name as string}\u0000${r.country as string}`);
  const total = visitorTotal(ordered);
  return ordered.map((r) => ({
    name: r.name as string,
    country: r.country as string,
    pageviews: r.pageviews as number,
    visitors: r.visitors as number,
    percentage: visitorShare(r.visitors as number, total),
    ...geoFields(ctx, r.countryIndex as number),
  }));
}

/**
 * The region or city breakdown: a row per (place, country), public, limit 100, with the live
 * meta these builders share in the `Geography` category.
 */
function definePlaceBreakdown(spec: {
  place: 'region' | 'city';
  label: string;
  labelDescription: string;
  title: string;
  description: string;
  tags: string[];
  countryOf: (ctx: RunContext, code: number) => number;
}): QueryTypeDefinition {
  const { place } = spec;
  return defineQueryType({
    name: place,
    family: 'geo',
    publicAccess: true,
    customizable: true,
    limit: 100,
    fields: {
      name: text(spec.label, { description: spec.labelDescription }),
      country: text("Country", { description: `Country containing this ${place}` }),
      pageviews: int("Pageviews", { description: `Total pageviews from this ${place}` }),
      visitors: int("Visitors", { description: `Unique visitors from this ${place}` }),
      percentage: num("Traffic %", { description: `Share of summed visitor counts across all ${place} groups`, unit: "%" }),
      country_code: 'string',
      country_name: 'string',
    },
    meta: { title: spec.title, description: spec.description, category: "Geography", tags: spec.tags, default_visualization: "table" },
    sql: breakdownSql(place, { extra: ['country'] }),
    run: (ctx) => placeRows(ctx, place, (code) => spec.countryOf(ctx, code)),
  });
}

/** The live geo builders. */
export const geoTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'country',
    family: 'geo',
    publicAccess: true,
    customizable: true,
    limit: 100,
    fields: {
      name: text("Country", { description: "Country name" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this country" }),
      visitors: int("Visitors", { description: "Unique visitors from this country" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts in query-limited country groups, excluding unknown locations", unit: "%" }),
      country_code: 'string',
      country_name: 'string',
    },
    meta: {
      title: "Countries",
      description: "Page-view traffic by known country; empty locations are excluded. Visitors are counted per country and can overlap across countries. Normalized country aliases sum their visitor counts. percentage is each group's visitors divided by the sum of visitors in the query-limited groups before agent row truncation, not site-wide unique visitors.",
      category: "Geography",
      tags: ["countries", "geography", "international", "audience"],
      default_visualization: "table",
    },
    sql: breakdownSql('country'),
    run(ctx) {
      // deduplicateGeo merges rows sharing a country code; the world has one row per code already.
      const codes = new Map<string, number>(ctx.dictionaries.values.country.map((c, i) => [c, i]));
      return dimensionRows(ctx, 'country').map((r) => ({ ...r, ...geoFields(ctx, codes.get(r.name as string) as number) }));
    },
  }),
  definePlaceBreakdown({
    place: 'region',
    label: "Region/State",
    labelDescription: "Region or state name",
    title: "Regions",
    description: "Traffic breakdown by region/state to understand local audience within countries.",
    tags: ["regions", "states", "local", "geography"],
    countryOf: (ctx, region) => ctx.dictionaries.regionCountry[region] as number,
  }),
  defineDimensionBreakdown({
    name: 'timezone',
    family: 'geo',
    dimension: 'timezone',
    olderPublicAccess: true,
    limit: 100,
    meta: {
      description: "Visitor distribution by timezone.",
      category: "Geography",
      tags: ["timezone", "geography", "audience"],
    },
  }),
  defineDimensionBreakdown({
    name: 'language',
    family: 'geo',
    dimension: 'language',
    olderPublicAccess: true,
    limit: 100,
    meta: {
      description: "Visitor distribution by browser language setting.",
      category: "Audience",
      tags: ["language", "audience", "demographics"],
    },
  }),
  definePlaceBreakdown({
    place: 'city',
    label: "City",
    labelDescription: "City name",
    title: "Cities",
    description: "Detailed city-level traffic breakdown for hyperlocal audience analysis and targeting.",
    tags: ["cities", "local", "hyperlocal", "targeting"],
    countryOf: (ctx, city) => ctx.dictionaries.regionCountry[ctx.dictionaries.cityRegion[city] as number] as number,
  }),
];
