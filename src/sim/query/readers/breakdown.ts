import type { SessionDimension } from '../../model/traffic.js';
import { createDistinct, percentage } from './aggregate.js';
import { defineQueryType, type QueryTypeDefinition, type QueryTypeSpec, type Row, type RunContext } from '../engine/definition.js';
import { visitSessions, visitSessionsSteps, type SessionVisit } from './session-visits.js';
import { allowsDigests, foldDigestDay, walkDigestDaysSteps } from './digest-days.js';
import { runToEnd, type PassSteps } from '../engine/pass-steps.js';
import { DIMENSION_DAY_DIGESTS, type DimensionDayDigest } from './dimension-day-digest.js';
import { createVisitorBits } from './visitor-bits.js';

/** Weighted totals of one breakdown group. */
export interface BreakdownStats {
  pageviews: number;
  /** Distinct visitors within the group. */
  visitors: number;
  sessions: number;
}

/** A group key of a session, or null to leave the session out of that breakdown. */
export type KeyOf<K> = (session: SessionVisit) => K | null;

/**
 * Groups the filtered sessions (and their pageviews that pass the path filter) by each of
 * `keyOfs` in one scan: result `d` holds the groups of `keyOfs[d]`. A session counts in at most
 * one group per breakdown, so the groups of a breakdown without exclusions add up to the totals.
 * `countVisitors` false leaves every group's `visitors` at 0, for a caller that reads none.
 */
export function groupVisitsBy<K>(ctx: RunContext, keyOfs: readonly KeyOf<K>[], countVisitors = true): Map<K, BreakdownStats>[] {
  return runToEnd(groupVisitsBySteps(ctx, keyOfs, countVisitors));
}

/** {@link groupVisitsBy} in pieces ({@link PassSteps}). */
export function* groupVisitsBySteps<K>(ctx: RunContext, keyOfs: readonly KeyOf<K>[], countVisitors = true): PassSteps<Map<K, BreakdownStats>[]> {
  const groups = keyOfs.map(() => new Map<K, BreakdownStats>());
  const indexes = keyOfs.map(() => new Map<K, number>());
  const isNew = createDistinct();
  let nextIndex = 0;
  yield* visitSessionsSteps(ctx, (session) => {
    const w = session.batch.weight;
    keyOfs.forEach((keyOf, d) => {
      const key = keyOf(session);
      if (key === null) return;
      const byKey = groups[d] as Map<K, BreakdownStats>;
      let stats = byKey.get(key);
      if (!stats) {
        stats = { pageviews: 0, visitors: 0, sessions: 0 };
        byKey.set(key, stats);
        (indexes[d] as Map<K, number>).set(key, nextIndex++);
      }
      stats.pageviews += session.matched * w;
      stats.sessions += w;
      if (countVisitors && isNew((indexes[d] as Map<K, number>).get(key) as number, session.visitorKey)) stats.visitors += w;
    });
  });
  return groups;
}

/** {@link groupVisitsBy} with one breakdown. */
export function groupVisits<K>(ctx: RunContext, keyOf: KeyOf<K>): Map<K, BreakdownStats> {
  return groupVisitsBy(ctx, [keyOf])[0] as Map<K, BreakdownStats>;
}

/** {@link groupVisits} in pieces ({@link PassSteps}). */
export function* groupVisitsSteps<K>(ctx: RunContext, keyOf: KeyOf<K>): PassSteps<Map<K, BreakdownStats>> {
  return (yield* groupVisitsBySteps(ctx, [keyOf]))[0] as Map<K, BreakdownStats>;
}

/** Dimensions with at most this many values count distinct visitors in a bitmap per group. */
const BITMAP_GROUPS = 1024;

/**
 * {@link groupVisits} by a key that follows from the code of one session dimension (null leaves
 * the session out). Without filters on one website, the days the range covers whole fold their
 * per-day digest ({@link DIMENSION_DAY_DIGESTS}) as their sessions would have counted: the same
 * groups first seen in the same order, the same visitors, sums of whole numbers.
 */
export function groupVisitsByCode<K>(ctx: RunContext, dimension: SessionDimension, keyOfCode: (code: number) => K | null): Map<K, BreakdownStats> {
  return runToEnd(groupVisitsByCodeSteps(ctx, dimension, keyOfCode));
}

/** {@link groupVisitsByCode} in pieces ({@link PassSteps}). */
export function* groupVisitsByCodeSteps<K>(ctx: RunContext, dimension: SessionDimension, keyOfCode: (code: number) => K | null): PassSteps<Map<K, BreakdownStats>> {
  if (!allowsDigests(ctx)) return yield* groupVisitsSteps(ctx, (s) => keyOfCode(s.batch.dims[dimension][s.index] as number));
  const groups = new Map<K, BreakdownStats>();
  const indexes = new Map<K, number>();
  const isNew = ctx.dictionaries.values[dimension].length <= BITMAP_GROUPS ? createVisitorBits() : createDistinct();
  const statsOf = (key: K): BreakdownStats => {
    let stats = groups.get(key);
    if (!stats) {
      stats = { pageviews: 0, visitors: 0, sessions: 0 };
      groups.set(key, stats);
      indexes.set(key, indexes.size);
    }
    return stats;
  };
  const visit = (session: SessionVisit): void => {
    const key = keyOfCode(session.batch.dims[dimension][session.index] as number);
    if (key === null) return;
    const stats = statsOf(key);
    const w = session.batch.weight;
    stats.pageviews += session.matched * w;
    stats.sessions += w;
    if (isNew(indexes.get(key) as number, session.visitorKey)) stats.visitors += w;
  };
  const fold = (digest: DimensionDayDigest): void => {
    const w = digest.weight;
    for (let k = 0; k < digest.codes.length; k++) {
      const key = keyOfCode(digest.codes[k] as number);
      if (key === null) continue;
      const stats = statsOf(key);
      const group = indexes.get(key) as number;
      stats.pageviews += (digest.pageviews[k] as number) * w;
      stats.sessions += (digest.sessions[k] as number) * w;
      for (let v = digest.visitorOffsets[k] as number; v < (digest.visitorOffsets[k + 1] as number); v++) {
        if (isNew(group, digest.visitors[v] as number)) stats.visitors += w;
      }
    }
  };
  yield* walkDigestDaysSteps(ctx, {
    part: (fromMs, toMs) => visitSessions(ctx, visit, fromMs, toMs),
    whole(website, day, ingested) {
      const work = foldDigestDay(ctx, DIMENSION_DAY_DIGESTS[dimension], website, day, fold);
      ingested(visit);
      return work;
    },
  });
  return groups;
}

/**
 * Sorts rows as the live builders order them (`visitors DESC`), then by pageviews and by a
 * name so that ties are stable.
 */
export function sortByVisitors<T extends Row>(rows: T[], nameOf: (row: T) => string): T[] {
  return rows.sort((a, b) => {
    const byVisitors = (b.visitors as number) - (a.visitors as number);
    if (byVisitors !== 0) return byVisitors;
    const byPageviews = ((b.pageviews as number | undefined) ?? 0) - ((a.pageviews as number | undefined) ?? 0);
    if (byPageviews !== 0) return byPageviews;
    const x = nameOf(a);
    const y = nameOf(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** The sum of the rows' visitors: the base of the live `percentageOf: visitors` share. */
export function visitorTotal(rows: readonly Row[]): number {
  return rows.reduce((sum, row) => sum + (row.visitors as number), 0);
}

/** Each group's visitors as a share of the summed visitors of all groups, two decimals. */
export function visitorShare(visitors: number, total: number): number {
  return percentage(visitors, total);
}

/**
 * Rows of a live `name, pageviews, visitors, percentage` breakdown by one dictionary dimension,
 * leaving out the empty value (the builders' `<column> != ''`), ordered by visitors.
 */
export function dimensionRows(ctx: RunContext, dimension: SessionDimension): Row[] {
  return runToEnd(dimensionRowsSteps(ctx, dimension));
}

/** {@link dimensionRows} in pieces ({@link PassSteps}). */
export function* dimensionRowsSteps(ctx: RunContext, dimension: SessionDimension): PassSteps<Row[]> {
  const values = ctx.dictionaries.values[dimension];
  return rowsOfGroups(
    yield* groupVisitsByCodeSteps(ctx, dimension, (code) => {
      const value = values[code] ?? '';
      return value === '' ? null : value;
    }),
  );
}

/** Rows of `name, pageviews, visitors, percentage` grouped by a string label (null leaves a session out). */
export function labelledRows(ctx: RunContext, labelOf: KeyOf<string>): Row[] {
  return rowsOfGroups(groupVisits(ctx, labelOf));
}

/** {@link labelledRows} in pieces ({@link PassSteps}). */
export function* labelledRowsSteps(ctx: RunContext, labelOf: KeyOf<string>): PassSteps<Row[]> {
  return rowsOfGroups(yield* groupVisitsSteps(ctx, labelOf));
}

/** Rows of `name, pageviews, visitors, percentage` of groups by name, ordered by visitors. */
function rowsOfGroups(groups: Map<string, BreakdownStats>): Row[] {
  const rows: Row[] = [];
  for (const [name, stats] of groups) rows.push({ name, pageviews: stats.pageviews, visitors: stats.visitors });
  sortByVisitors(rows, (r) => r.name as string);
  const total = visitorTotal(rows);
  return rows.map((r) => ({ ...r, percentage: visitorShare(r.visitors as number, total) }));
}

/**
 * The SQL `/v1/query/compile` shows for a live breakdown: screen_view events grouped by
 * `column` (non-empty), named `name` unless `alias` says otherwise, ordered by visitors.
 */
export function breakdownSql(column: string, options: { alias?: string; extra?: readonly string[]; percentage?: boolean } = {}) {
  const alias = options.alias ?? 'name';
  return {
    table: 'analytics.events',
    select: [
      `${column} AS ${alias}`,
      ...(options.extra ?? []),
      'COUNT(*) AS pageviews',
      'uniq(anonymous_id) AS visitors',
      ...(options.percentage === false ? [] : ['ROUND(uniq(anonymous_id) / SUM(uniq(anonymous_id)) OVER () * 100, 2) AS percentage']),
    ],
    where: ["event_name = 'screen_view'", `${column} != ''`],
    groupBy: [column],
    orderBy: 'visitors DESC',
  };
}

/** The fields of a `name, pageviews, visitors` breakdown without a share, whose live meta lists none. */
export const VISITS_FIELDS = { name: 'string', pageviews: 'integer', visitors: 'integer' } as const;

/** The fields of a `name, pageviews, visitors, percentage` breakdown whose live meta lists none. */
export const BREAKDOWN_FIELDS = { ...VISITS_FIELDS, percentage: 'number' } as const;

/** What a dimension breakdown declares: a type's declaration but for its SQL, rows and customizable. */
export interface DimensionBreakdownSpec extends Omit<QueryTypeSpec, 'defaultFields' | 'sql' | 'run' | 'steps' | 'customizable'> {
  /** The dimension the sessions are grouped by. */
  readonly dimension: SessionDimension;
}

/**
 * A live breakdown by one dictionary dimension ({@link dimensionRows}): customizable, with the
 * SQL of {@link breakdownSql} over the dimension's column, and the fields of
 * {@link BREAKDOWN_FIELDS} unless the declaration or its family's catalogue gives others.
 */
export function defineDimensionBreakdown(spec: DimensionBreakdownSpec): QueryTypeDefinition {
  const { dimension, ...rest } = spec;
  return defineQueryType({
    customizable: true,
    defaultFields: BREAKDOWN_FIELDS,
    ...rest,
    derives: [...(rest.derives ?? (typeof rest.family === 'string' ? [] : (rest.family.derives ?? []))), DIMENSION_DAY_DIGESTS[dimension]],
    sql: breakdownSql(dimension),
    steps: (ctx) => dimensionRowsSteps(ctx, dimension),
  });
}
