import { createDistinct, median, percentage } from '../../readers/aggregate.js';
import { declareUnder, defineQueryType, type QueryTypeDefinition, type Row, type RunContext } from '../../engine/definition.js';
import { int, num, text } from '../../engine/fields.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { visitSessions } from '../../readers/session-visits.js';
import { BREAKDOWN_FIELDS, breakdownSql, VISITS_FIELDS, sortByVisitors, visitorShare, visitorTotal } from '../../readers/breakdown.js';

/** Weighted totals of the views of one path. */
interface PageGroup {
  pageviews: number;
  visitors: number;
  sessions: number;
  /** Seconds on page of the views kept for time analysis (1 < t < 3600), unweighted. */
  readonly times: number[];
  /** The serial of the last session that counted in {@link sessions}: a session's views are visited together. */
  lastSession: number;
}

/**
 * Groups pageviews that pass the path filter by path code. `all` counts every view; `entry`
 * and `exit` only a session's first or last such view (one per session), as the live SQL takes
 * argMin/argMax of the filtered events. `times` keeps the page_exit times the live
 * page_time_analysis reads (strictly between 1 and 3600 seconds).
 */
function groupPageViews(ctx: RunContext, mode: 'all' | 'entry' | 'exit', times = false): Map<number, PageGroup> {
  const pathMask = ctx.filters.masks.get('path') ?? null;
  // By path code (codes are 16-bit), and the codes in the order first seen: the map's order.
  const byCode: (PageGroup | undefined)[] = [];
  const seen: number[] = [];
  const isNewVisitor = createDistinct();
  let sessionSerial = 0;
  const count = (batch: SessionBatch, p: number, w: number, visitorKey: number): void => {
    const path = batch.pagePaths[p] as number;
    const seconds = batch.pageTimeS[p] as number;
    if (times && !(seconds > 1 && seconds < 3600)) return;
    let group = byCode[path];
    if (!group) {
      group = { pageviews: 0, visitors: 0, sessions: 0, times: [], lastSession: 0 };
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
    if (times) group.times.push(seconds);
  };
  const kept = (batch: SessionBatch, p: number): boolean => !pathMask || pathMask[batch.pagePaths[p] as number] === 1;
  visitSessions(ctx, ({ batch, index, visitorKey }) => {
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
  });
  return new Map(seen.map((path) => [path, byCode[path] as PageGroup]));
}

/** `name, pageviews, visitors` per path, ordered by visitors (the live `visitors DESC`). */
function pageRows(ctx: RunContext, mode: 'all' | 'entry' | 'exit'): Row[] {
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [...groupPageViews(ctx, mode)].map(([code, g]) => ({ name: paths[code] ?? '', pageviews: g.pageviews, visitors: g.visitors }));
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
function specTopPages(ctx: RunContext): Row[] {
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [...groupPageViews(ctx, 'all')].map(([code, g]) => ({ name: paths[code] ?? '', pageviews: g.pageviews, visitors: g.visitors, sessions: g.sessions }));
  sortByVisitors(rows, (r) => r.name as string);
  const total = rows.reduce((sum, r) => sum + (r.pageviews as number), 0);
  return rows.map((r) => ({ path: r.name as string, pageviews: r.pageviews as number, visitors: r.visitors as number, sessions: r.sessions as number, percentage: percentage(r.pageviews as number, total) }));
}

function timeRows(ctx: RunContext): Row[] {
  const paths = ctx.dictionaries.values.path;
  const rows: Row[] = [...groupPageViews(ctx, 'all', true)].map(([code, g]) => ({
    name: paths[code] ?? '',
    sessions_with_time: g.pageviews,
    visitors: g.visitors,
    median_time_on_page: median(g.times),
  }));
  sortByVisitors(rows, (r) => r.name as string);
  return withShare(rows);
}

/** The filters of every pages builder. */
const PAGE_FILTERS = ["path", "country", "device_type", "browser_name", "os_name", "referrer", "utm_source", "utm_medium", "utm_campaign", "profile_id", "anonymous_id"];

/** entry_pages or exit_pages: the first or last page of each session, paged by itself; the live meta lists no fields. */
function defineEntryOrExitPages(mode: 'entry' | 'exit', description: string, tags: string[]): QueryTypeDefinition {
  return defineQueryType({
    name: `${mode}_pages`,
    family: 'pages',
    publicAccess: true,
    filters: PAGE_FILTERS,
    customizable: true,
    paging: 'self',
    fields: BREAKDOWN_FIELDS,
    meta: { description, category: "Pages", tags },
    run: (ctx) => pageOf(ctx, withShare(pageRows(ctx, mode))),
  });
}

/** What every pages declaration below shares. */
const definePagesType = declareUnder({
  family: 'pages',
  filters: PAGE_FILTERS,
  customizable: true,
});

/** The live pages builders. */
export const pageTypes: QueryTypeDefinition[] = [
  definePagesType({
    name: 'top_pages',
    publicAccess: true,
    limit: 100,
    fields: {
      name: text("Page Path", { description: "The URL path of the page", example: "/home" }),
      pageviews: int("Pageviews", { description: "Total number of page views", example: 1234 }),
      visitors: int("Unique Visitors", { description: "Number of unique visitors", example: 456 }),
      percentage: num("Traffic %", { description: "Percentage of total traffic", unit: "%", example: 12.5 }),
    },
    meta: {
      title: "Top Pages",
      description: "Most visited pages on your website, ranked by total pageviews with visitor counts and traffic percentage.",
      category: "Content",
      tags: ["pages", "content", "traffic"],
      default_visualization: "table",
      supports_granularity: ["hour", "day"],
    },
    spec: { fields: ['path', 'pageviews', 'visitors', 'sessions', 'percentage'], run: specTopPages },
    sql: breakdownSql('path'),
    run(ctx) {
      return withShare(pageRows(ctx, 'all'));
    },
  }),
  defineEntryOrExitPages('entry', "First pages visitors land on when entering your site, ranked by entry frequency.", ["pages", "entry", "landing"]),
  defineEntryOrExitPages('exit', "Last pages visitors view before leaving your site, ranked by exit frequency.", ["pages", "exit", "drop-off"]),
  definePagesType({
    name: 'page_performance',
    limit: 100,
    fields: VISITS_FIELDS,
    meta: {
      description: "Page load performance metrics (load time, TTFB, DOM ready) broken down by page.",
      category: "Performance",
      tags: ["pages", "performance", "load time"],
    },
    sql: breakdownSql('path', { percentage: false }),
    run(ctx) {
      return pageRows(ctx, 'all');
    },
  }),
  definePagesType({
    name: 'page_time_analysis',
    publicAccess: true,
    paging: 'self',
    fields: {
      name: text("Page Path", { description: "The URL path of the page", example: "/home" }),
      sessions_with_time: int("Sessions with Time Data", { description: "Number of sessions with valid time measurements", example: 245 }),
      visitors: int("Unique Visitors", { description: "Number of unique visitors with time data", example: 189 }),
      median_time_on_page: num("Median Time (seconds)", { description: "Median time spent on the page in seconds", unit: "seconds", example: 32.5 }),
      percentage: num("Share", { description: "Percentage of total visitors", unit: "%", example: 15.8 }),
    },
    meta: {
      title: "Page Time Analysis",
      description: "Analysis of time spent on each page, showing median time with quality filters to ensure reliable data.",
      category: "Engagement",
      tags: ["time", "engagement", "pages", "performance"],
      default_visualization: "table",
      supports_granularity: ["hour", "day"],
    },
    run(ctx) {
      return pageOf(ctx, timeRows(ctx));
    },
  }),
];
