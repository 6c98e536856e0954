import { z } from 'zod';
import { MIN_EVENT_TIMESTAMP } from './track.js';

/**
 * The span bodies of the browser-facing ingestion routes `POST /vitals`, `POST /errors` and
 * `POST /engagement`, as the live service's `packages/validation` declares them
 * (`individualVitalSchema`, `errorSpanSchema`, `engagementSpanSchema`): an array of spans, each an
 * object whose unknown fields are dropped. The messages are zod's own, which the live envelope
 * lists in `errors[]`. The routes check a body after authenticating its sender, as the service
 * does, so they decode it loosely ({@link documentedAs}) and parse it with these schemas; a
 * timestamp more than an hour after the receiver's clock ({@link SPAN_FUTURE_MESSAGE}) is checked
 * by the route, which knows the clock.
 */

/** Caps of the span routes (the service's `VALIDATION_LIMITS` and route constants). */
export const SPAN_LIMITS = {
  /** Vitals in one `POST /vitals` (live `batchedVitalsSchema`). */
  vitals: 20,
  /** Errors in one `POST /errors` (live `batchedErrorsSchema`). */
  errors: 50,
  /** Spans in one `POST /engagement` (live `batchedEngagementSchema`). */
  engagement: 20,
  /** Bytes of a `POST /errors` body (live `ERRORS_BODY_MAX_BYTES`, checked before authentication). */
  errorsBodyBytes: 131_072,
  eventId: 512,
  path: 2048,
  anonymousId: 128,
  sessionId: 128,
  message: 2048,
  filename: 512,
  lineno: 100_000,
  stack: 4096,
  errorType: 128,
  /** Characters of a click target or form field name kept (longer ones are cut). */
  target: 64,
} as const;

/** The web-vital metrics the tracker reports. */
export const SPAN_VITAL_METRICS = ['FCP', 'LCP', 'CLS', 'INP', 'TTFB', 'FPS'] as const;

/** How an engagement span's page ended. */
export const ENGAGEMENT_EXIT_TYPES = ['navigation', 'spa', 'hidden', 'unload'] as const;

/** The service's words for a timestamp more than an hour after its clock. */
export const SPAN_FUTURE_MESSAGE = 'Timestamp too far in the future (max 1 hour ahead)';

/** An epoch-ms integer from 2000-01-01 (the upper bound, one hour after the clock, is the route's). */
const spanTimestamp = z
  .number()
  .int()
  .gte(MIN_EVENT_TIMESTAMP)
  .describe('Epoch milliseconds (integer), from 2000-01-01 to one hour after the receiver’s clock');

const anonymizeVisitorIds = z.union([z.boolean(), z.literal('auto')]).nullable().optional();
const anonymousId = z.string().max(SPAN_LIMITS.anonymousId).nullable().optional();
const sessionId = z.string().max(SPAN_LIMITS.sessionId).nullable().optional();
const eventId = z.string().max(SPAN_LIMITS.eventId).optional().describe('Delivery id: a repeated one (same website and kind) is dropped silently');
const path = z.string().max(SPAN_LIMITS.path);

/** One web-vital measurement. */
export const individualVitalSchema = z.object({
  eventId,
  timestamp: spanTimestamp.nullable().optional(),
  path,
  metricName: z.enum(SPAN_VITAL_METRICS),
  metricValue: z.number(),
  anonymousId,
  anonymizeVisitorIds,
  sessionId,
});

const lineOrColumn = z.number().int().max(SPAN_LIMITS.lineno).nullable().optional();

/** One JavaScript error. */
export const errorSpanSchema = z.object({
  eventId,
  timestamp: spanTimestamp.nullable().optional(),
  path,
  message: z.string().max(SPAN_LIMITS.message),
  filename: z.string().max(SPAN_LIMITS.filename).nullable().optional(),
  lineno: lineOrColumn,
  colno: lineOrColumn,
  stack: z.string().max(SPAN_LIMITS.stack).nullable().optional(),
  errorType: z.string().max(SPAN_LIMITS.errorType).nullable().optional(),
  anonymousId,
  anonymizeVisitorIds,
  sessionId,
});

const count = z.number().int().min(0).max(65_535);
const target = z.string().transform((value) => value.slice(0, SPAN_LIMITS.target));
const seconds = z.number().int().min(0).max(86_400 * 7);

/** One page's engagement: every field but the ids is required. */
export const engagementSpanSchema = z.object({
  eventId,
  timestamp: spanTimestamp,
  path,
  anonymousId,
  anonymizeVisitorIds,
  sessionId,
  pageIndex: count,
  exitType: z.enum(ENGAGEMENT_EXIT_TYPES),
  timeOnPage: seconds,
  activeTime: seconds,
  timeToFirstInteraction: z.number().int().min(0).max(86_400_000),
  maxScrollDepth: z.number().int().min(0).max(100),
  scrollCount: count,
  clickCount: count,
  keyCount: count,
  interactionCount: count,
  copyCount: count,
  rageClickCount: count,
  deadClickCount: count,
  rageClickTarget: target,
  deadClickTarget: target,
  formFieldCount: count,
  formSubmitCount: count,
  lastFormField: target,
  errorCount: count,
});

/** The body of `POST /vitals`: at most 20 vitals. */
export const vitalsBatchSchema = z.array(individualVitalSchema).max(SPAN_LIMITS.vitals);
/** The body of `POST /errors`: at most 50 errors. */
export const errorsBatchSchema = z.array(errorSpanSchema).max(SPAN_LIMITS.errors);
/** The body of `POST /engagement`: at most 20 spans. */
export const engagementBatchSchema = z.array(engagementSpanSchema).max(SPAN_LIMITS.engagement);

/** A web vital as the route reads it. */
export type IndividualVital = z.output<typeof vitalsBatchSchema>[number];
/** An error span as the route reads it. */
export type ErrorSpan = z.output<typeof errorsBatchSchema>[number];
/** An engagement span as the route reads it (targets cut to 64 characters). */
export type EngagementSpan = z.output<typeof engagementBatchSchema>[number];

/**
 * A body schema that accepts any JSON value and is documented as `schema`: for a route that
 * checks its body itself, after authenticating the sender (the pipeline's body stage runs before
 * authentication). The OpenAPI document shows `schema`'s shape, worked out when a JSON Schema of
 * the body is asked for (zod's per-schema `toJSONSchema` hook), not when the route is declared.
 */
export function documentedAs(schema: z.ZodType): z.ZodType<unknown> {
  const loose = z.unknown();
  loose._zod.toJSONSchema = () => {
    const { $schema: _dialect, ...shape } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return shape;
  };
  return loose;
}

/** The query string of the client-id routes (one schema, kept in ingest.ts). */
export { clientIdQuerySchema } from './ingest.js';

/** The answer to accepted spans: `type` names the kind, `count` the spans in the body (repeated delivery ids included). */
function spanResponseSchema<T extends string>(type: T) {
  return z.object({
    status: z.literal('success'),
    type: z.literal(type),
    count: z.number().int(),
  });
}

/** The answer of `POST /vitals`. */
export const vitalsResponseSchema = spanResponseSchema('web_vitals');
/** The answer of `POST /errors`. */
export const errorsResponseSchema = spanResponseSchema('error');
/** The answer of `POST /engagement` (inferred: the live route's source is not public). */
export const engagementResponseSchema = spanResponseSchema('engagement');
