import { byVisitors, groupPages, median, percentage, type PageStats } from '../aggregate.js';
import { type QueryTypeDefinition, type Row, type RunContext } from '../definition.js';
import { defineWebsiteType } from '../legacy-type.js';

type PageRow = Row & { name: string; pageviews: number; visitors: number };

function pageRows(ctx: RunContext, groups: Map<number, PageStats>): PageRow[] {
  const paths = ctx.dictionaries.values.path;
  const rows: PageRow[] = [];
  for (const [code, stats] of groups) {
    rows.push({ name: paths[code] ?? '', pageviews: stats.pageviews, visitors: stats.visitors, sessions: stats.sessions });
  }
  return rows.sort(byVisitors);
}

const PAGE_FILTERS = ['profile_id', 'anonymous_id'];

function pagesSql(pathExpr: string) {
  return {
    table: 'analytics.events',
    select: [
      `${pathExpr} AS path`,
      'COUNT(*) AS pageviews',
      'uniq(anonymous_id) AS visitors',
      'uniq(session_id) AS sessions',
      'ROUND(COUNT(*) / SUM(COUNT(*)) OVER () * 100, 2) AS percentage',
    ],
    where: ["event_name = 'screen_view'"],
    groupBy: ['path'],
    orderBy: 'visitors DESC',
  };
}

function definePages(
  name: string,
  mode: 'all' | 'entry' | 'exit',
  title: string,
  description: string,
  pathExpr: string,
): QueryTypeDefinition {
  return defineWebsiteType({
    name,
    extraFilters: PAGE_FILTERS,
    meta: {
      title,
      description,
      category: 'Content',
      outputFields: ['path', 'pageviews', 'visitors', 'sessions', 'percentage'],
      defaultVisualization: 'table',
      supportsGranularity: ['hour', 'day'],
    },
    sql: pagesSql(pathExpr),
    run(ctx) {
      const rows = pageRows(ctx, groupPages(ctx, mode));
      const total = rows.reduce((sum, r) => sum + r.pageviews, 0);
      return rows.map((r) => ({
        path: r.name,
        pageviews: r.pageviews,
        visitors: r.visitors,
        sessions: r.sessions as number,
        percentage: percentage(r.pageviews, total),
      }));
    },
  });
}

export const pageTypes: QueryTypeDefinition[] = [
  definePages(
    'top_pages',
    'all',
    'Top Pages',
    'Most visited pages on your website, ranked by total pageviews with visitor counts and traffic percentage.',
    'path',
  ),
  definePages(
    'entry_pages',
    'entry',
    'Entry Pages',
    'Pages where sessions start; pageviews count one entry per session.',
    'argMin(path, time)',
  ),
  definePages(
    'exit_pages',
    'exit',
    'Exit Pages',
    'Pages where sessions end; pageviews count one exit per session.',
    'argMax(path, time)',
  ),
  defineWebsiteType({
    name: 'page_time_analysis',
    extraFilters: PAGE_FILTERS,
    meta: {
      title: 'Time on page',
      description: 'Median seconds spent on each page, from views that were followed by another view.',
      category: 'Content',
      outputFields: ['path', 'sessions_with_time', 'visitors', 'median_time_on_page', 'percentage'],
      defaultVisualization: 'table',
    },
    sql: {
      table: 'analytics.events',
      select: ['path', 'uniq(session_id) AS sessions_with_time', 'uniq(anonymous_id) AS visitors', 'median(time_on_page) AS median_time_on_page', 'ROUND(uniq(session_id) / SUM(uniq(session_id)) OVER () * 100, 2) AS percentage'],
      where: ["event_name = 'screen_view'", 'time_on_page > 0'],
      groupBy: ['path'],
      orderBy: 'visitors DESC',
    },
    run(ctx) {
      const groups = groupPages(ctx, 'all', { times: true });
      const paths = ctx.dictionaries.values.path;
      const rows: Array<{ name: string; pageviews: number; visitors: number; sessions: number; times: number[] }> = [];
      for (const [code, stats] of groups) {
        if (stats.times.length === 0) continue;
        rows.push({ name: paths[code] ?? '', pageviews: stats.pageviews, visitors: stats.visitors, sessions: stats.sessions, times: stats.times });
      }
      rows.sort(byVisitors);
      const total = rows.reduce((sum, r) => sum + r.sessions, 0);
      return rows.map((r) => ({
        path: r.name,
        sessions_with_time: r.sessions,
        visitors: r.visitors,
        median_time_on_page: median(r.times),
        percentage: percentage(r.sessions, total),
      }));
    },
  }),
];
