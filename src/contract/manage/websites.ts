import { z } from 'zod';
import { nameSchema, ownedItemSchema, resourceSchemas, updateSchemaOf } from './common.js';

/** How much generated traffic a website gets, from about 5 to about 120,000 sessions a day. */
export const TRAFFIC_SIZES = ['tiny', 'small', 'medium', 'large', 'huge'] as const;

export const trafficSizeSchema = z.enum(TRAFFIC_SIZES);

export type TrafficSizeName = z.infer<typeof trafficSizeSchema>;

/** Labels of 1 to 63 letters, digits and inner hyphens, a top-level label of 2 to 63 letters. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A bare domain name (no scheme, port or path), lower-cased. */
export const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, 'At most 253 characters')
  .regex(DOMAIN, 'Must be a domain name such as shop.example.com (no scheme, port or path)');

/** A website as the management routes return it. */
export const managedWebsiteSchema = ownedItemSchema({ name: z.string(), domain: z.string(), isPublic: z.boolean(), trafficSize: trafficSizeSchema });

export type ManagedWebsite = z.infer<typeof managedWebsiteSchema>;

/** `POST /v1/websites`. A new website gets generated traffic of `trafficSize` (default small, ~150 sessions a day). */
export const createWebsiteSchema = z.strictObject({
  name: nameSchema(),
  domain: domainSchema,
  isPublic: z.boolean().optional(),
  trafficSize: trafficSizeSchema.optional(),
});

export type CreateWebsite = z.infer<typeof createWebsiteSchema>;

/** The schemas of the website routes; `PATCH /v1/websites/:id` takes any of the fields, at least one. */
export const websiteSchemas = resourceSchemas(managedWebsiteSchema, createWebsiteSchema, updateSchemaOf(createWebsiteSchema));

export type UpdateWebsite = z.infer<typeof websiteSchemas.update>;
