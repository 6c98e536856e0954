import { parseReferrer } from '../../readers/parse-referrers.js';
import type { ClickBatch, ClickDimension } from '../../../model/traffic.js';
import { createDistinct, percentage } from '../../readers/aggregate.js';
import { createBucketer } from '../../engine/dates.js';
import { defineQueryType, type QueryTypeDefinition, type Row, type RunContext, type QueryFamilySpec } from '../../engine/definition.js';
import { int, text } from '../../engine/fields.js';
import { scanClicks } from '../../readers/scan.js';

/** The link-shortener family: its types read analytics.link_visits. */
const FAMILY: QueryFamilySpec = { name: 'link-shortener', table: 'analytics.link_visits' };

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Orders grouped rows by clicks, most first, then by name so ties are stable. */
function byClicks<T extends { name: string; clicks: number }>(a: T, b: T): number {
  return b.clicks - a.clicks || compareText(a.name, b.name);
}

/** The total of every filtered click of the link. */
function totalRows(ctx: RunContext): Row[] {
  let total = 0;
  scanClicks(ctx, (batch) => {
    total += batch.weight;
  });
  return [{ total }];
}

/**
 * One row per time bucket that has clicks (day, or hour when asked; request time zone), bucket
 * ascending: its clicks as `clicks`, or, given `distinct`, the number of distinct values of that
 * dimension among its clicks as `value`.
 */
function bucketRows(ctx: RunContext, field: 'clicks' | 'value', distinct?: ClickDimension): Row[] {
  const bucket = createBucketer(ctx.unit, ctx.timezone);
  const values = new Map<string, { index: number; value: number }>();
  const isNew = createDistinct();
  scanClicks(ctx, (batch, i) => {
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
function clicksBy<T extends { name: string; clicks: number }>(
  ctx: RunContext,
  keyOf: (batch: ClickBatch, i: number) => string,
  describe: (batch: ClickBatch, i: number) => Omit<T, 'clicks'>,
): T[] {
  const groups = new Map<string, T>();
  scanClicks(ctx, (batch, i) => {
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
function referrerRows(ctx: RunContext): Row[] {
  const { values, referrerSourceType, sourceTypes } = ctx.dictionaries;
  const rows = clicksBy<ReferrerRow>(
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
function placeRows(ctx: RunContext, dimension: 'country' | 'region' | 'city'): Row[] {
  const { values, countryNames } = ctx.dictionaries;
  const rows = clicksBy<PlaceRow>(
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
function dimensionRows(ctx: RunContext, dimension: 'device_type' | 'browser_name'): Row[] {
  const names = ctx.dictionaries.values[dimension];
  return clicksBy<{ name: string; clicks: number }>(
    ctx,
    (batch, i) => String(batch.dims[dimension][i] as number),
    (batch, i) => ({ name: names[batch.dims[dimension][i] as number] || 'Unknown' }),
  ).map((r) => ({ name: r.name, clicks: r.clicks }));
}

/** The live link-shortener builders. */
export const linkShortenerTypes: QueryTypeDefinition[] = [
  defineQueryType({
    name: 'link_total_clicks',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    fields: {
      total: int("Total Clicks", { description: "Total number of clicks on this link" }),
    },
    meta: {
      title: "Link Total Clicks",
      description: "Total clicks for a shortened link within the date range.",
      category: "Links",
      tags: ["links", "shortener", "clicks", "total"],
      default_visualization: "metric",
    },
    run: totalRows,
  }),
  defineQueryType({
    name: 'link_clicks_by_day',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    fields: {
      date: text("Date", { description: "Date of the clicks" }),
      clicks: int("Clicks", { description: "Number of clicks on this date" }),
    },
    meta: {
      title: "Link Clicks by Day",
      description: "Daily breakdown of clicks for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "clicks", "daily", "timeseries"],
      default_visualization: "timeseries",
      supports_granularity: ["hour", "day"],
    },
    run: (ctx) => bucketRows(ctx, 'clicks'),
  }),
  defineQueryType({
    name: 'link_referrers_by_day',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    fields: {
      date: text("Date", { description: "Date" }),
      value: int("Unique Referrers", { description: "Number of unique referrers on this date" }),
    },
    meta: {
      title: "Link Unique Referrers by Day",
      description: "Daily count of unique referrers for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "referrers", "daily", "timeseries"],
      default_visualization: "timeseries",
      supports_granularity: ["hour", "day"],
    },
    run: (ctx) => bucketRows(ctx, 'value', 'referrer'),
  }),
  defineQueryType({
    name: 'link_countries_by_day',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    fields: {
      date: text("Date", { description: "Date" }),
      value: int("Unique Countries", { description: "Number of unique countries on this date" }),
    },
    meta: {
      title: "Link Unique Countries by Day",
      description: "Daily count of unique countries for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "countries", "daily", "timeseries"],
      default_visualization: "timeseries",
      supports_granularity: ["hour", "day"],
    },
    run: (ctx) => bucketRows(ctx, 'value', 'country'),
  }),
  defineQueryType({
    name: 'link_top_referrers',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    limit: 10,
    fields: {
      name: text("Name", { description: "The referring source name" }),
      referrer: text("Referrer", { description: "The referring source URL" }),
      clicks: int("Clicks", { description: "Number of clicks from this referrer" }),
      source: 'string',
      domain: 'string',
      referrer_type: 'string',
      percentage: 'number',
    },
    meta: {
      title: "Link Top Referrers",
      description: "Top referrers for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "referrers", "traffic"],
      default_visualization: "table",
    },
    run: referrerRows,
  }),
  defineQueryType({
    name: 'link_top_countries',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    limit: 10,
    fields: {
      name: text("Country", { description: "The country name" }),
      country: text("Country", { description: "Raw country value from the query" }),
      clicks: int("Clicks", { description: "Number of clicks from this country" }),
      country_code: 'string',
      country_name: 'string',
    },
    meta: {
      title: "Link Top Countries",
      description: "Top countries for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "countries", "geo"],
      default_visualization: "table",
    },
    run: (ctx) => placeRows(ctx, 'country'),
  }),
  defineQueryType({
    name: 'link_top_regions',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    limit: 10,
    fields: {
      name: text("Region", { description: "The region name" }),
      country: text("Country", { description: "Raw country value from the query" }),
      clicks: int("Clicks", { description: "Number of clicks from this region" }),
      country_code: 'string',
      country_name: 'string',
    },
    meta: {
      title: "Link Top Regions",
      description: "Top regions for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "regions", "geo"],
      default_visualization: "table",
    },
    run: (ctx) => placeRows(ctx, 'region'),
  }),
  defineQueryType({
    name: 'link_top_cities',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    limit: 10,
    fields: {
      name: text("City", { description: "The city name" }),
      country: text("Country", { description: "Raw country value from the query" }),
      clicks: int("Clicks", { description: "Number of clicks from this city" }),
      country_code: 'string',
      country_name: 'string',
    },
    meta: {
      title: "Link Top Cities",
      description: "Top cities for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "cities", "geo"],
      default_visualization: "table",
    },
    run: (ctx) => placeRows(ctx, 'city'),
  }),
  defineQueryType({
    name: 'link_top_devices',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    fields: {
      name: text("Device Type", { description: "The device type (mobile, desktop, tablet)" }),
      clicks: int("Clicks", { description: "Number of clicks from this device type" }),
    },
    meta: {
      title: "Link Top Devices",
      description: "Device type breakdown for a shortened link (mobile, desktop, tablet).",
      category: "Links",
      tags: ["links", "shortener", "devices", "mobile", "desktop"],
      default_visualization: "pie",
    },
    run: (ctx) => dimensionRows(ctx, 'device_type'),
  }),
  defineQueryType({
    name: 'link_top_browsers',
    family: FAMILY,
    target: 'link',
    filters: ["referrer", "country", "region", "city", "device_type", "browser_name"],
    customizable: false,
    limit: 10,
    fields: {
      name: text("Browser", { description: "The browser name" }),
      clicks: int("Clicks", { description: "Number of clicks from this browser" }),
    },
    meta: {
      title: "Link Top Browsers",
      description: "Browser breakdown for a shortened link.",
      category: "Links",
      tags: ["links", "shortener", "browsers"],
      default_visualization: "table",
    },
    run: (ctx) => dimensionRows(ctx, 'browser_name'),
  }),
];
