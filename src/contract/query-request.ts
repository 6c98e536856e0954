import { z } from 'zod';
import { cappedArray, REQUEST_LIMITS } from './request-limits.js';

/**
 * A date of a range, as text (`YYYY-MM-DD` or ISO 8601). A number (epoch milliseconds) is
 * refused, as the service's schema refuses it, with the conversion in the message.
 */
function dateText(field: string) {
  return z.string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `${field} takes a date as text, YYYY-MM-DD or ISO 8601, not a number: for epoch milliseconds send new Date(ms).toISOString()`
        : undefined,
  });
}

/** Date presets, in the order the service lists them. */
export const DATE_PRESETS = [
  'today',
  'yesterday',
  'last_7d',
  'last_14d',
  'last_30d',
  'last_90d',
  'this_week',
  'last_week',
  'this_month',
  'last_month',
  'this_year',
] as const;

export type DatePreset = (typeof DATE_PRESETS)[number];

/** Filter operators (SPEC 4.5 shows `in`; the service accepts these seven). */
export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'contains',
  'not_contains',
  'starts_with',
  'in',
  'not_in',
] as const;

export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Granularity values; `hour`/`day` are accepted aliases of `hourly`/`daily`. */
export const GRANULARITIES = ['hourly', 'daily', 'hour', 'day'] as const;

export type Granularity = (typeof GRANULARITIES)[number];

const filterScalar = z.union([z.string(), z.number()]);

/** A filter (SPEC 4.5): values are compared as strings; a scalar for `in` is a one-element list. */
export const filterSchema = z.object({
  field: z.string().min(1),
  op: z.enum(FILTER_OPERATORS),
  value: z.union([filterScalar, cappedArray(filterScalar, REQUEST_LIMITS.filterValues, 'values are accepted in one filter')]),
});

export type Filter = z.infer<typeof filterSchema>;

/** A parameter given as an object: its own date range, id and granularity override the request's. */
export const parameterObjectSchema = z.object({
  name: z.string(),
  start_date: dateText('start_date').optional(),
  end_date: dateText('end_date').optional(),
  id: z.string().optional(),
  granularity: z.enum(GRANULARITIES).optional(),
});

/** A parameter: a query type name, or an object with its own range, id and granularity. */
export const parameterSchema = z.union([z.string(), parameterObjectSchema]);

export type QueryParameter = z.infer<typeof parameterSchema>;

/** One query (SPEC 4.4). Page and limit ranges are checked after the schema, with clear messages. */
export const queryRequestSchema = z.object({
  id: z.string().optional(),
  parameters: cappedArray(parameterSchema, REQUEST_LIMITS.queryParameters, 'parameters are allowed in one query'),
  startDate: dateText('startDate').optional(),
  endDate: dateText('endDate').optional(),
  preset: z.enum(DATE_PRESETS).optional(),
  limit: z.number().int().optional(),
  page: z.number().int().optional(),
  filters: cappedArray(filterSchema, REQUEST_LIMITS.filters, 'filters are accepted in one query').optional(),
  granularity: z.enum(GRANULARITIES).optional(),
  /** Orders each parameter's rows by this field, together with `sortOrder` (both or neither apply). */
  sortBy: z.string().optional(),
  sortOrder: z.enum(['asc', 'desc']).optional(),
  /** Accepted and ignored, as by the service: the `timezone` query parameter decides. */
  timeZone: z.string().optional(),
});

export type QueryRequest = z.infer<typeof queryRequestSchema>;

/** The body of `POST /v1/query`: one query, or a batch (an array of queries). */
export const queryBodySchema = z.union([queryRequestSchema, cappedArray(queryRequestSchema, REQUEST_LIMITS.batchQueries, 'queries are accepted in one batch')]);

export type QueryBody = z.infer<typeof queryBodySchema>;

/** Query-string parameters of `POST /v1/query`. */
export const queryStringSchema = z.object({
  website_id: z.string().optional(),
  link_id: z.string().optional(),
  schedule_id: z.string().optional(),
  organization_id: z.string().optional(),
  timezone: z.string().optional(),
});

/** Time units accepted by `/v1/query/compile`. */
export const COMPILE_TIME_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'hourly', 'daily'] as const;

/** The body of `POST /v1/query/compile`. */
export const compileRequestSchema = z.object({
  projectId: z.string().min(1),
  type: z.string().min(1),
  from: z.string(),
  to: z.string(),
  timeUnit: z.enum(COMPILE_TIME_UNITS).optional(),
  filters: cappedArray(filterSchema, REQUEST_LIMITS.filters, 'filters are accepted in one request').optional(),
  groupBy: cappedArray(z.string(), REQUEST_LIMITS.groupBy, 'groupBy fields are accepted').optional(),
  orderBy: z.string().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  offset: z.number().int().min(0).optional(),
});

export type CompileRequest = z.infer<typeof compileRequestSchema>;
