import { z } from 'zod';
import { MIN_EVENT_TIMESTAMP, propertiesSchema } from './track.js';

/**
 * What the browser tracker sends to `POST /batch` and `POST /`: page views and other named
 * events (`analyticsEventSchema` of the service's `packages/validation`), and outgoing-link
 * clicks (`outgoingLinkSchema`). Unknown fields are stripped, as the service's zod objects do.
 */

/** Most items in one `/batch` request (the service's BATCH_MAX_SIZE). */
export const INGEST_BATCH_MAX = 100;

const bounded = (max: number, field: string) => z.string().max(max, `${field} is at most ${max} characters`);

const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
/** `http(s)://localhost[:port]`, then a path, query or fragment (the service's LOCALHOST_URL_REGEX branch). */
const LOCALHOST_URL = /^https?:\/\/localhost(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** Whether `value` is an http(s) URL whose host is a domain name (zod's domain pattern: no IP address, no bare name). */
function isDomainUrl(value: string): boolean {
  if (!HTTP_URL.test(value)) return false;
  try {
    return z.regexes.domain.test(new URL(value).hostname);
  } catch {
    return false;
  }
}

/**
 * A page URL as `analyticsEventSchema` takes it: http(s) with a domain name, or
 * `http(s)://localhost[:port]/…`. No length cap (the service's `path` and `referrer` have none).
 */
const urlSchema = (field: string) =>
  z
    .string()
    .refine(
      (value) => isDomainUrl(value) || LOCALHOST_URL.test(value),
      `${field} must be an http(s) URL with a domain name (https://example.com/page) or http://localhost:<port>/…`,
    );

/** "WxH" with each side within 240–10000. */
const resolutionSchema = (field: string) =>
  z.string().refine((value) => {
    const m = /^(\d{1,5})x(\d{1,5})$/.exec(value);
    if (!m) return false;
    const w = Number(m[1]);
    const h = Number(m[2]);
    return w >= 240 && w <= 10_000 && h >= 240 && h <= 10_000;
  }, `${field} must be WIDTHxHEIGHT, each side 240 to 10000`);

/** A whole number of at most `max` (no lower bound: the service's schema sets none). */
const intAtMost = (max: number, field: string) => z.number().int(`${field} must be a whole number`).max(max, `${field} is at most ${max}`);
/** A number of at most `max` (no lower bound, as in the service's schema). */
const numberAtMost = (max: number, field: string) => z.number().max(max, `${field} is at most ${max}`);

/**
 * An event time in epoch milliseconds from 2000-01-01, or null (the arrival instant). The upper
 * bound, one hour after the receiver's clock, is the route's: it knows the clock.
 */
const eventTimestampSchema = z
  .number()
  .int('timestamp must be a whole number of epoch milliseconds')
  .gte(MIN_EVENT_TIMESTAMP)
  .nullable()
  .describe('Epoch milliseconds (integer), from 2000-01-01 to one hour after the receiver’s clock; null or absent: the arrival instant');

const anonymizeSchema = z.union([z.boolean(), z.literal('auto')]).nullable();

/** One page view or named event (`type` absent or `track`). */
export const analyticsEventSchema = z.object({
  type: z.literal('track').optional(),
  eventId: bounded(512, 'eventId'),
  name: z.string().min(1, 'name is required (1 to 128 characters)').max(128, 'name is at most 128 characters'),
  path: urlSchema('path'),
  anonymousId: z.string().nullable().optional(),
  anonymizeVisitorIds: anonymizeSchema.optional(),
  profileId: z.string().min(1).max(128, 'profileId is at most 128 characters').nullable().optional(),
  sessionId: z.string().nullable().optional(),
  timestamp: eventTimestampSchema.optional(),
  sessionStartTime: eventTimestampSchema.optional(),
  referrer: z
    .union([z.literal(''), z.literal('direct'), urlSchema('referrer')])
    .nullable()
    .optional(),
  title: bounded(512, 'title').nullable().optional(),
  screen_resolution: resolutionSchema('screen_resolution').nullable().optional(),
  viewport_size: resolutionSchema('viewport_size').nullable().optional(),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'language must be a BCP 47 tag such as en-US')
    .nullable()
    .optional(),
  timezone: bounded(64, 'timezone').nullable().optional(),
  connection_type: z
    .enum(['bluetooth', 'cellular', 'ethernet', 'none', 'wifi', 'wimax', 'other', 'unknown', 'slow-2g', '2g', '3g', '4g'])
    .nullable()
    .optional(),
  rtt: intAtMost(10_000, 'rtt').nullable().optional(),
  downlink: numberAtMost(10_000, 'downlink').nullable().optional(),
  time_on_page: intAtMost(86_400, 'time_on_page').nullable().optional(),
  scroll_depth: numberAtMost(100, 'scroll_depth').nullable().optional(),
  interaction_count: intAtMost(10_000, 'interaction_count').nullable().optional(),
  page_count: intAtMost(1000, 'page_count').nullable().optional(),
  utm_source: bounded(128, 'utm_source').nullable().optional(),
  utm_medium: bounded(128, 'utm_medium').nullable().optional(),
  utm_campaign: bounded(128, 'utm_campaign').nullable().optional(),
  utm_term: bounded(128, 'utm_term').nullable().optional(),
  utm_content: bounded(128, 'utm_content').nullable().optional(),
  gclid: bounded(128, 'gclid').nullable().optional(),
  load_time: numberAtMost(60_000, 'load_time').nullable().optional(),
  dom_ready_time: numberAtMost(60_000, 'dom_ready_time').nullable().optional(),
  dom_interactive: numberAtMost(60_000, 'dom_interactive').nullable().optional(),
  ttfb: numberAtMost(60_000, 'ttfb').nullable().optional(),
  render_time: numberAtMost(60_000, 'render_time').nullable().optional(),
  redirect_time: numberAtMost(60_000, 'redirect_time').nullable().optional(),
  domain_lookup_time: numberAtMost(60_000, 'domain_lookup_time').nullable().optional(),
  href: bounded(2048, 'href').nullable().optional(),
  text: bounded(2048, 'text').nullable().optional(),
  value: bounded(2048, 'value').nullable().optional(),
  properties: propertiesSchema.nullable().optional(),
});

export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;

/** One click on a link to another origin (`type: "outgoing_link"`). */
export const outgoingLinkSchema = z.object({
  type: z.literal('outgoing_link'),
  eventId: bounded(512, 'eventId'),
  href: bounded(2048, 'href'),
  text: bounded(2048, 'text').nullable().optional(),
  anonymousId: z.string().nullable().optional(),
  anonymizeVisitorIds: anonymizeSchema.optional(),
  sessionId: z.string().nullable().optional(),
  timestamp: eventTimestampSchema.optional(),
  properties: propertiesSchema.nullable().optional(),
});

export type OutgoingLink = z.infer<typeof outgoingLinkSchema>;

/** The body of `POST /batch`: an array of events (each validated on its own). */
export const ingestBatchBodySchema = z
  .array(z.unknown())
  .describe(`Up to ${INGEST_BATCH_MAX} items: page views and named events (type absent or "track", analyticsEventSchema) and outgoing-link clicks (type "outgoing_link"); each is validated on its own`);

/** The body of `POST /`: one event. */
export const ingestEventBodySchema = z
  .record(z.string(), z.unknown())
  .describe('One item: a page view or named event (type absent or "track") or an outgoing-link click (type "outgoing_link")');

/** The query string of the client-id routes (one schema, kept in ingest.ts). */
export { clientIdQuerySchema } from './ingest.js';

/** One item's outcome in a `/batch` answer. */
export const batchItemResultSchema = z.object({
  status: z.enum(['success', 'error']),
  type: z.string().optional(),
  eventId: z.string().optional(),
  eventType: z.string().optional(),
  message: z.string().optional(),
  code: z.string().optional(),
  error: z.string().optional(),
  errors: z.array(z.object({ code: z.string(), field: z.string(), message: z.string() })).optional(),
});

/** The answer of `POST /batch` (HTTP 200 even when every item failed). */
export const batchResponseSchema = z.object({
  status: z.enum(['success', 'partial', 'error']),
  batch: z.literal(true),
  processed: z.number().int(),
  batched: z.object({ track: z.number().int(), outgoing_link: z.number().int() }),
  results: z.array(batchItemResultSchema),
});

/** The answer of `POST /` for an accepted event. */
export const singleEventResponseSchema = z.object({
  status: z.literal('success'),
  type: z.enum(['track', 'outgoing_link']),
});
