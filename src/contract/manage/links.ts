import { z } from 'zod';
import { attachedItemSchema, httpUrlSchema, resourceSchemas, updateSchemaOf, websiteRefSchema } from './common.js';

/** A short link's path segment: letters, digits, `-` and `_`, 1 to 64 characters. */
export const linkSlugSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'Must be 1 to 64 letters, digits, - or _, starting with a letter or digit');

const titleSchema = z.string().trim().min(1, 'Must not be empty').max(200, 'At most 200 characters').nullable();

/** A short link as the management routes return it. */
export const managedLinkSchema = attachedItemSchema({ slug: z.string(), targetUrl: z.string(), title: z.string().nullable() });

export type ManagedLink = z.infer<typeof managedLinkSchema>;

/** `POST /v1/links`. Without a slug one is generated; slugs are unique. */
export const createLinkSchema = z.strictObject({
  targetUrl: httpUrlSchema,
  slug: linkSlugSchema.optional(),
  title: titleSchema.optional(),
  websiteId: websiteRefSchema.optional(),
});

export type CreateLink = z.infer<typeof createLinkSchema>;

/** The schemas of the link routes; `PATCH /v1/links/:id` takes any of the fields, at least one. */
export const linkSchemas = resourceSchemas(managedLinkSchema, createLinkSchema, updateSchemaOf(createLinkSchema));

export type UpdateLink = z.infer<typeof linkSchemas.update>;
