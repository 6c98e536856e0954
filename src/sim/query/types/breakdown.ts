import type { QueryTypeMeta } from '../../../contract/query-response.js';
import type { Dictionaries, SessionDimension } from '../../model/traffic.js';
import { byVisitors, groupSessions, percentage } from '../aggregate.js';
import { type QueryTypeDefinition, type Row } from '../definition.js';
import { defineWebsiteType } from '../legacy-type.js';

/** The SQL of a pageview breakdown by one column. */
export function breakdownSql(column: string, extraSelect: readonly string[] = []) {
  return {
    table: 'analytics.events',
    select: [
      `${column} AS name`,
      ...extraSelect,
      'COUNT(*) AS pageviews',
      'uniq(anonymous_id) AS visitors',
      'ROUND(uniq(anonymous_id) / SUM(uniq(anonymous_id)) OVER () * 100, 2) AS percentage',
    ],
    where: ["event_name = 'screen_view'", `${column} != ''`],
    groupBy: [column],
    orderBy: 'visitors DESC',
  };
}

export interface BreakdownOptions {
  readonly name: string;
  readonly dimension: SessionDimension;
  readonly title: string;
  readonly description: string;
  readonly category: string;
  readonly visualization?: QueryTypeMeta['defaultVisualization'];
  readonly defaultLimit?: number;
  /** The row's `name` for a dictionary code; defaults to the dictionary value. */
  readonly label?: (code: number, dictionaries: Dictionaries) => string;
  /** Groups to leave out (for example the empty value of an optional dimension). */
  readonly skip?: (code: number) => boolean;
  /** Fields after `name`, derived from the group's code. Listed in `extraFields`. */
  readonly extra?: (code: number, dictionaries: Dictionaries) => Row;
  readonly extraFields?: readonly string[];
  readonly publicAccess?: boolean;
}

/**
 * A website type that breaks pageviews down by one session dimension: rows of `name`, extras,
 * `pageviews`, `visitors` and `percentage` (of visitors), ordered by visitors.
 */
export function defineBreakdown(options: BreakdownOptions): QueryTypeDefinition {
  const extraFields = options.extraFields ?? [];
  return defineWebsiteType({
    name: options.name,
    publicAccess: options.publicAccess ?? true,
    defaultLimit: options.defaultLimit ?? 100,
    meta: {
      title: options.title,
      description: options.description,
      category: options.category,
      outputFields: ['name', ...extraFields, 'pageviews', 'visitors', 'percentage'],
      defaultVisualization: options.visualization ?? 'table',
    },
    sql: breakdownSql(options.dimension, extraFields.map((f) => `any(${f}) AS ${f}`)),
    run(ctx) {
      const dim = options.dimension;
      const groups = groupSessions(ctx, (batch, i) => batch.dims[dim][i] as number);
      let totalVisitors = 0;
      const rows: Array<Row & { name: string; pageviews: number; visitors: number }> = [];
      for (const [code, stats] of groups) {
        if (options.skip?.(code)) continue;
        totalVisitors += stats.visitors;
        rows.push({
          name: options.label ? options.label(code, ctx.dictionaries) : (ctx.dictionaries.values[dim][code] ?? ''),
          ...(options.extra ? options.extra(code, ctx.dictionaries) : {}),
          pageviews: stats.pageviews,
          visitors: stats.visitors,
        });
      }
      rows.sort(byVisitors);
      return rows.map((row) => ({ ...row, percentage: percentage(row.visitors, totalVisitors) }));
    },
  });
}
