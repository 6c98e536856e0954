import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { declareUnder, defineQueryType, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { int, num, text } from '../../engine/fields.js';
import { deviceLabel } from '../../engine/labels.js';
import type { SessionVisit } from '../../readers/session-visits.js';
import { breakdownSql, VISITS_FIELDS, defineDimensionBreakdown, groupVisits, groupVisitsBy, labelledRows, sortByVisitors, visitorShare, visitorTotal, type KeyOf } from '../../readers/breakdown.js';

const SEPARATOR = '\u0000';

function browserOf(ctx: RunContext, s: SessionVisit): string {
  return ctx.dictionaries.values.browser_name[s.batch.dims.browser_name[s.index] as number] ?? '';
}

function osOf(ctx: RunContext, s: SessionVisit): string {
  return ctx.dictionaries.values.os_name[s.batch.dims.os_name[s.index] as number] ?? '';
}

/** The raw device_type column (lower case; the world never leaves it empty). */
function deviceOf(ctx: RunContext, s: SessionVisit): string {
  return ctx.dictionaries.values.device_type[s.batch.dims.device_type[s.index] as number] ?? '';
}

/** Groups by two strings, leaving out sessions where either is empty; `[a, b, stats]` per group. */
function pairGroups(ctx: RunContext, first: (s: SessionVisit) => string, second: (s: SessionVisit) => string) {
  const groups = groupVisits(ctx, (s) => {
    const a = first(s);
    const b = second(s);
    return a === '' || b === '' ? null : `${a}${SEPARATOR}${b}`;
  });
  return [...groups].map(([key, stats]) => {
    const [a, b] = key.split(SEPARATOR) as [string, string];
    return { a, b, stats };
  });
}

const viewportOf = (s: SessionVisit): string => s.details().viewportSize[s.index] as string;
const browserVersionOf = (s: SessionVisit): string => s.details().browserVersion[s.index] as string;
const osVersionOf = (s: SessionVisit): string => s.details().osVersion[s.index] as string;

/** Rows with a visitor share added as the last field. */
function withShare(rows: Row[]): Row[] {
  const total = visitorTotal(rows);
  return rows.map((r) => ({ ...r, percentage: visitorShare(r.visitors as number, total) }));
}

/** The dimensions of traffic_segments, in the order the live SQL sorts them (by name). */
const SEGMENT_DIMENSIONS = ['browser', 'browser_version', 'country', 'device', 'os'] as const;
const SEGMENT_LIMIT = 50;

function segmentRows(ctx: RunContext): Row[] {
  const { values } = ctx.dictionaries;
  const keyOfs: Record<(typeof SEGMENT_DIMENSIONS)[number], KeyOf<string>> = {
    browser: (s) => browserOf(ctx, s),
    browser_version: (s) => {
      const version = browserVersionOf(s);
      return version === '' ? '' : `${browserOf(ctx, s)} ${version.split('.')[0] as string}`;
    },
    country: (s) => values.country[s.batch.dims.country[s.index] as number] ?? '',
    device: (s) => deviceLabel(deviceOf(ctx, s)),
    os: (s) => osOf(ctx, s),
  };
  const groups = groupVisitsBy(ctx, SEGMENT_DIMENSIONS.map((d) => keyOfs[d]));
  return SEGMENT_DIMENSIONS.flatMap((dimension, d) => {
    const rows = [...(groups[d] as Map<string, { pageviews: number; sessions: number }>)].map(([value, stats]) => ({
      dimension,
      value,
      pageviews: stats.pageviews,
      sessions: stats.sessions,
    }));
    rows.sort((x, y) => y.sessions - x.sessions || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
    return rows.slice(0, SEGMENT_LIMIT);
  });
}

/** What every devices declaration below shares. */
const defineDevicesType = declareUnder({
  family: 'devices',
  customizable: true,
  category: "Technology",
});

/** The live devices builders. */
export const deviceTypes: QueryTypeDefinition[] = [
  defineDimensionBreakdown({
    name: 'browser_name',
    family: 'devices',
    dimension: 'browser_name',
    publicAccess: true,
    limit: 100,
    fields: {
      name: text("Browser Name", { description: "The browser name (Chrome, Firefox, Safari, etc.)" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this browser" }),
      visitors: int("Visitors", { description: "Unique visitors using this browser" }),
      percentage: num("Usage %", { description: "Share of summed visitor counts across all browser groups", unit: "%" }),
    },
    meta: {
      title: "Browser Usage",
      description: "Website traffic breakdown by browser type showing which browsers your visitors use most.",
      category: "Technology",
      tags: ["browsers", "technology", "devices", "compatibility"],
      default_visualization: "pie",
    },
  }),
  defineDimensionBreakdown({
    name: 'os_name',
    family: 'devices',
    dimension: 'os_name',
    publicAccess: true,
    limit: 100,
    fields: {
      name: text("Operating System", { description: "The operating system name" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this OS" }),
      visitors: int("Visitors", { description: "Unique visitors using this OS" }),
      percentage: num("Usage %", { description: "Share of summed visitor counts across all OS groups", unit: "%" }),
    },
    meta: {
      title: "Operating Systems",
      description: "Distribution of visitors by operating system (Windows, macOS, iOS, Android, etc.).",
      category: "Technology",
      tags: ["operating systems", "technology", "devices", "platforms"],
      default_visualization: "pie",
    },
  }),
  defineDevicesType({
    name: 'screen_resolution',
    derives: [deviceDetailsOf],
    olderPublicAccess: true,
    limit: 100,
    fields: {
      name: text("Viewport Size", { description: "Viewport size (width x height)" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this viewport" }),
      visitors: int("Visitors", { description: "Unique visitors with this viewport" }),
      device_type: text("Device Type", { description: "Device category (Desktop, Mobile, Tablet)" }),
      percentage: num("Traffic %", { description: "Share of summed visitor counts across all viewport and device groups", unit: "%" }),
    },
    meta: {
      title: "Viewport Sizes",
      description: "Distribution of visitor viewport sizes to optimize design for the most common browser dimensions.",
      tags: ["viewport", "display", "design", "responsive"],
      default_visualization: "table",
    },
    sql: breakdownSql('viewport_size', { extra: ['device_type'] }),
    run(ctx) {
      const rows: Row[] = pairGroups(ctx, viewportOf, (s) => deviceOf(ctx, s)).map(({ a, b, stats }) => ({ name: a, pageviews: stats.pageviews, visitors: stats.visitors, device_type: b }));
      return withShare(sortByVisitors(rows, (r) => `${r.name as string}${SEPARATOR}${r.device_type as string}`));
    },
  }),
  defineDevicesType({
    name: 'browsers_grouped',
    derives: [deviceDetailsOf],
    limit: 100,
    fields: {
      name: text("Browser + Version", { description: "Browser name and version combined" }),
      browser_name: text("Browser Name", { description: "The browser name only" }),
      browser_version: text("Browser Version", { description: "The browser version only" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this browser version" }),
      visitors: int("Visitors", { description: "Unique visitors using this browser version" }),
      sessions: int("Sessions", { description: "Total sessions from this browser version" }),
    },
    meta: {
      title: "Browser Versions",
      description: "Detailed breakdown of browser usage including specific version numbers for compatibility testing.",
      tags: ["browsers", "versions", "compatibility", "testing"],
      default_visualization: "table",
    },
    run(ctx) {
      const rows: Row[] = pairGroups(ctx, (s) => browserOf(ctx, s), browserVersionOf).map(({ a, b, stats }) => ({
        name: `${a} ${b}`,
        browser_name: a,
        browser_version: b,
        pageviews: stats.pageviews,
        visitors: stats.visitors,
        sessions: stats.sessions,
      }));
      return sortByVisitors(rows, (r) => r.name as string);
    },
  }),
  defineDevicesType({
    name: 'device_types',
    publicAccess: true,
    limit: 20,
    fields: {
      name: text("Device Type", { description: "The device category (Desktop, Mobile, Tablet, etc.)" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this device type" }),
      visitors: int("Visitors", { description: "Unique visitors with this device type" }),
      percentage: num("Share", { description: "Percentage of total visitors", unit: "%" }),
    },
    meta: {
      title: "Device Categories",
      description: "Traffic breakdown by device category (Desktop, Mobile, Tablet) based on user agent detection.",
      tags: ["device types", "mobile", "desktop", "tablet", "responsive"],
      default_visualization: "pie",
    },
    sql: breakdownSql("multiIf(device_type = '', 'Desktop', concat(upper(substring(device_type, 1, 1)), substring(device_type, 2)))"),
    run(ctx) {
      return labelledRows(ctx, (s) => deviceLabel(deviceOf(ctx, s)));
    },
  }),
  defineDimensionBreakdown({
    name: 'browsers',
    family: 'devices',
    dimension: 'browser_name',
    publicAccess: true,
    limit: 25,
    meta: {
      description: "Detailed browser usage breakdown including specific browser names.",
      category: "Technology",
      tags: ["browsers", "technology", "devices"],
    },
  }),
  defineDevicesType({
    name: 'browser_versions',
    derives: [deviceDetailsOf],
    olderPublicAccess: true,
    limit: 100,
    fields: {
      browser_name: 'string',
      browser_version: 'string',
      pageviews: 'integer',
      visitors: 'integer',
      percentage: 'number',
    },
    meta: {
      description: "Browser usage broken down by specific version numbers.",
      tags: ["browsers", "versions", "compatibility"],
    },
    sql: breakdownSql('browser_version', { alias: 'browser_version', extra: ['browser_name'] }),
    run(ctx) {
      const rows: Row[] = pairGroups(ctx, (s) => browserOf(ctx, s), browserVersionOf).map(({ a, b, stats }) => ({
        browser_name: a,
        browser_version: b,
        pageviews: stats.pageviews,
        visitors: stats.visitors,
      }));
      return withShare(sortByVisitors(rows, (r) => `${r.browser_name as string} ${r.browser_version as string}`));
    },
  }),
  defineDimensionBreakdown({
    name: 'operating_systems',
    family: 'devices',
    dimension: 'os_name',
    publicAccess: true,
    limit: 100,
    meta: {
      description: "OS usage breakdown by operating system name.",
      category: "Technology",
      tags: ["operating systems", "technology", "devices"],
    },
  }),
  defineDevicesType({
    name: 'os_versions',
    derives: [deviceDetailsOf],
    limit: 25,
    fields: VISITS_FIELDS,
    meta: {
      description: "OS usage broken down by specific version numbers.",
      tags: ["operating systems", "versions", "compatibility"],
    },
    run(ctx) {
      const rows: Row[] = pairGroups(ctx, (s) => osOf(ctx, s), osVersionOf).map(({ a, b, stats }) => ({ name: `${a} ${b}`, pageviews: stats.pageviews, visitors: stats.visitors }));
      return sortByVisitors(rows, (r) => r.name as string);
    },
  }),
  defineDevicesType({
    name: 'screen_resolutions',
    derives: [deviceDetailsOf],
    limit: 100,
    fields: VISITS_FIELDS,
    meta: {
      description: "Distribution of viewport sizes across visitors.",
      tags: ["screen", "display", "devices"],
    },
    sql: breakdownSql('viewport_size', { percentage: false }),
    run(ctx) {
      const rows: Row[] = [...groupVisits(ctx, viewportOf)].map(([name, stats]) => ({ name, pageviews: stats.pageviews, visitors: stats.visitors }));
      return sortByVisitors(rows, (r) => r.name as string);
    },
  }),
  defineDevicesType({
    name: 'viewport_vs_resolution',
    derives: [deviceDetailsOf],
    limit: 200,
    fields: {
      viewport_size: text("Viewport Size", { description: "Browser viewport dimensions" }),
      visitors: int("Visitors", { description: "Unique visitors with this viewport" }),
      pageviews: int("Pageviews", { description: "Total pageviews from this viewport" }),
      device_type: text("Device Type", { description: "Device category" }),
    },
    meta: {
      title: "Viewport Sizes by Device",
      description: "Distribution of browser viewport sizes across different device types.",
      tags: ["viewport", "browser", "responsive", "devices"],
      default_visualization: "table",
    },
    run(ctx) {
      const rows: Row[] = pairGroups(ctx, viewportOf, (s) => deviceOf(ctx, s)).map(({ a, b, stats }) => ({ viewport_size: a, visitors: stats.visitors, pageviews: stats.pageviews, device_type: b }));
      return sortByVisitors(rows, (r) => `${r.viewport_size as string}${SEPARATOR}${r.device_type as string}`);
    },
  }),
  defineDevicesType({
    name: 'viewport_patterns',
    derives: [deviceDetailsOf],
    limit: 50,
    fields: {
      viewport_size: text("Viewport Size", { description: "Browser viewport dimensions" }),
      visitors: int("Visitors", { description: "Unique visitors with this viewport" }),
      sessions: int("Sessions", { description: "Total sessions with this viewport" }),
      percentage: num("Share", { description: "Percentage of total visitors", unit: "%" }),
    },
    meta: {
      title: "Common Viewport Sizes",
      description: "Analysis of the most common viewport sizes used by visitors.",
      tags: ["viewport", "browsing patterns", "user behavior"],
      default_visualization: "pie",
    },
    run(ctx) {
      const rows: Row[] = [...groupVisits(ctx, viewportOf)].map(([viewport, stats]) => ({ viewport_size: viewport, visitors: stats.visitors, sessions: stats.sessions }));
      return withShare(sortByVisitors(rows, (r) => r.viewport_size as string));
    },
  }),
  defineQueryType({
    name: 'traffic_segments',
    family: 'devices',
    derives: [deviceDetailsOf],
    filters: ["path"],
    insightsOnly: true,
    paging: 'self',
    fields: {
      dimension: 'string',
      value: 'string',
      pageviews: 'integer',
      sessions: 'integer',
    },
    meta: {
      description: "Pageviews and sessions per browser, browser major version, operating system, device type and country, for localizing a traffic change. Top 50 values per dimension.",
      category: "Audience",
      tags: ["segments", "browsers", "devices", "internal"],
    },
    run(ctx) {
      return segmentRows(ctx);
    },
  }),
];
