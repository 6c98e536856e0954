import { z } from 'zod';
import { listPageQueryShape } from './page-query.js';

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

/**
 * `GET /v1/query/websites` (SPEC 4.2): one page of the websites (all of them unless there are
 * more than 1,000) and `total`, the number of websites the caller reaches.
 */
export const websitesResponseSchema = z.object({
  success: z.literal(true),
  requestId: z.string(),
  websites: z.array(websiteSchema),
  /** Every website the caller reaches, not only this page's. */
  total: z.number().int(),
});

/** Query string of `GET /v1/query/websites`: the page (see {@link listPageQueryShape}). */
export const websitesQuerySchema = z.object(listPageQueryShape);
