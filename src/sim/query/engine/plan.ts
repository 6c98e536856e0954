import type { ErrorDetail } from '../../../contract/errors.js';
import type { Filter, Granularity, QueryRequest } from '../../../contract/query-request.js';
import { MAX_ERROR_DETAILS } from '../../../contract/request-limits.js';
import { DAY_MS } from '../../model/world.js';
import { parseDateInput, resolvePreset, type TimeUnit } from './dates.js';
import type { QueryTypeDefinition } from './definition.js';
import { findQueryType, QUERY_TYPE_NAMES } from '../registry.js';
import { suggest } from '../../text.js';
import { followsLive, type Profile } from '../../profile.js';

/** Largest page size, as the service accepts. */
export const MAX_LIMIT = 10_000;
/** Largest number of queries in one batch. */
export const MAX_BATCH_QUERIES = 50;
/** Longest date range, in days (about ten years). */
export const MAX_RANGE_DAYS = 3660;
/** Longest range hourly granularity accepts, in days. */
export const MAX_HOURLY_DAYS = 30;
/** UTC days a parameter's range touches. */
export function daysOf(parameter: Pick<ParameterPlan, 'fromMs' | 'toMs'>): number {
  return Math.floor(parameter.toMs / DAY_MS) - Math.floor(parameter.fromMs / DAY_MS) + 1;
}

/** One parameter, resolved: its type, range and bucketing. */
export interface ParameterPlan {
  /** What the result calls it: the parameter's `id`, or its name. */
  readonly key: string;
  readonly type: QueryTypeDefinition;
  readonly fromMs: number;
  readonly toMs: number;
  readonly unit: TimeUnit;
}

/** One query, resolved and valid. */
export interface QueryPlan {
  readonly queryId: string;
  readonly parameters: readonly ParameterPlan[];
  /** Parameter names as sent, for `meta.parameters`. */
  readonly parameterNames: readonly string[];
  readonly page: number;
  /** The request's limit; when absent each type uses its defaultLimit. */
  readonly limit: number | undefined;
  readonly filters: readonly Filter[];
  /** The request's ordering; applied only when both are present, as by the service. */
  readonly sortBy: string | undefined;
  readonly sortOrder: 'asc' | 'desc' | undefined;
  /**
   * `validation` under `live`: why building the query threw (hourly over 30 days). The query
   * holds one failed parameter (the first), as the service's batch catch writes it; a single
   * query, a 500 on the service, is answered the same way (never a 500 for bad input).
   */
  readonly thrown?: string;
}

/** What {@link planQuery} needs to follow the profile; without it, the `spec` checks apply. */
export interface PlanOptions {
  readonly profile: Profile;
  /** Says what was reinterpreted (a `Warning`), so a live answer never passes silently. */
  readonly warn: (warning: ErrorDetail) => void;
}

/** The message of a parameter that fails at execution, as the service sends it. */
export const EXECUTION_FAILED = 'Query execution failed';

/** Thrown by a parameter that fails at execution (see {@link failingAtExecution}); planning already said why. */
class ExecutionFailure extends Error {}

/** Whether a parameter's failure was decided while planning (its cause is already in a `Warning`). */
export function isPlannedFailure(error: unknown): boolean {
  return error instanceof ExecutionFailure;
}

/**
 * `validation` under `live`: the type of a parameter that the service runs and that fails when
 * run (ClickHouse refuses an impossible date; the builder throws). Running it throws, so the
 * engine answers the parameter `success: false`, "Query execution failed", with no rows.
 */
function failingAtExecution(type: QueryTypeDefinition, reason: string): QueryTypeDefinition {
  const run = (): never => {
    throw new ExecutionFailure(reason);
  };
  return { ...type, spec: undefined, paging: 'self', skipDateRange: true, run } as QueryTypeDefinition;
}

/** A date with the shape the service checks (`YYYY-MM-DD…`) that names no real instant. */
function isImpossibleDate(input: string | undefined): boolean {
  return input !== undefined && /^\s*\d{4}-\d{2}-\d{2}/.test(input) && parseDateInput(input) === null;
}

function unitOf(granularity: Granularity | undefined): TimeUnit {
  return granularity === 'hourly' || granularity === 'hour' ? 'hour' : 'day';
}

/** The query types a request names that exist (for access decisions before validation). */
export function namedTypes(queries: readonly QueryRequest[]): QueryTypeDefinition[] {
  const found = new Map<string, QueryTypeDefinition>();
  for (const q of queries) {
    for (const p of q.parameters) {
      const type = findQueryType(typeof p === 'string' ? p : p.name);
      if (type) found.set(type.name, type);
    }
  }
  return [...found.values()];
}

interface Range {
  fromMs: number;
  toMs: number;
}

/** The start of the message of a date a range cannot read (the service's words). */
const UNREADABLE_DATE = 'Invalid date: ';

/**
 * The hint of a refusal whose first unreadable date is in `details`: the forms a range takes
 * (`YYYY-MM-DD`, an ISO 8601 instant, or a preset instead), and for a day written with slashes
 * its two readings. Undefined when no date was unreadable. The details keep the service's words.
 */
export function dateFormsHint(details: readonly ErrorDetail[]): string | undefined {
  const unreadable = details.find((d) => d.message.startsWith(UNREADABLE_DATE));
  if (unreadable === undefined) return undefined;
  return `${unreadable.field}: ${dateFormsFor(unreadable.message.slice(UNREADABLE_DATE.length).replace(/\. Could not parse as a valid date$/, ''))}`;
}

/** The date forms a range takes, for a value that is none of them. */
function dateFormsFor(value: string): string {
  const forms = "Use YYYY-MM-DD (2025-06-01) or an ISO 8601 instant (2025-06-01T12:00:00Z), or leave startDate and endDate out and send a preset (today, last_7d, last_30d …)";
  const slashed = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(value.trim());
  if (!slashed) return forms;
  const [, a, b, year] = slashed as unknown as [string, string, string, string];
  const iso = (month: string, day: string): string => `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return `${forms}: ${iso(a, b)} if the month comes first, ${iso(b, a)} if the day does`;
}

/** A range the live service accepts and then fails at execution (`validation` under `live`). */
interface FailingRange {
  readonly failing: string;
}

function parseRange(
  start: string | undefined,
  end: string | undefined,
  fields: [string, string],
  details: ErrorDetail[],
  options?: PlanOptions,
): Range | FailingRange | null {
  const from = start === undefined ? null : parseDateInput(start);
  const to = end === undefined ? null : parseDateInput(end);
  if (options && followsLive(options.profile, 'validation')) {
    const impossible = [start, end].map(isImpossibleDate);
    const otherwiseFine = (impossible[0] || from) && (impossible[1] || to);
    if ((impossible[0] || impossible[1]) && otherwiseFine) {
      const field = impossible[0] ? fields[0] : fields[1];
      const value = (impossible[0] ? start : end) as string;
      options.warn({ field, message: `${value.slice(0, 64)} is not a real date; the service accepts its shape and fails each parameter at execution (${EXECUTION_FAILED})` });
      return { failing: `impossible date ${value.slice(0, 64)}` };
    }
    if (from && to && from.ms > (to.dateOnly ? to.ms + DAY_MS - 1 : to.ms)) {
      options.warn({ field: fields[0], message: `startDate ${start} is after endDate ${end}; the service does not check the order and fails each parameter at execution (${EXECUTION_FAILED})` });
      return { failing: 'start after end' };
    }
  }
  if (start !== undefined && !from) details.push({ field: fields[0], message: `${UNREADABLE_DATE}${start.slice(0, 64)}. Could not parse as a valid date` });
  if (end !== undefined && !to) details.push({ field: fields[1], message: `${UNREADABLE_DATE}${end.slice(0, 64)}. Could not parse as a valid date` });
  if (!from || !to) return null;
  const range = { fromMs: from.ms, toMs: to.dateOnly ? to.ms + DAY_MS - 1 : to.ms };
  if (range.fromMs > range.toMs) {
    details.push({ field: fields[0], message: `startDate ${start} is after endDate ${end}` });
    return null;
  }
  if (range.toMs - range.fromMs > MAX_RANGE_DAYS * DAY_MS) {
    details.push({ field: fields[0], message: `Date range cannot exceed ${MAX_RANGE_DAYS} days` });
    return null;
  }
  return range;
}

/**
 * Checks one query the way the service's route does (400 VALIDATION_ERROR) and resolves it.
 * `prefix` is `batch[i].` inside a batch. Problems are appended to `details`; the plan is
 * returned only when there were none.
 */
export function planQuery(
  query: QueryRequest,
  prefix: string,
  now: number,
  timezone: string,
  details: ErrorDetail[],
  options?: PlanOptions,
): QueryPlan | null {
  const live = options !== undefined && followsLive(options.profile, 'validation');
  let thrown: string | undefined;
  const before = details.length;
  if (query.parameters.length === 0) {
    details.push({ field: `${prefix}parameters`, message: 'At least one parameter is required' });
  }
  if (query.limit !== undefined && query.limit < 1) details.push({ field: `${prefix}limit`, message: 'Limit must be at least 1' });
  if (query.limit !== undefined && query.limit > MAX_LIMIT) details.push({ field: `${prefix}limit`, message: `Limit cannot exceed ${MAX_LIMIT}` });
  if (query.page !== undefined && query.page < 1) details.push({ field: `${prefix}page`, message: 'Page must be at least 1' });

  let requestRange: Range | FailingRange | null = null;
  const everyParameterDated = query.parameters.length > 0 && query.parameters.every((p) => typeof p !== 'string' && p.start_date !== undefined && p.end_date !== undefined);
  if (query.preset !== undefined) {
    const [start, end] = resolvePreset(query.preset, now, timezone);
    requestRange = parseRange(start, end, [`${prefix}preset`, `${prefix}preset`], details, options);
  } else if (query.startDate !== undefined || query.endDate !== undefined || !everyParameterDated) {
    if (query.startDate === undefined) details.push({ field: `${prefix}startDate`, message: 'Either startDate or preset is required' });
    if (query.endDate === undefined) details.push({ field: `${prefix}endDate`, message: 'Either endDate or preset is required' });
    if (query.startDate !== undefined && query.endDate !== undefined) {
      requestRange = parseRange(query.startDate, query.endDate, [`${prefix}startDate`, `${prefix}endDate`], details, options);
    }
  }

  const parameters: ParameterPlan[] = [];
  query.parameters.forEach((parameter, j) => {
    const field = `${prefix}parameters[${j}]`;
    const spec = typeof parameter === 'string' ? { name: parameter } : parameter;
    const type = findQueryType(spec.name);
    if (!type) {
      // A did-you-mean costs a comparison with every type name: only the details a body lists get one.
      const near = details.length < MAX_ERROR_DETAILS ? suggest(spec.name, QUERY_TYPE_NAMES) : undefined;
      details.push({
        field,
        message: `Unknown query type: ${spec.name.slice(0, 64)}`,
        ...(near ? { suggestion: `Did you mean '${near}'?` } : {}),
      });
      return;
    }
    let range = requestRange;
    if ('start_date' in spec && (spec.start_date !== undefined || spec.end_date !== undefined)) {
      if (spec.start_date === undefined || spec.end_date === undefined) {
        details.push({ field, message: 'A parameter with its own range needs both start_date and end_date' });
        return;
      }
      range = parseRange(spec.start_date, spec.end_date, [`${field}.start_date`, `${field}.end_date`], details, options);
    }
    if (!range) return;
    const key = ('id' in spec ? spec.id : undefined) ?? spec.name;
    if ('failing' in range) {
      parameters.push({ key, type: failingAtExecution(type, range.failing), fromMs: now, toMs: now, unit: 'day' });
      return;
    }
    if (type.maxRangeDays !== undefined && range.toMs - range.fromMs >= type.maxRangeDays * DAY_MS) {
      details.push({ field, message: `${type.name} covers at most ${type.maxRangeDays} days; narrow the range` });
      return;
    }
    const granularity = ('granularity' in spec ? spec.granularity : undefined) ?? query.granularity;
    const unit = unitOf(granularity);
    if (unit === 'hour' && !type.skipDateRange && Math.ceil((range.toMs - range.fromMs) / DAY_MS) > MAX_HOURLY_DAYS) {
      const granularityField = 'granularity' in spec && spec.granularity ? `${field}.granularity` : `${prefix}granularity`;
      if (live && options) {
        // The service's getTimeUnit throws while it prepares the parameters: the whole query fails (said once).
        if (thrown === undefined) options.warn({
          field: granularityField,
          message: `Hourly granularity only supports up to ${MAX_HOURLY_DAYS} days; the service throws while building the query (a failed item in a batch, a 500 for a single query, which the simulator answers as the failed item instead: it never answers 500 for bad input)`,
        });
        thrown ??= 'hourly range';
      } else {
        details.push({ field: granularityField, message: `Hourly granularity only supports up to ${MAX_HOURLY_DAYS} days` });
        return;
      }
    }
    parameters.push({ key, type, fromMs: range.fromMs, toMs: range.toMs, unit });
  });

  if (details.length > before) return null;
  const first = parameters[0];
  return {
    queryId: query.id ?? '',
    parameters: thrown !== undefined && first ? [{ ...first, type: failingAtExecution(first.type, thrown), fromMs: now, toMs: now, unit: 'day' }] : parameters,
    ...(thrown !== undefined ? { thrown } : {}),
    parameterNames: query.parameters.map((p) => (typeof p === 'string' ? p : p.name)),
    page: query.page ?? 1,
    limit: query.limit,
    filters: query.filters ?? [],
    sortBy: query.sortBy,
    sortOrder: query.sortOrder,
  };
}
