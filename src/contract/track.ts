import { z } from 'zod';
import { REQUEST_LIMITS } from './request-limits.js';

/** Most events in one `/track` request (the service's `BATCH_MAX_SIZE`). */
export const TRACK_BATCH_MAX = REQUEST_LIMITS.trackEvents;

/** The earliest accepted event time: 2000-01-01T00:00:00Z. */
export const MIN_EVENT_TIMESTAMP = Date.UTC(2000, 0, 1);

/** How far ahead of the receiver's clock an event time may be: one hour. */
export const MAX_EVENT_FUTURE_MS = 3_600_000;

/** Bounds of `properties`: keys, key length, and the length of its JSON text. */
export const PROPERTY_LIMITS = { keys: 50, keyLength: 128, jsonLength: 32_768 } as const;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant of an event's `timestamp`: an integer of epoch milliseconds, or an ISO 8601
 * date-time with a zone (`2025-06-01T12:00:00Z`, `…+02:00`) or a date (`2025-06-01`, UTC
 * midnight). Null when the value is neither. Local times without a zone are refused: their
 * meaning would depend on the receiver's time zone.
 */
export function eventTimeOf(value: number | string): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (!ISO_DATE_TIME.test(value) && !ISO_DATE.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** Whether an event time is within [2000-01-01, now + 1 h]. */
export function eventTimeInWindow(ms: number, now: number): boolean {
  return ms >= MIN_EVENT_TIMESTAMP && ms <= now + MAX_EVENT_FUTURE_MS;
}

/** An event time: epoch milliseconds or an ISO 8601 string with a zone (the window is checked against the clock by the route). */
export const timestampSchema = z
  .union([z.number(), z.string()])
  .superRefine((value, ctx) => {
    if (eventTimeOf(value) !== null) return;
    ctx.addIssue({
      code: 'custom',
      message:
        typeof value === 'number'
          ? 'timestamp must be a whole number of epoch milliseconds'
          : 'timestamp must be an ISO 8601 date-time with a zone (2025-06-01T12:00:00Z) or a date (2025-06-01)',
    });
  })
  .describe('Epoch milliseconds (integer) or an ISO 8601 string; within [2000-01-01, now + 1 h]. Null or absent: when the event arrives');

/** Deepest nesting of arrays and objects accepted inside `properties`. */
const MAX_PROPERTY_DEPTH = 32;

/** Whether `value` nests no deeper than `max` levels; iterative, so hostile input cannot overflow the stack. */
function isShallow(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return false;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return true;
}

/** Event `properties`: at most 50 names of at most 128 characters, 32 levels deep, 32,768 characters of JSON. */
export const propertiesSchema = z
  .record(z.string().max(PROPERTY_LIMITS.keyLength, `Property names are at most ${PROPERTY_LIMITS.keyLength} characters`), z.unknown())
  .superRefine((value, ctx) => {
    if (Object.keys(value).length > PROPERTY_LIMITS.keys) {
      ctx.addIssue({ code: 'custom', message: `Too many properties (at most ${PROPERTY_LIMITS.keys})` });
    } else if (!isShallow(value, MAX_PROPERTY_DEPTH)) {
      ctx.addIssue({ code: 'custom', message: `Properties are nested too deeply (at most ${MAX_PROPERTY_DEPTH} levels)` });
    } else if (JSON.stringify(value).length > PROPERTY_LIMITS.jsonLength) {
      ctx.addIssue({ code: 'custom', message: `Properties too large (at most ${PROPERTY_LIMITS.jsonLength} characters of JSON)` });
    }
  });

const bounded = (max: number, field: string) => z.string().max(max, `${field} is at most ${max} characters`);

/**
 * One custom event, as `POST /track` accepts it (observed §10). `name` is the only required
 * field; unknown fields are ignored. Without `anonymousId` (or `sessionId`) the event counts
 * as its own user (or session) in the custom-event queries.
 */
export const trackEventSchema = z.object({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'name is required' : 'name must be a string') })
    .min(1, 'name is required (1 to 256 characters)').max(256, 'name is at most 256 characters'),
  namespace: bounded(64, 'namespace').optional(),
  source: bounded(64, 'source').optional(),
  timestamp: timestampSchema.nullable().optional(),
  properties: propertiesSchema.optional(),
  anonymousId: bounded(256, 'anonymousId').optional(),
  sessionId: bounded(256, 'sessionId').optional(),
  profileId: bounded(256, 'profileId').optional(),
  anonymizeVisitorIds: z.union([z.boolean(), z.literal('auto')]).optional(),
  websiteId: bounded(255, 'websiteId').optional().describe('The website the event belongs to; default the request’s website_id'),
  path: bounded(2048, 'path').optional(),
  eventId: bounded(512, 'eventId').optional(),
});

export type TrackEvent = z.infer<typeof trackEventSchema>;

/** A batch: up to 100 events in one request. */
export const trackBatchSchema = z.array(trackEventSchema).max(TRACK_BATCH_MAX, `A batch holds at most ${TRACK_BATCH_MAX} events`);

/** The body of `POST /track`: one event or a batch. */
export const trackBodySchema = z.union([trackEventSchema, trackBatchSchema]);

export type TrackBody = z.infer<typeof trackBodySchema>;

/** The query string of `POST /track`. */
export const trackQuerySchema = z.object({
  website_id: z.string().optional().describe('The website that sends the events, when no API key is used'),
});

/** The answer to accepted events. */
export const trackResponseSchema = z.object({
  status: z.literal('success'),
  type: z.literal('custom_event'),
  /** Events accepted and stored. */
  count: z.number().int(),
});

export type TrackResponse = z.infer<typeof trackResponseSchema>;
