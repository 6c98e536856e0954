import { createDistinct, percentage } from '../../readers/aggregate.js';
import { readCatalogue } from '../../engine/catalogue.js';
import { declareUnder, defineQueryType, type QueryFamilySpec, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { visitSessions, visitSessionsSteps, type SessionVisit } from '../../readers/session-visits.js';
import { allowsDigests, foldDigestDay, walkDigestDaysSteps } from '../../readers/digest-days.js';
import { runToEnd, type PassSteps } from '../../engine/pass-steps.js';
import { createVisitorBits } from '../../readers/visitor-bits.js';
import { createValueCounts, type ValueCounts } from '../../readers/value-counts.js';
import { PAGE_DAY_DIGESTS, type PageDayDigest } from './page-day-digest.js';
import { BREAKDOWN_FIELDS, breakdownSql, VISITS_FIELDS, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';
import catalogue from './pages-catalogue.json' with { type: 'json' };

/** Weighted totals of the views of one path. */
export interface PageGroup {
  pageviews: number;
  visitors: number;
  sessions: number;
  /** Seconds on page of the views kept for time analysis (1 < t < 3600), unweighted. */
  readonly times: ValueCounts;
  /** The serial of the last session that counted in {@link sessions}: a session's views are visited together. */
  lastSession: number;
}

/**
 * Groups pageviews that pass the path filter by path code. `all` counts every view; `entry`
 * and `exit` only a session's first or last such view (one per session), as the live SQL takes
 * argMin/argMax of the filtered events. `times` keeps the page_exit times the live
 * page_time_analysis reads (strictly between 1 and 3600 seconds). In pieces ({@link PassSteps}).
 */
export function* groupPageViewsSteps(ctx: RunContext, mode: 'all' | 'entry' | 'exit', times = false): PassSteps<Map<number, PageGroup>> {
  const pathMask = ctx.filters.masks.get('path') ?? null;
  // By path code (codes are 16-bit), and the codes in the order first seen: the map's order.
  const byCode: (PageGroup | undefined)[] = [];
  const seen: number[] = [];
  const digests = allowsDigests(ctx);
  // One website's visitor keys are small: a bitmap per path beats a hash set on a long range.
  const isNewVisitor = digests ? createVisitorBits() : createDistinct();
  let sessionSerial = 0;
  const count = (batch: SessionBatch, p: number, w: number, visitorKey: number): void => {
    const path = batch.pagePaths[p] as number;
    const seconds = batch.pageTimeS[p] as number;
    if (times && !(seconds > 1 && seconds < 3600)) return;
    let group = byCode[path];
    if (!group) {
      group = { pageviews: 0, visitors: 0, sessions: 0, times: createValueCounts(), lastSession: 0 };
      byCode[path] = group;
      seen.push(path);
    }
    group.pageviews += w;
    // A path seen again in the same session has its session and its visitor counted already.
    if (group.lastSession !== sessionSerial) {
      group.lastSession = sessionSerial;
      group.sessions += w;
      if (isNewVisitor(path, visitorKey)) group.visitors += w;
    }
    if (times) group.times.add(seconds);
  };
  const kept = (batch: SessionBatch, p: number): boolean => !pathMask || pathMask[batch.pagePaths[p] as number] === 1;
  const visit = ({ batch, index, visitorKey }: SessionVisit): void => {
    const w = batch.weight;
    const first = batch.pageOffsets[index] as number;
    const end = batch.pageOffsets[index + 1] as number;
    sessionSerial++;
    if (mode === 'all') {
      for (let p = first; p < end; p++) if (kept(batch, p)) count(batch, p, w, visitorKey);
    } else if (mode === 'entry') {
      for (let p = first; p < end; p++) {
        if (kept(batch, p)) {
          count(batch, p, w, visitorKey);
          break;
        }
      }
    } else {
      for (let p = end - 1; p >= first; p--) {
        if (kept(batch, p)) {
          count(batch, p, w, visitorKey);
          break;
        }
      }
    }
  };
  // A day's digest folds in as its sessions would: the same paths first seen in the same order,
  // the same visitors, and sums of whole numbers, which no order changes.
  const fold = (digest: PageDayDigest): void => {
    const w = digest.weight;
    for (let k = 0; k < digest.paths.length; k++) {
      const path = digest.paths[k] as number;
      let group = byCode[path];
      if (!group) {
        group = { pageviews: 0, visitors: 0, sessions: 0, times: createValueCounts(), lastSession: 0 };
        byCode[path] = group;
        seen.push(path);
      }
      group.pageviews += (digest.views[k] as number) * w;
      group.sessions += (digest.sessions[k] as number) * w;
      for (let v = digest.visitorOffsets[k] as number; v < (digest.visitorOffsets[k + 1] as number); v++) {
        if (isNewVisitor(path, digest.visitors[v] as number)) group.visitors += w;
      }
      if (times) {
        const from = digest.timeOffsets[k] as number;
        const to = digest.timeOffsets[k + 1] as number;
        group.times.addCounts(digest.timeValues.subarray(from, to), digest.timeCounts.subarray(from, to));
      }
    }
  };
  const digested =
    digests &&
    (yield* walkDigestDaysSteps(ctx, {
      part: (fromMs, toMs) => visitSessions(ctx, visit, fromMs, toMs),
      whole(website, day, ingested) {
        const work = foldDigestDay(ctx, PAGE_DAY_DIGESTS[times ? 'timed' : mode], website, day, fold);
        ingested(visit);
        return work;
      },
    }));
  if (!digested) yield* visitSessionsSteps(ctx, visit);
  return new Map(seen.map((path) => [path, byCode[path] as PageGroup]));
}

/** `name, pageviews, visitors` per path, ordered by visitors (the live `visitors DESC`). */
function* pageRows(ctx: RunContext, mode: 'all' | 'entry' | 'exit'): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [...(yield* groupPageViewsSteps(ctx, mode))].map(([code, g]) => ({ name: paths[code] ?? '', pageviews: g.pageviews, visitors: g.visitors }));
  return sortByVisitors(rows, (r) => r.name as string);
}

/** Rows with the share of summed visitors as the last field. */
function withShare(rows: Row[]): Row[] {
  const total = visitorTotal(rows);
  return rows.map((r) => ({ ...r, percentage: visitorShare(r.visitors as number, total) }));
}

/** The page a custom-SQL pages type answers: `LIMIT {limit} OFFSET {offset}`, limit 100 by default. */
function pageOf(ctx: RunContext, rows: Row[]): Row[] {
  return rows.slice(ctx.offset, ctx.offset + (ctx.limit ?? 100));
}

/** The SPEC.md row of top_pages: path, pageviews, visitors, sessions and the share of pageviews. */
function* specTopPages(ctx: RunContext): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [...(yield* groupPageViewsSteps(ctx, 'all'))].map(([code, g]) => ({ name: paths[code] ?? '', pageviews: g.pageviews, visitors: g.visitors, sessions: g.sessions }));
  sortByVisitors(rows, (r) => r.name as string);
  const total = rows.reduce((sum, r) => sum + (r.pageviews as number), 0);
  return rows.map((r) => ({ path: r.name as string, pageviews: r.pageviews as number, visitors: r.visitors as number, sessions: r.sessions as number, percentage: percentage(r.pageviews as number, total) }));
}

function* timeRows(ctx: RunContext): PassSteps<Row[]> {
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [];
  for (const [code, g] of yield* groupPageViewsSteps(ctx, 'all', true)) {
    rows.push({ name: paths[code] ?? '', sessions_with_time: g.pageviews, visitors: g.visitors, median_time_on_page: g.times.median() });
    // A median reads the path's values of every day.
    yield g.times.size();
  }
  sortByVisitors(rows, (r) => r.name as string);
  return withShare(rows);
}

/**
 * The pages family: its types' fields and meta are in pages-catalogue.json, but for the row
 * fields of entry_pages, exit_pages and page_performance, whose live meta lists none (declared
 * below as JSON types alone).
 */
const FAMILY: QueryFamilySpec = { name: 'pages', catalogue: readCatalogue('pages', catalogue) };

/** The filters of every pages builder. */
const PAGE_FILTERS = ["path", "country", "device_type", "browser_name", "os_name", "referrer", "utm_source", "utm_medium", "utm_campaign", "profile_id", "anonymous_id"];

/**
 * entry_pages or exit_pages: the first or last page of each session, paged by itself; the live
 * meta lists no fields (its meta is in pages-catalogue.json).
 */
function defineEntryOrExitPages(mode: 'entry' | 'exit'): QueryTypeDefinition {
  return defineQueryType({
    name: `${mode}_pages`,
    family: FAMILY,
    publicAccess: true,
    filters: PAGE_FILTERS,
    customizable: true,
    paging: 'self',
    fields: BREAKDOWN_FIELDS,
    derives: [PAGE_DAY_DIGESTS[mode]],
    *steps(ctx) {
      return pageOf(ctx, withShare(yield* pageRows(ctx, mode)));
    },
  });
}

/** What every pages declaration below shares. */
const definePagesType = declareUnder({
  family: FAMILY,
  filters: PAGE_FILTERS,
  customizable: true,
});

/** The live pages builders. */
export const pageTypes: QueryTypeDefinition[] = [
  definePagesType({
    name: 'top_pages',
    publicAccess: true,
    limit: 100,
    derives: [PAGE_DAY_DIGESTS.all],
    spec: { fields: ['path', 'pageviews', 'visitors', 'sessions', 'percentage'], run: (ctx) => runToEnd(specTopPages(ctx)), steps: specTopPages },
    sql: breakdownSql('path'),
    *steps(ctx) {
      return withShare(yield* pageRows(ctx, 'all'));
    },
  }),
  defineEntryOrExitPages('entry'),
  defineEntryOrExitPages('exit'),
  definePagesType({
    name: 'page_performance',
    limit: 100,
    derives: [PAGE_DAY_DIGESTS.all],
    fields: VISITS_FIELDS,
    sql: breakdownSql('path', { percentage: false }),
    steps: (ctx) => pageRows(ctx, 'all'),
  }),
  definePagesType({
    name: 'page_time_analysis',
    publicAccess: true,
    paging: 'self',
    derives: [PAGE_DAY_DIGESTS.timed],
    *steps(ctx) {
      return pageOf(ctx, yield* timeRows(ctx));
    },
  }),
];
