import type { CompileRequest, Filter } from '../../../contract/query-request.js';
import { compilationError, type SimError } from '../../errors.js';
import { formatDateTime, parseDateInput } from './dates.js';
import type { QueryTarget } from './definition.js';
import { findQueryType, QUERY_TYPE_NAMES, allowedFilters } from '../registry.js';
import { suggest } from '../../text.js';

/**
 * Fields `/v1/query/compile` may group by: the service's `ALLOWED_GROUPBY_FIELDS`
 * (`packages/ai/src/query/simple-builder.ts`; live-catalogue.json `rules.allowedGroupByFields`).
 */
export const ALLOWED_GROUP_BY = [
  'country', 'region', 'city', 'timezone', 'language', 'browser_name', 'browser_version', 'os_name', 'os_version',
  'viewport_size', 'device_type', 'path', 'date', 'name', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign',
  'utm_term', 'utm_content', 'source', 'message', 'error_type', 'duration_range', 'depth_range',
] as const;

/** Fields `/v1/query/compile` may order by: the service's `ALLOWED_ORDERBY_FIELDS` (`rules.allowedOrderByFields`). */
export const ALLOWED_ORDER_BY = [
  'visitors', 'sessions', 'pageviews', 'clicks', 'count', 'total', 'date', 'time', 'errors',
  'avg_scroll_depth', 'uptime_percentage', 'revenue', 'samples', 'total_events', 'unique_users',
] as const;

/** The lists as the service's messages name them: sorted. */
const sorted = (fields: readonly string[]): string => [...fields].sort().join(', ');

/** The service's order-by syntax: a word, optionally ASC or DESC in any case (`normalizeOrderBy`). */
const ORDER_BY = /^(\w+)(\s+(ASC|DESC))?$/i;

/** A compiled query: SQL with `{name:Type}` placeholders, and the values to bind. */
export interface CompiledQuery {
  readonly sql: string;
  readonly params: Record<string, string | number | string[]>;
}

const ID_COLUMN: Record<QueryTarget, string> = { website: 'client_id', link: 'link_id', monitor: 'site_id' };
const UNIT_SQL: Record<string, string> = { minute: 'MINUTE', hour: 'HOUR', hourly: 'HOUR', day: 'DAY', daily: 'DAY', week: 'WEEK', month: 'MONTH' };

function boundParam(input: string, end: boolean): string {
  const parsed = parseDateInput(input);
  if (!parsed) return input;
  return parsed.dateOnly && end ? `${formatDateTime(parsed.ms).slice(0, 10)} 23:59:59` : formatDateTime(parsed.ms);
}

function filterSql(filter: Filter, name: string): [string, string | string[]] {
  const values = (Array.isArray(filter.value) ? filter.value : [filter.value]).map(String);
  const first = values[0] ?? '';
  const escaped = first.replace(/[\\%_]/g, (c) => `\\${c}`);
  switch (filter.op) {
    case 'eq':
      return [`${filter.field} = {${name}:String}`, first];
    case 'ne':
      return [`${filter.field} != {${name}:String}`, first];
    case 'contains':
      return [`${filter.field} LIKE {${name}:String}`, `%${escaped}%`];
    case 'not_contains':
      return [`${filter.field} NOT LIKE {${name}:String}`, `%${escaped}%`];
    case 'starts_with':
      return [`${filter.field} LIKE {${name}:String}`, `${escaped}%`];
    case 'in':
      return [`${filter.field} IN {${name}:Array(String)}`, values];
    case 'not_in':
      return [`${filter.field} NOT IN {${name}:Array(String)}`, values];
  }
}

/**
 * Renders a compile request as deterministic ClickHouse-style SQL, the way the service's
 * builder does, without running it. Filters on fields the type does not allow are skipped. No
 * default limit is injected (both profiles: SPEC.md does not show this route's body): `LIMIT` is
 * the request's limit, else the builder's own, else absent; `OFFSET` only for an offset above 0.
 */
export function compileQuery(request: CompileRequest, timezone: string): CompiledQuery | SimError {
  const type = findQueryType(request.type);
  if (!type) {
    const near = suggest(request.type, QUERY_TYPE_NAMES);
    return compilationError(`Unknown query type: ${request.type.slice(0, 64)}${near ? `. Did you mean: ${near}?` : ''}`);
  }
  for (const field of request.groupBy ?? []) {
    if (!(ALLOWED_GROUP_BY as readonly string[]).includes(field)) {
      return compilationError(`Grouping by '${field.slice(0, 200)}' is not permitted. Allowed groupBy fields: ${sorted(ALLOWED_GROUP_BY)}.`);
    }
  }
  let orderBy = type.sql.orderBy;
  if (request.orderBy !== undefined) {
    const match = ORDER_BY.exec(request.orderBy);
    if (!match || !(ALLOWED_ORDER_BY as readonly string[]).includes(match[1] as string)) {
      return compilationError(
        `Ordering by '${request.orderBy.slice(0, 200)}' is not permitted. Use '<field>' or '<field> ASC|DESC' where field is one of: ${sorted(ALLOWED_ORDER_BY)}.`,
      );
    }
    orderBy = `${match[1]} ${(match[3] ?? 'DESC').toUpperCase()}`;
  }

  const params: Record<string, string | number | string[]> = {
    websiteId: request.projectId,
    from: boundParam(request.from, false),
    to: boundParam(request.to, true),
    timezone,
  };
  const where = [
    `${ID_COLUMN[type.target]} = {websiteId:String}`,
    'time >= toDateTime({from:String})',
    'time <= toDateTime({to:String})',
    ...(type.sql.where ?? []),
  ];
  const allowed = new Set(allowedFilters(type));
  let n = 0;
  for (const filter of request.filters ?? []) {
    if (!allowed.has(filter.field)) continue;
    const name = `f${n++}`;
    const [clause, value] = filterSql(filter, name);
    where.push(clause);
    params[name] = value;
  }
  const unit = request.timeUnit ? UNIT_SQL[request.timeUnit] : undefined;
  const select = type.sql.select.map((expr) =>
    unit && / AS date$/.test(expr) ? `toStartOfInterval(toTimeZone(time, {timezone:String}), INTERVAL 1 ${unit}) AS date` : expr,
  );
  const groupBy = request.groupBy ?? type.sql.groupBy;
  // No default limit is injected: the request's, else the builder's own (when it sets one);
  // an OFFSET only past the first row, as the service's limit clause has it.
  const limit = request.limit ?? type.liveLimit;
  const offset = request.offset ?? 0;
  if (limit !== undefined) params.limit = limit;
  if (offset > 0) params.offset = offset;
  const sql = [
    `SELECT ${select.join(', ')}`,
    `FROM ${type.sql.table}`,
    `WHERE ${where.join(' AND ')}`,
    ...(groupBy && groupBy.length > 0 ? [`GROUP BY ${groupBy.join(', ')}`] : []),
    ...(orderBy ? [`ORDER BY ${orderBy}`] : []),
    ...(limit !== undefined ? ['LIMIT {limit:UInt32}'] : []),
    ...(offset > 0 ? ['OFFSET {offset:UInt32}'] : []),
  ].join('\n');
  return { sql, params };
}
