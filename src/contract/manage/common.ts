import { z } from 'zod';

/** Items per page when `limit` is not given. */
export const DEFAULT_PAGE_LIMIT = 20;

/** The largest `limit` a list accepts. */
export const MAX_PAGE_LIMIT = 100;

/** An instant in an answer: ISO 8601, UTC, with milliseconds. */
export const timestampSchema = z.string().describe('ISO 8601, UTC, with milliseconds');

/** A resource id in a body (a website, a monitor). */
export const idSchema = z.string().min(1, 'Must not be empty').max(100, 'At most 100 characters');

/** A display name: trimmed, 1 to `max` characters. */
export function nameSchema(max = 100) {
  return z.string().trim().min(1, 'Must not be empty').max(max, `At most ${max} characters`);
}

/** An http(s) URL. */
export const httpUrlSchema = z
  .url({ protocol: /^https?$/, message: 'Must be an http or https URL' })
  .max(2048, 'At most 2048 characters');

/**
 * The website a resource is attached to, or null for the whole organization. A
 * website-restricted API key reaches only resources attached to its websites.
 */
export const websiteRefSchema = idSchema.nullable();

const ORGANIZATION_ID = z
  .string()
  .optional()
  .describe(
    "The organization the request acts for. Default: the API key's organization, or the session's active organization. A session may name any organization its user belongs to; a key only its own.",
  );

/**
 * A whole-number query parameter between `min` and `max`. `range` is the same range as a
 * pattern, so the OpenAPI document states the bounds (a refinement does not show there).
 */
export function intParam(name: string, min: number, max: number, range: RegExp) {
  return z
    .string()
    .regex(/^(?:0|[1-9]\d{0,9})$/, `${name} must be a whole number, without leading zeros`)
    .refine((v) => Number(v) >= min && Number(v) <= max, `${name} must be between ${min} and ${max}`)
    .meta({ pattern: range.source });
}

/** Query string of every management route: the organization it acts for. */
export const organizationQuerySchema = z.object({ organization_id: ORGANIZATION_ID });

/** Query string of a list: organization, page and page size. */
export const listQuerySchema = z.object({
  organization_id: ORGANIZATION_ID,
  page: intParam('page', 1, 1_000_000_000, /^(?:[1-9]\d{0,8}|1000000000)$/).optional().describe('Page number, from 1 (default 1)'),
  limit: intParam('limit', 1, MAX_PAGE_LIMIT, /^(?:[1-9]\d?|100)$/)
    .optional()
    .describe(`Items per page, 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`),
});

export type ListQuery = z.infer<typeof listQuerySchema>;

/** Where a page of a list is. */
export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  /** Items in the whole list. */
  total: z.number().int(),
  /** Whether a later page has items. */
  hasMore: z.boolean(),
});

export type Pagination = z.infer<typeof paginationSchema>;

/** `{ success, requestId, data }` around one item. */
export function itemResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), requestId: z.string(), data: item });
}

/** `{ success, requestId, data, pagination }` around one page of items, ordered by createdAt then id. */
export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), requestId: z.string(), data: z.array(item), pagination: paginationSchema });
}

/**
 * A management item as the routes return it: `id` and `organizationId`, its own `fields` in
 * order, then `createdAt` and `updatedAt`.
 */
export function ownedItemSchema<Shape extends z.core.$ZodLooseShape>(fields: Shape) {
  return z.object({ id: z.string(), organizationId: z.string(), ...fields, createdAt: timestampSchema, updatedAt: timestampSchema });
}

/** An {@link ownedItemSchema} that may be attached to a website: `websiteId` (null: the whole organization) before its own `fields`. */
export function attachedItemSchema<Shape extends z.core.$ZodLooseShape>(fields: Shape) {
  return ownedItemSchema({ websiteId: z.string().nullable(), ...fields });
}

/**
 * The schemas of a management resource's routes: the answers around one `item` and around a
 * page of them, the create body and the PATCH body (most resources: {@link updateSchemaOf} the
 * create body).
 */
export function resourceSchemas<Item extends z.ZodType, Create extends z.ZodType, Update extends z.ZodType>(
  item: Item,
  create: Create,
  update: Update,
) {
  return { item: itemResponseSchema(item), list: listResponseSchema(item), create, update };
}

/** The answer of a delete. */
export const deletedResponseSchema = itemResponseSchema(z.object({ id: z.string(), deleted: z.literal(true) }));

/** Refuses an empty PATCH body. */
export function notEmpty(value: object): boolean {
  return Object.keys(value).length > 0;
}

/** The message of {@link notEmpty}. */
export const NOT_EMPTY = { message: 'Send at least one field to change' };

/**
 * A PATCH body made from its create body: the same fields with the same rules, each optional,
 * at least one given. Unknown fields stay refused.
 */
export function updateSchemaOf<Shape extends z.core.$ZodLooseShape>(create: z.ZodObject<Shape, z.core.$strict>) {
  return create.partial().refine(notEmpty, NOT_EMPTY).meta({ minProperties: 1 });
}
