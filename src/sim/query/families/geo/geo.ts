import { readCatalogue } from '../../engine/catalogue.js';
import { defineQueryType, type QueryFamilySpec, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { breakdownSql, defineDimensionBreakdown, dimensionRowsSteps, groupVisitsByCodeSteps, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import catalogue from './geo-catalogue.json' with { type: 'json' };
import { DIMENSION_DAY_DIGESTS } from '../../readers/dimension-day-digest.js';

/** The geo family: its types' fields and meta are in geo-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'geo', catalogue: readCatalogue('geo', catalogue) };

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
function* placeRows(ctx: RunContext, dimension: 'region' | 'city', countryOf: (code: number) => number): PassSteps<Row[]> {
  const values = ctx.dictionaries.values[dimension];
  const groups = yield* groupVisitsByCodeSteps(ctx, dimension, (code) => (values[code] ? code : null));
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
 * The region or city breakdown: a row per (place, country), public, limit 100; its fields and
 * meta are in geo-catalogue.json.
 */
function definePlaceBreakdown(spec: { place: 'region' | 'city'; countryOf: (ctx: RunContext, code: number) => number }): QueryTypeDefinition {
  const { place } = spec;
  return defineQueryType({
    name: place,
    family: FAMILY,
    publicAccess: true,
    customizable: true,
    limit: 100,
    derives: [DIMENSION_DAY_DIGESTS[place]],
    sql: breakdownSql(place, { extra: ['country'] }),
    steps: (ctx) => placeRows(ctx, place, (code) => spec.countryOf(ctx, code)),
  });
}

/** The live geo builders. */
export const geoTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'country',
    family: FAMILY,
    publicAccess: true,
    customizable: true,
    limit: 100,
    derives: [DIMENSION_DAY_DIGESTS.country],
    sql: breakdownSql('country'),
    *steps(ctx) {
      // deduplicateGeo merges rows sharing a country code; the world has one row per code already.
      const codes = new Map<string, number>(ctx.dictionaries.values.country.map((c, i) => [c, i]));
      return (yield* dimensionRowsSteps(ctx, 'country')).map((r) => ({ ...r, ...geoFields(ctx, codes.get(r.name as string) as number) }));
    },
  }),
  definePlaceBreakdown({
    place: 'region',
    countryOf: (ctx, region) => ctx.dictionaries.regionCountry[region] as number,
  }),
  defineDimensionBreakdown({
    name: 'timezone',
    family: FAMILY,
    dimension: 'timezone',
    olderPublicAccess: true,
    limit: 100,
  }),
  defineDimensionBreakdown({
    name: 'language',
    family: FAMILY,
    dimension: 'language',
    olderPublicAccess: true,
    limit: 100,
  }),
  definePlaceBreakdown({
    place: 'city',
    countryOf: (ctx, city) => ctx.dictionaries.regionCountry[ctx.dictionaries.cityRegion[city] as number] as number,
  }),
];
