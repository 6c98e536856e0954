import { z } from 'zod';
import { MAX_ERROR_DETAILS } from './request-limits.js';

/** Every error code the simulator sends, with its HTTP status. */
export const ERROR_STATUS = {
  AUTH_REQUIRED: 401,
  ACCESS_DENIED: 403,
  FORBIDDEN: 403,
  VALIDATION_ERROR: 400,
  VALIDATION: 422,
  PARSE: 400,
  PAYLOAD_TOO_LARGE: 413,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MISSING_PROJECT_ID: 400,
  COMPILATION_ERROR: 400,
  CONFLICT: 409,
  /** A query type needs a plan feature the website's organization lacks (error tracking on the free plan). */
  FEATURE_UNAVAILABLE: 402,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
  /** `/track`: an event does not have the accepted shape; `details` name the fields. */
  INVALID_EVENT_SCHEMA: 400,
  /** `/track`: the simulator's event storage is full; nothing of the request was stored. */
  EVENT_STORAGE_FULL: 503,
  /** The HTTP server could not read the request line or headers (sent before the simulator sees it). */
  BAD_REQUEST: 400,
  /** The request's headers are larger than the HTTP server reads. */
  HEADERS_TOO_LARGE: 431,
  /** The request did not arrive whole within the HTTP server's request timeout. */
  REQUEST_TIMEOUT: 408,
  /** The request's `Expect` header asks for something the HTTP server does not do (anything but `100-continue`). */
  EXPECTATION_FAILED: 417,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Codes only the `node:http` server sends, for requests its HTTP parser refuses before the
 * simulator sees them (MSW and express never produce them).
 */
export const SERVER_ONLY_ERROR_CODES: readonly ErrorCode[] = ['BAD_REQUEST', 'HEADERS_TOO_LARGE', 'REQUEST_TIMEOUT', 'EXPECTATION_FAILED'];

/** One problem found in a request: where, what, and (when there is one) a likely fix. */
export const errorDetailSchema = z.object({
  field: z.string(),
  message: z.string(),
  suggestion: z.string().optional(),
});

export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The error body of SPEC 7.1, with the optional `details` and `hint` the service adds (and `detailsTotal`, the simulator's). */
export const errorBodySchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string(),
  requestId: z.string(),
  /** At most `MAX_ERROR_DETAILS` (20) problems, the first found. */
  details: z.array(errorDetailSchema).max(MAX_ERROR_DETAILS).optional(),
  /** How many problems were found, present only when `details` lists fewer than that. */
  detailsTotal: z.number().int().optional(),
  hint: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The 429 body of SPEC 8.4: the error body plus the window's numbers. */
export const rateLimitBodySchema = errorBodySchema.extend({
  code: z.literal('RATE_LIMITED'),
  limit: z.number().int(),
  remaining: z.number().int(),
  /** Unix epoch milliseconds when the next slot frees. */
  reset: z.number().int(),
  /** Seconds to wait. */
  retryAfter: z.number().int(),
});

export type RateLimitBody = z.infer<typeof rateLimitBodySchema>;

/**
 * The live ingestion service's error envelope (`basket.<KEY>` codes): the body of every refusal
 * of the ingestion routes but `/track` under the spec profile. `requestId` repeats the
 * `X-Request-ID` response header.
 */
export const basketErrorBodySchema = z.object({
  success: z.literal(false),
  status: z.literal('error'),
  error: z.string(),
  message: z.string(),
  /** `basket.<KEY>` for the catalogue's refusals. */
  code: z.string(),
  /** True for 408, 425, 429 and 5xx. */
  retryable: z.boolean(),
  /** The request's id, the same as the X-Request-ID response header. */
  requestId: z.string(),
  why: z.string().optional(),
  fix: z.string().optional(),
  /** Schema problems: the zod issue code, the path joined with dots, the message. */
  errors: z.array(z.object({ code: z.string(), field: z.string(), message: z.string() })).max(MAX_ERROR_DETAILS).optional(),
});

export type BasketErrorBody = z.infer<typeof basketErrorBodySchema>;
