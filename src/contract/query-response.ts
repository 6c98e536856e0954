import { z } from 'zod';

/** A result row: field names are listed by the type's `meta.outputFields`; counts are numbers. */
export const rowSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** The outcome of one parameter. A failed one has `success: false`, an `error` and no rows. */
export const parameterResultSchema = z.object({
  parameter: z.string(),
  success: z.boolean(),
  error: z.string().optional(),
  data: z.array(rowSchema),
});

/** `meta` of a query result: the parameters as sent, the page, the page size and the filter count. */
export const queryMetaSchema = z.object({
  parameters: z.array(z.string()),
  total_parameters: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  filters_applied: z.number().int(),
});

/** `POST /v1/query` with one query (SPEC 4.4). */
export const queryResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  queryId: z.string(),
  data: z.array(parameterResultSchema),
  meta: queryMetaSchema,
});

/** `POST /v1/query` with a batch (SPEC 4.4, Batch). */
export const batchResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  batch: z.literal(true),
  results: z.array(
    z.object({
      queryId: z.string(),
      data: z.array(parameterResultSchema),
      meta: queryMetaSchema,
    }),
  ),
});

/** `POST /v1/query/compile`: ClickHouse-style SQL with `{name:Type}` placeholders and their values. */
export const compileResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  sql: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())])),
});

/** Meta of a query type (SPEC 2.3), present with `include_meta=true`. */
export const queryTypeMetaSchema = z.object({
  title: z.string(),
  description: z.string(),
  category: z.string(),
  outputFields: z.array(z.string()),
  defaultVisualization: z.enum(['table', 'timeseries', 'bar', 'pie', 'metric', 'area', 'line']),
  supportsGranularity: z.array(z.enum(['hour', 'day'])).optional(),
});

export type QueryTypeMeta = z.infer<typeof queryTypeMetaSchema>;

/** One entry of `configs` in `GET /v1/query/types` (SPEC 2.3). */
export const queryTypeConfigSchema = z.object({
  allowedFilters: z.array(z.string()),
  customizable: z.boolean(),
  defaultLimit: z.number().int(),
  publicAccess: z.boolean(),
  meta: queryTypeMetaSchema.optional(),
});

/** `GET /v1/query/types` (SPEC 4.3). */
export const queryTypesResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  types: z.array(z.string()),
  configs: z.record(z.string(), queryTypeConfigSchema),
  presets: z.array(z.string()),
});
