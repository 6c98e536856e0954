import { z } from 'zod';
import { MAX_ERROR_DETAILS } from './request-limits.js';

/** One schema problem in the ingestion envelope: zod's issue code, the path joined with dots, zod's message. */
export const basketIssueSchema = z.object({
  code: z.string(),
  field: z.string(),
  message: z.string(),
});

/**
 * The live ingestion service's error body (`buildBasketErrorPayload` of
 * `apps/basket/src/lib/structured-errors.ts`): `code` is `basket.<KEY>` for the catalogue's
 * refusals and the framework's code otherwise (`PARSE`); the request id travels only in the
 * `X-Request-ID` header.
 */
export const basketErrorBodySchema = z.object({
  success: z.literal(false),
  status: z.literal('error'),
  error: z.string(),
  message: z.string(),
  code: z.string(),
  /** True for 408, 425, 429 and 5xx. */
  retryable: z.boolean(),
  why: z.string().optional(),
  fix: z.string().optional(),
  /** Schema problems (`basket.INVALID_EVENT_SCHEMA`), at most `MAX_ERROR_DETAILS`. */
  errors: z.array(basketIssueSchema).max(MAX_ERROR_DETAILS).optional(),
});

/** A refusal of an ingestion route in the live envelope. */
export type BasketErrorBody = z.infer<typeof basketErrorBodySchema>;
