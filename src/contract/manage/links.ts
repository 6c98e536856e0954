import { z } from 'zod';
import { httpUrlSchema, itemResponseSchema, listResponseSchema, timestampSchema, updateSchemaOf, websiteRefSchema } from './common.js';

/** A short link's path segment: letters, digits, `-` and `_`, 1 to 64 characters. */
export const linkSlugSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'Must be 1 to 64 letters, digits, - or _, starting with a letter or digit');

const titleSchema = z.string().trim().min(1, 'Must not be empty').max(200, 'At most 200 characters').nullable();

/** A short link as the management routes return it. */
export const managedLinkSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  websiteId: z.string().nullable(),
  slug: z.string(),
  targetUrl: z.string(),
  title: z.string().nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export type ManagedLink = z.infer<typeof managedLinkSchema>;

/** `POST /v1/links`. Without a slug one is generated; slugs are unique. */
export const createLinkSchema = z.strictObject({
  targetUrl: httpUrlSchema,
  slug: linkSlugSchema.optional(),
  title: titleSchema.optional(),
  websiteId: websiteRefSchema.optional(),
});

export type CreateLink = z.infer<typeof createLinkSchema>;

/** `PATCH /v1/links/:id`: any of the fields, at least one. */
export const updateLinkSchema = updateSchemaOf(createLinkSchema);

export type UpdateLink = z.infer<typeof updateLinkSchema>;

export const linkResponseSchema = itemResponseSchema(managedLinkSchema);
export const linkListResponseSchema = listResponseSchema(managedLinkSchema);
