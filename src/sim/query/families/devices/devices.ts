import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, defineQueryType, type QueryFamilySpec, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { deviceLabel } from '../../engine/labels.js';
import { visitSessions, type SessionVisit } from '../../readers/session-visits.js';
import { allowsDigests, foldDigestDay, walkDigestDaysSteps } from '../../readers/digest-days.js';
import { SEGMENT_DAY_DIGEST, SEGMENT_DIMENSIONS, segmentKeyOfs } from './segment-day-digest.js';
import { breakdownSql, VISITS_FIELDS, defineDimensionBreakdown, groupVisitsBySteps, groupVisitsSteps, labelledRowsSteps, sortByVisitors, visitorShare, visitorTotal, type BreakdownStats, type KeyOf } from '../../readers/breakdown.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import catalogue from './devices-catalogue.json' with { type: 'json' };

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
function* pairGroups(ctx: RunContext, first: (s: SessionVisit) => string, second: (s: SessionVisit) => string): PassSteps<{ a: string; b: string; stats: BreakdownStats }[]> {
  // The key of each pair, built once: pairs repeat from session to session.
  const keys = new Map<string, Map<string, string>>();
  const groups = yield* groupVisitsSteps(ctx, (s) => {
    const a = first(s);
    const b = second(s);
    if (a === '' || b === '') return null;
    let byB = keys.get(a);
    if (!byB) keys.set(a, (byB = new Map()));
    let key = byB.get(b);
    if (key === undefined) byB.set(b, (key = `${a}${SEPARATOR}${b}`));
    return key;
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

const SEGMENT_LIMIT = 50;

/**
 * {@link groupVisitsBy} by each segment dimension without visitors, for a run without filters on
 * one website: the days the range covers whole fold their {@link SEGMENT_DAY_DIGEST} (sums of
 * whole numbers), the others are visited session by session.
 */
function* groupSegmentsByDay(ctx: RunContext, keyOfs: readonly KeyOf<string>[]): PassSteps<Map<string, BreakdownStats>[]> {
  const groups = keyOfs.map(() => new Map<string, BreakdownStats>());
  const statsOf = (d: number, key: string): BreakdownStats => {
    const byKey = groups[d] as Map<string, BreakdownStats>;
    let stats = byKey.get(key);
    if (!stats) byKey.set(key, (stats = { pageviews: 0, visitors: 0, sessions: 0 }));
    return stats;
  };
  const visit = (session: SessionVisit): void => {
    const w = session.batch.weight;
    keyOfs.forEach((keyOf, d) => {
      const key = keyOf(session);
      if (key === null) return;
      const stats = statsOf(d, key);
      stats.pageviews += session.matched * w;
      stats.sessions += w;
    });
  };
  yield* walkDigestDaysSteps(ctx, {
    part: (fromMs, toMs) => visitSessions(ctx, visit, fromMs, toMs),
    whole(website, day, ingested) {
      const work = foldDigestDay(ctx, SEGMENT_DAY_DIGEST, website, day, (digest) => {
        const w = digest.weight;
        for (let d = 0; d < keyOfs.length; d++) {
          for (let k = digest.offsets[d] as number; k < (digest.offsets[d + 1] as number); k++) {
            const stats = statsOf(d, digest.keys[k] as string);
            stats.pageviews += (digest.pageviews[k] as number) * w;
            stats.sessions += (digest.sessions[k] as number) * w;
          }
        }
      });
      ingested(visit);
      return work;
    },
  });
  return groups;
}

function* segmentRows(ctx: RunContext): PassSteps<Row[]> {
  const keyOfs = segmentKeyOfs(ctx.dictionaries);
  // Rows are ordered by sessions, then value: neither the groups' order nor their visitors matter.
  const groups = allowsDigests(ctx) ? yield* groupSegmentsByDay(ctx, keyOfs) : yield* groupVisitsBySteps(ctx, keyOfs, false);
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

/** The devices family: its types' fields and meta are in devices-catalogue.json. */
const FAMILY: QueryFamilySpec = { name: 'devices', catalogue: readCatalogue('devices', catalogue) };

/** What every devices declaration below shares. */
const defineDevicesType = declareUnder({
  family: FAMILY,
  customizable: true,
});

/** The live devices builders. */
export const deviceTypes: QueryTypeDefinition[] = [
  defineDimensionBreakdown({
    name: 'browser_name',
    family: FAMILY,
    dimension: 'browser_name',
    publicAccess: true,
    limit: 100,
  }),
  defineDimensionBreakdown({
    name: 'os_name',
    family: FAMILY,
    dimension: 'os_name',
    publicAccess: true,
    limit: 100,
  }),
  defineDevicesType({
    name: 'screen_resolution',
    derives: [deviceDetailsOf],
    olderPublicAccess: true,
    limit: 100,
    sql: breakdownSql('viewport_size', { extra: ['device_type'] }),
    *steps(ctx) {
      const rows: Row[] = (yield* pairGroups(ctx, viewportOf, (s) => deviceOf(ctx, s))).map(({ a, b, stats }) => ({ name: a, pageviews: stats.pageviews, visitors: stats.visitors, device_type: b }));
      return withShare(sortByVisitors(rows, (r) => `${r.name as string}${SEPARATOR}${r.device_type as string}`));
    },
  }),
  defineDevicesType({
    name: 'browsers_grouped',
    derives: [deviceDetailsOf],
    limit: 100,
    *steps(ctx) {
      const rows: Row[] = (yield* pairGroups(ctx, (s) => browserOf(ctx, s), browserVersionOf)).map(({ a, b, stats }) => ({
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
    sql: breakdownSql("multiIf(device_type = '', 'Desktop', concat(upper(substring(device_type, 1, 1)), substring(device_type, 2)))"),
    *steps(ctx) {
      return yield* labelledRowsSteps(ctx, (s) => deviceLabel(deviceOf(ctx, s)));
    },
  }),
  defineDimensionBreakdown({
    name: 'browsers',
    family: FAMILY,
    dimension: 'browser_name',
    publicAccess: true,
    limit: 25,
  }),
  defineDevicesType({
    name: 'browser_versions',
    derives: [deviceDetailsOf],
    olderPublicAccess: true,
    limit: 100,
    sql: breakdownSql('browser_version', { alias: 'browser_version', extra: ['browser_name'] }),
    *steps(ctx) {
      const rows: Row[] = (yield* pairGroups(ctx, (s) => browserOf(ctx, s), browserVersionOf)).map(({ a, b, stats }) => ({
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
    family: FAMILY,
    dimension: 'os_name',
    publicAccess: true,
    limit: 100,
  }),
  defineDevicesType({
    name: 'os_versions',
    derives: [deviceDetailsOf],
    limit: 25,
    fields: VISITS_FIELDS,
    *steps(ctx) {
      const rows: Row[] = (yield* pairGroups(ctx, (s) => osOf(ctx, s), osVersionOf)).map(({ a, b, stats }) => ({ name: `${a} ${b}`, pageviews: stats.pageviews, visitors: stats.visitors }));
      return sortByVisitors(rows, (r) => r.name as string);
    },
  }),
  defineDevicesType({
    name: 'screen_resolutions',
    derives: [deviceDetailsOf],
    limit: 100,
    fields: VISITS_FIELDS,
    sql: breakdownSql('viewport_size', { percentage: false }),
    *steps(ctx) {
      const rows: Row[] = [...(yield* groupVisitsSteps(ctx, viewportOf))].map(([name, stats]) => ({ name, pageviews: stats.pageviews, visitors: stats.visitors }));
      return sortByVisitors(rows, (r) => r.name as string);
    },
  }),
  defineDevicesType({
    name: 'viewport_vs_resolution',
    derives: [deviceDetailsOf],
    limit: 200,
    *steps(ctx) {
      const rows: Row[] = (yield* pairGroups(ctx, viewportOf, (s) => deviceOf(ctx, s))).map(({ a, b, stats }) => ({ viewport_size: a, visitors: stats.visitors, pageviews: stats.pageviews, device_type: b }));
      return sortByVisitors(rows, (r) => `${r.viewport_size as string}${SEPARATOR}${r.device_type as string}`);
    },
  }),
  defineDevicesType({
    name: 'viewport_patterns',
    derives: [deviceDetailsOf],
    limit: 50,
    *steps(ctx) {
      const rows: Row[] = [...(yield* groupVisitsSteps(ctx, viewportOf))].map(([viewport, stats]) => ({ viewport_size: viewport, visitors: stats.visitors, sessions: stats.sessions }));
      return withShare(sortByVisitors(rows, (r) => r.viewport_size as string));
    },
  }),
  defineQueryType({
    name: 'traffic_segments',
    family: FAMILY,
    // Reads whole days from the digest; with filters its pass derives each day's device details in pieces.
    derives: [SEGMENT_DAY_DIGEST],
    filters: ["path"],
    insightsOnly: true,
    paging: 'self',
    steps: segmentRows,
  }),
];
