import { z } from 'zod';

/** A value in a result row: scalars, or the nested lists and objects some types return (paths, events, agents). */
export type RowValue = string | number | boolean | null | readonly RowValue[] | { readonly [key: string]: RowValue };

/**
 * A row value's schema: scalars, or a list or plain object (of row values; not checked deeper,
 * so the JSON Schema has no recursive reference).
 */
export const rowValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]) as unknown as z.ZodType<RowValue>;

/** A result row: its keys are the type's fields (`meta.outputFields` under the spec profile); counts are numbers. */
export const rowSchema = z.record(z.string(), rowValueSchema);

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

/** Meta of a query type under the spec profile (SPEC 2.3), present with `include_meta=true`. */
export const queryTypeMetaSchema = z.object({
  title: z.string(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  outputFields: z.array(z.string()),
  defaultVisualization: z.string().optional(),
  supportsGranularity: z.array(z.enum(['hour', 'day'])).optional(),
});

export type QueryTypeMeta = z.infer<typeof queryTypeMetaSchema>;

/** One output field in the live service's meta: its name, value type, label and unit. */
export const liveOutputFieldSchema = z.object({
  name: z.string(),
  type: z.string(),
  label: z.string().optional(),
  description: z.string().optional(),
  unit: z.string().optional(),
  example: z.unknown().optional(),
});

/**
 * Meta of a query type as the live service sends it (`--profile live`): snake_case, output fields
 * as objects, tags. Several live types leave out the title, the output fields or the
 * visualization; those keys are then absent.
 */
export const liveQueryTypeMetaSchema = z.object({
  title: z.string().optional(),
  description: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  output_fields: z.array(liveOutputFieldSchema).optional(),
  default_visualization: z.string().optional(),
  supports_granularity: z.array(z.string()).optional(),
  default_order: z.string().optional(),
});

export type LiveQueryTypeMeta = z.infer<typeof liveQueryTypeMetaSchema>;

/**
 * One entry of `configs` in `GET /v1/query/types` (SPEC 2.3). Under the live profile
 * `customizable` and `defaultLimit` are absent for types whose builder sets none, and `meta`
 * has the live shape.
 */
export const queryTypeConfigSchema = z.object({
  allowedFilters: z.array(z.string()),
  customizable: z.boolean().optional(),
  defaultLimit: z.number().int().optional(),
  publicAccess: z.boolean(),
  meta: z.union([queryTypeMetaSchema, liveQueryTypeMetaSchema]).optional(),
});

/** `GET /v1/query/types` (SPEC 4.3). */
export const queryTypesResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  types: z.array(z.string()),
  configs: z.record(z.string(), queryTypeConfigSchema),
  presets: z.array(z.string()),
});
