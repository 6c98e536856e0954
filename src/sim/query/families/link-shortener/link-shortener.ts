import { parseReferrer } from '../../readers/parse-referrers.js';
import type { ClickBatch, ClickDimension } from '../../../model/traffic.js';
import { createDistinct, percentage } from '../../readers/aggregate.js';
import { createBucketer } from '../../engine/dates.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { scanClicksSteps } from '../../readers/scan.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import catalogue from './link-shortener-catalogue.json' with { type: 'json' };

/** The link-shortener family: its types read analytics.link_visits; their fields and meta are in link-shortener-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'link-shortener', table: 'analytics.link_visits', catalogue: readCatalogue('link-shortener', catalogue) };

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Orders grouped rows by clicks, most first, then by name so ties are stable. */
function byClicks<T extends { name: string; clicks: number }>(a: T, b: T): number {
  return b.clicks - a.clicks || compareText(a.name, b.name);
}

/** The total of every filtered click of the link. */
function* totalRows(ctx: RunContext): PassSteps<Row[]> {
  let total = 0;
  yield* scanClicksSteps(ctx, (batch) => {
    total += batch.weight;
  });
  return [{ total }];
}

/**
 * One row per time bucket that has clicks (day, or hour when asked; request time zone), bucket
 * ascending: its clicks as `clicks`, or, given `distinct`, the number of distinct values of that
 * dimension among its clicks as `value`.
 */
function* bucketRows(ctx: RunContext, field: 'clicks' | 'value', distinct?: ClickDimension): PassSteps<Row[]> {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const values = new Map<string, { index: number; value: number }>();
  const isNew = createDistinct();
  yield* scanClicksSteps(ctx, (batch, i) => {
    const date = bucket(batch.timeMs[i] as number);
    let entry = values.get(date);
    if (!entry) {
      entry = { index: values.size, value: 0 };
      values.set(date, entry);
    }
    if (!distinct) entry.value += batch.weight;
    else if (isNew(entry.index, batch.dims[distinct][i] as number)) entry.value += 1;
  });
  return [...values]
    .sort(([a], [b]) => compareText(a, b))
    .map(([date, entry]): Row => (field === 'clicks' ? { date, clicks: entry.value } : { date, value: entry.value }));
}

/** Clicks per key of `keyOf`, with the first click's row details from `describe`. */
function* clicksBy<T extends { name: string; clicks: number }>(
  ctx: RunContext,
  keyOf: (batch: ClickBatch, i: number) => string,
  describe: (batch: ClickBatch, i: number) => Omit<T, 'clicks'>,
): PassSteps<T[]> {
  const groups = new Map<string, T>();
  yield* scanClicksSteps(ctx, (batch, i) => {
    const key = keyOf(batch, i);
    const row = groups.get(key);
    if (row) row.clicks += batch.weight;
    else groups.set(key, { ...describe(batch, i), clicks: batch.weight } as T);
  });
  return [...groups.values()].sort(byClicks);
}

interface ReferrerRow {
  name: string;
  referrer: string;
  clicks: number;
  source: string;
  domain: string;
  referrer_type: string;
}

/**
 * Clicks per referring source, named as the service's referrer parser names them: 'Direct' for
 * none, else the source's display name; rows of one name are merged (a source reached through
 * two hosts) and carry the first host's URL.
 */
function* referrerRows(ctx: RunContext): PassSteps<Row[]> {
  const { values, referrerSourceType, sourceTypes } = ctx.dictionaries;
  const rows = yield* clicksBy<ReferrerRow>(
    ctx,
    (batch, i) => {
      const code = batch.dims.referrer[i] as number;
      return code === 0 ? 'direct' : parseReferrer(values.referrer[code] ?? '').name.toLowerCase();
    },
    (batch, i) => {
      const code = batch.dims.referrer[i] as number;
      if (code === 0) return { name: 'Direct', referrer: 'direct', source: 'direct', domain: '', referrer_type: 'direct' };
      const url = values.referrer[code] ?? '';
      const { name, domain } = parseReferrer(url);
      return { name, referrer: url, source: name, domain, referrer_type: (sourceTypes[referrerSourceType[code] as number] ?? 'Referral').toLowerCase() };
    },
  );
  const total = rows.reduce((sum, r) => sum + r.clicks, 0);
  return rows.map((r) => ({
    name: r.name,
    referrer: r.referrer,
    clicks: r.clicks,
    source: r.source,
    domain: r.domain,
    referrer_type: r.referrer_type,
    percentage: percentage(r.clicks, total),
  }));
}

interface PlaceRow {
  name: string;
  country: string;
  clicks: number;
}

/** Clicks per country, region or city (with its country), 'Unknown' for an empty value, with the country's code and name. */
function* placeRows(ctx: RunContext, dimension: 'country' | 'region' | 'city'): PassSteps<Row[]> {
  const { values, countryNames } = ctx.dictionaries;
  const rows = yield* clicksBy<PlaceRow>(
    ctx,
    (batch, i) => `${batch.dims[dimension][i] as number}:${batch.dims.country[i] as number}`,
    (batch, i) => ({
      name: values[dimension][batch.dims[dimension][i] as number] || 'Unknown',
      country: values.country[batch.dims.country[i] as number] || 'Unknown',
    }),
  );
  const codes = new Map(values.country.map((code, index) => [code, index]));
  return rows.map((r) => {
    const index = codes.get(r.country);
    return {
      name: r.name,
      country: r.country,
      clicks: r.clicks,
      country_code: index === undefined ? '' : r.country,
      country_name: index === undefined ? r.country : (countryNames[index] ?? r.country),
    };
  });
}

/** Clicks per raw value of a dimension, 'Unknown' for an empty value. */
function* dimensionRows(ctx: RunContext, dimension: 'device_type' | 'browser_name'): PassSteps<Row[]> {
  const names = ctx.dictionaries.values[dimension];
  const rows = yield* clicksBy<{ name: string; clicks: number }>(
    ctx,
    (batch, i) => String(batch.dims[dimension][i] as number),
    (batch, i) => ({ name: names[batch.dims[dimension][i] as number] || 'Unknown' }),
  );
  return rows.map((r) => ({ name: r.name, clicks: r.clicks }));
}

/** What a link-shortener declaration gives besides what every one of them shares (its fields and meta are in link-shortener-catalogue.json). */
interface LinkTypeSpec {
  readonly name: string;
  readonly limit?: number;
  steps(ctx: RunContext): PassSteps<Row[]>;
}

/** A link-shortener type: a link's clicks, with the builders' filters, not customizable. */
function defineLinkType(spec: LinkTypeSpec): QueryTypeDefinition {
  return defineQueryType({
    name: spec.name,
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    ...(spec.limit === undefined ? {} : { limit: spec.limit }),
    steps: spec.steps,
  });
}

/** link_referrers_by_day, link_countries_by_day: the distinct values of a dimension per bucket. */
function distinctByDay(name: string, dimension: 'referrer' | 'country'): QueryTypeDefinition {
  return defineLinkType({ name, steps: (ctx) => bucketRows(ctx, 'value', dimension) });
}

/** link_top_countries, link_top_regions, link_top_cities: clicks per place, with its country. */
function topPlaces(place: 'country' | 'region' | 'city', plural: string): QueryTypeDefinition {
  return defineLinkType({ name: `link_top_${plural}`, limit: 10, steps: (ctx) => placeRows(ctx, place) });
}

/** The live link-shortener builders. */
export const linkShortenerTypes: QueryTypeDefinition[] = [
  defineLinkType({
    name: 'link_total_clicks',
    steps: totalRows,
  }),
  defineLinkType({
    name: 'link_clicks_by_day',
    steps: (ctx) => bucketRows(ctx, 'clicks'),
  }),
  distinctByDay('link_referrers_by_day', 'referrer'),
  distinctByDay('link_countries_by_day', 'country'),
  defineLinkType({
    name: 'link_top_referrers',
    limit: 10,
    steps: referrerRows,
  }),
  topPlaces('country', 'countries'),
  topPlaces('region', 'regions'),
  topPlaces('city', 'cities'),
  defineLinkType({
    name: 'link_top_devices',
    steps: (ctx) => dimensionRows(ctx, 'device_type'),
  }),
  defineLinkType({
    name: 'link_top_browsers',
    limit: 10,
    steps: (ctx) => dimensionRows(ctx, 'browser_name'),
  }),
];
