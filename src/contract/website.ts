import { z } from 'zod';

/** A website as the website list returns it (SPEC 2.1, plus the organization fields the service adds). */
export const websiteSchema = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  isPublic: z.boolean(),
  /** ISO 8601, UTC, with milliseconds. */
  createdAt: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
});

export type WebsiteBody = z.infer<typeof websiteSchema>;

/** `GET /v1/query/websites` (SPEC 4.2). */
export const websitesResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  websites: z.array(websiteSchema),
  total: z.number().int(),
});
