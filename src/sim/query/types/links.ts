import { legacyType } from '../legacy-type.js';
import type { ClickDimension } from '../../model/traffic.js';
import { percentage } from '../aggregate.js';
import { deviceLabel, referrerHost } from '../labels.js';
import { bucketLabels, createBucketer } from '../dates.js';
import type { QueryTypeDefinition, Row, RunContext } from '../definition.js';
import { scanClicks } from '../scan.js';

/** Filter fields of link analytics. */
const LINK_FILTERS = ['country', 'region', 'city', 'device_type', 'browser_name', 'os_name', 'referrer'];

function defineLinkType(
  name: string,
  title: string,
  description: string,
  outputFields: string[],
  visualization: 'metric' | 'timeseries' | 'table' | 'pie',
  sqlSelect: string[],
  run: (ctx: RunContext) => Row[],
  extra: { groupBy?: string[]; orderBy?: string } = {},
): QueryTypeDefinition {
  return legacyType({
    name,
    target: 'link',
    scope: 'read:data',
    publicAccess: false,
    commonFilters: false,
    extraFilters: LINK_FILTERS,
    customizable: true,
    defaultLimit: 100,
    meta: { title, description, category: 'Links', outputFields, defaultVisualization: visualization },
    sql: { table: 'analytics.link_visits', select: sqlSelect, ...extra },
    run,
  });
}

/** Clicks grouped by a label, ordered by clicks then name, with percentages of the total. */
function clicksBy(ctx: RunContext, label: (dim: Record<ClickDimension, Uint16Array>, i: number) => string): Row[] {
  const counts = new Map<string, number>();
  scanClicks(ctx, (batch, i) => {
    const key = label(batch.dims, i);
    counts.set(key, (counts.get(key) ?? 0) + batch.weight);
  });
  let total = 0;
  for (const c of counts.values()) total += c;
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, clicks]) => ({ name, clicks, percentage: percentage(clicks, total) }));
}

const topSelect = (column: string) => [
  `${column} AS name`,
  'COUNT(*) AS clicks',
  'ROUND(COUNT(*) / SUM(COUNT(*)) OVER () * 100, 2) AS percentage',
];

export const linkTypes: QueryTypeDefinition[] = [
  defineLinkType(
    'link_total_clicks',
    'Total clicks',
    'All clicks on the short link over the range.',
    ['total_clicks'],
    'metric',
    ['COUNT(*) AS total_clicks'],
    (ctx) => {
      let total = 0;
      scanClicks(ctx, (batch) => {
        total += batch.weight;
      });
      return [{ total_clicks: total }];
    },
  ),
  defineLinkType(
    'link_clicks_by_day',
    'Clicks over time',
    'Clicks on the short link per day (or hour) in the request time zone.',
    ['date', 'clicks'],
    'timeseries',
    ['toDate(toTimeZone(timestamp, {timezone:String})) AS date', 'COUNT(*) AS clicks'],
    (ctx) => {
      const bucket = createBucketer(ctx.unit, ctx.timezone);
      const counts = new Map<string, number>();
      scanClicks(ctx, (batch, i) => {
        const label = bucket(batch.timeMs[i] as number);
        counts.set(label, (counts.get(label) ?? 0) + batch.weight);
      });
      return bucketLabels(ctx.unit, ctx.timezone, ctx.fromMs, ctx.toMs).map((date) => ({ date, clicks: counts.get(date) ?? 0 }));
    },
    { groupBy: ['date'], orderBy: 'date ASC' },
  ),
  defineLinkType(
    'link_top_referrers',
    'Top referrers',
    'Where clicks on the short link came from, by referrer domain; "Direct" when there was none.',
    ['name', 'clicks', 'percentage'],
    'table',
    topSelect("if(referrer = '', 'Direct', domain(referrer))"),
    (ctx) => {
      const referrers = ctx.dictionaries.values.referrer;
      return clicksBy(ctx, (d, i) => {
        const code = d.referrer[i] as number;
        return code === 0 ? 'Direct' : referrerHost(referrers[code] ?? '');
      });
    },
    { groupBy: ['name'], orderBy: 'clicks DESC' },
  ),
  defineLinkType(
    'link_top_countries',
    'Top countries',
    'Clicks on the short link by country (ISO 3166-1 alpha-2 code), with the country name.',
    ['name', 'country_name', 'clicks', 'percentage'],
    'table',
    [...topSelect('country').slice(0, 1), 'any(country_name) AS country_name', ...topSelect('country').slice(1)],
    (ctx) => {
      const { values, countryNames } = ctx.dictionaries;
      const codes = new Map<string, number>();
      values.country.forEach((code, index) => codes.set(code, index));
      return clicksBy(ctx, (d, i) => values.country[d.country[i] as number] ?? '').map((row) => ({
        name: row.name as string,
        country_name: countryNames[codes.get(row.name as string) ?? -1] ?? '',
        clicks: row.clicks as number,
        percentage: row.percentage as number,
      }));
    },
    { groupBy: ['country'], orderBy: 'clicks DESC' },
  ),
  defineLinkType(
    'link_top_devices',
    'Top devices',
    'Clicks on the short link by device category.',
    ['name', 'clicks', 'percentage'],
    'pie',
    topSelect('device_type'),
    (ctx) => {
      const devices = ctx.dictionaries.values.device_type;
      return clicksBy(ctx, (d, i) => deviceLabel(devices[d.device_type[i] as number]));
    },
    { groupBy: ['device_type'], orderBy: 'clicks DESC' },
  ),
  defineLinkType(
    'link_top_browsers',
    'Top browsers',
    'Clicks on the short link by browser.',
    ['name', 'clicks', 'percentage'],
    'pie',
    topSelect('browser_name'),
    (ctx) => clicksBy(ctx, (d, i) => ctx.dictionaries.values.browser_name[d.browser_name[i] as number] ?? ''),
    { groupBy: ['browser_name'], orderBy: 'clicks DESC' },
  ),
];
