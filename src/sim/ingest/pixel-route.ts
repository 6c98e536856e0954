import { z } from 'zod';
import { analyticsEventSchema, outgoingLinkSchema, type AnalyticsEvent } from '../../contract/ingest-events.js';
import { eventTimeInWindow } from '../../contract/track.js';
import { basketError, type SimError } from '../errors.js';
import type { Reply, RouteContext } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { classifyUserAgent, missingUserAgent, warnMissingUserAgent } from './bots.js';
import { recordAiPageViews } from './browser-routes.js';
import { authenticateClientId, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { ingestPart } from './ingest-ledger.js';
import { ERRORS_INTAKE } from './errors-route.js';
import { checkSpans, storeCheckedSpans, type SpanIntake } from './span-intake.js';
import type { SpanRecord } from './span-kinds.js';
import { VITALS_INTAKE } from './vitals-route.js';
import { countryOf, OUTGOING_LINKS, PAGE_EVENTS, toOutgoingLinkRecord, toPageEventRecord } from './page-events.js';

/**
 * `GET /px.jpg`, the tracker's pixel transport (`usePixel`): one image request per event, its
 * fields flattened into the query string (`key[sub]` for a nested key, objects as JSON text,
 * numbers and booleans as their text), plus `type`, `client_id`, `sdk_name` and `sdk_version`.
 *
 * As on the service: `track` items are stored without a schema check (a field the JSON routes
 * would refuse is kept as sent, and the simulator says so in a `Warning`), other types are
 * validated and an invalid one is dropped; every answer the tracker cannot retry (success, a
 * bot, an unknown client id) is the 1×1 GIF with HTTP 200, and only a retryable failure (429,
 * 5xx) answers its status, with an empty body and `Retry-After: 5`.
 */

/** The transparent 1×1 GIF the service answers with. */
const PIXEL_GIF = Uint8Array.from([
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00,
  0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
]);

const GIF_HEADERS = { 'Cache-Control': 'no-cache, no-store, must-revalidate', Pragma: 'no-cache', Expires: '0' } as const;

/** The pixel's answer for anything the tracker should not retry. */
function gif(): Reply {
  return { reply: true, status: 200, body: undefined, text: '', bytes: PIXEL_GIF, contentType: 'image/gif', headers: { ...GIF_HEADERS } };
}

/** A refusal as the pixel answers it: the GIF when not retryable, else its status with an empty body. */
function pixelRefusal(error: SimError): Reply {
  const retryable = error.status === 408 || error.status === 425 || error.status === 429 || error.status >= 500;
  if (!retryable) return gif();
  return { reply: true, status: error.status, body: undefined, text: '', contentType: 'text/plain; charset=utf-8', headers: { 'Retry-After': '5' } };
}

/** Parameters that are the transport's, not the event's. */
const TRANSPORT_FIELDS = new Set(['client_id', 'sdk_name', 'sdk_version']);

/** Most event fields read from one pixel request. */
const MAX_PIXEL_FIELDS = 100;

/** A flattened value back as the tracker had it: JSON objects, numbers and booleans from their text. */
function unflattenValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(?:\.\d+)?$/.test(text) && text.length <= 20) return Number(text);
  if ((text.startsWith('{') && text.endsWith('}')) || (text.startsWith('[') && text.endsWith(']'))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The event a pixel request carries: its fields unflattened (`key[sub]` → `{key: {sub}}`, one level). */
export function pixelEvent(query: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const event: Record<string, unknown> = {};
  let fields = 0;
  for (const name in query) {
    const value = query[name];
    if (TRANSPORT_FIELDS.has(name) || typeof value !== 'string') continue;
    if (++fields > MAX_PIXEL_FIELDS) break;
    const nested = /^([^[\]]{1,128})\[([^[\]]{1,128})\]$/.exec(name);
    if (nested) {
      const [, outer, inner] = nested as unknown as [string, string, string];
      const holder = event[outer];
      const target = holder !== null && typeof holder === 'object' && !Array.isArray(holder) ? (holder as Record<string, unknown>) : {};
      target[inner] = unflattenValue(value);
      event[outer] = target;
    } else {
      event[name] = unflattenValue(value);
    }
  }
  return event;
}

const asText = (value: unknown, max: number): string | undefined => (typeof value === 'string' ? value.slice(0, max) : typeof value === 'number' ? String(value) : undefined);

/** A track item read as the service's unchecked insert reads it: what has the right type is kept, the rest is empty. */
function uncheckedTrackEvent(item: Record<string, unknown>): AnalyticsEvent {
  const parsed = analyticsEventSchema.safeParse(item);
  if (parsed.success) return parsed.data;
  const text = (name: string, max: number): string | null => asText(item[name], max) ?? null;
  const count = (name: string): number | null => (typeof item[name] === 'number' && Number.isFinite(item[name]) ? Math.max(0, item[name] as number) : null);
  return {
    eventId: text('eventId', 512) ?? '',
    name: text('name', 128) ?? '',
    path: text('path', 2048) ?? '',
    anonymousId: text('anonymousId', 128),
    sessionId: text('sessionId', 128),
    profileId: text('profileId', 128),
    timestamp: typeof item.timestamp === 'number' && Number.isSafeInteger(item.timestamp) ? item.timestamp : null,
    referrer: text('referrer', 2048),
    title: text('title', 512),
    language: text('language', 35),
    timezone: text('timezone', 64),
    screen_resolution: text('screen_resolution', 11),
    viewport_size: text('viewport_size', 11),
    utm_source: text('utm_source', 128),
    utm_medium: text('utm_medium', 128),
    utm_campaign: text('utm_campaign', 128),
    utm_term: text('utm_term', 128),
    utm_content: text('utm_content', 128),
    time_on_page: count('time_on_page'),
    scroll_depth: count('scroll_depth'),
    interaction_count: count('interaction_count'),
  };
}

/** Stores one pixel event of a span kind (web_vitals, error), checked as a list of one; an invalid one is dropped, as the service drops it. */
function storeSpanEvent<T, R extends SpanRecord>(ctx: RouteContext<ClientIdQuery>, intake: SpanIntake<T, R>, item: Record<string, unknown>, client: ClientIdentity): SimError | null {
  const checked = checkSpans(ctx, [item], intake.body, client);
  if (!('code' in checked)) return storeCheckedSpans(ctx, intake, client, checked.spans);
  ctx.warn({ field: 'query', message: `An invalid ${intake.type} pixel event was dropped, as the service drops it (answered with the GIF)` });
  return null;
}

/** Stores one pixel event; a refusal when storage is full. */
function storePixelEvent(ctx: RouteContext<ClientIdQuery>, websiteId: string, item: Record<string, unknown>, client: ClientIdentity): SimError | null {
  const type = item.type ?? 'track';
  const ledger = ctx.state.ingested;
  const seed = ctx.state.world.seed;
  const country = countryOf(ctx.request.headers);
  if (type === 'track') {
    const event = uncheckedTrackEvent(item);
    if (!analyticsEventSchema.safeParse(item).success) {
      ctx.warn({ field: 'query', message: 'This pixel event would fail the schema of POST /batch; the service stores pixel track events unchecked, and so did the simulator' });
    }
    const time = typeof event.timestamp === 'number' && eventTimeInWindow(event.timestamp, ctx.now) ? event.timestamp : ctx.now;
    const key = `${websiteId}\u0000track\u0000${event.eventId}`;
    if (event.eventId !== '' && ledger.hasEventId(key)) return null;
    const record = toPageEventRecord(seed, ledger, ctx.state.dictionaries, event, time, client, country);
    if (!ledger.appendAll([ingestPart(PAGE_EVENTS, websiteId, [record])]).ok) return basketError('DELIVERY_UNAVAILABLE');
    if (event.eventId !== '') ledger.claimEventId(key);
    return null;
  }
  if (type === 'outgoing_link') {
    const parsed = outgoingLinkSchema.safeParse(item);
    if (!parsed.success) {
      ctx.warn({ field: 'query', message: 'An invalid outgoing_link pixel event was dropped, as the service drops it (answered with the GIF)' });
      return null;
    }
    const link = parsed.data;
    const time = typeof link.timestamp === 'number' && eventTimeInWindow(link.timestamp, ctx.now) ? link.timestamp : ctx.now;
    const key = `${websiteId}\u0000outgoing_link\u0000${link.eventId}`;
    if (ledger.hasEventId(key)) return null;
    const record = toOutgoingLinkRecord(seed, ledger, websiteId, link, time, country);
    if (!ledger.appendAll([ingestPart(OUTGOING_LINKS, websiteId, [record])]).ok) return basketError('DELIVERY_UNAVAILABLE');
    ledger.claimEventId(key);
    return null;
  }
  if (type === VITALS_INTAKE.type) return storeSpanEvent(ctx, VITALS_INTAKE, item, client);
  if (type === ERRORS_INTAKE.type) return storeSpanEvent(ctx, ERRORS_INTAKE, item, client);
  ctx.warn({ field: 'type', message: `Pixel events of type ${String(type).slice(0, 32)} are not an event type of the service and were dropped (answered with the GIF)` });
  return null;
}

/** The pixel transport (observed: live-ingestion §2.6). */
export const pixelRoutes = [
  defineIngestRoute<undefined, undefined, undefined, ClientIdQuery>({
    method: 'GET',
    path: '/px.jpg',
    effects: 'state',
    openQuery: true,
    summary:
      'The tracker’s pixel transport: one event per image request, its fields flattened into the query string (type track, outgoing_link, web_vitals or error; client_id). Answers a 1×1 GIF; only a retryable failure answers its status with an empty body.',
    query: z.object({
      client_id: z.string().optional().describe('The website id (else the databuddy-client-id header)'),
      type: z.string().optional().describe('track (default), outgoing_link, web_vitals or error'),
    }),
    responses: {
      200: { description: 'The 1×1 transparent GIF: the event was stored, or was not and cannot be retried (a bot, an unknown client id, an invalid event)', contentType: 'image/gif' },
      429: { description: 'Retryable: empty body, Retry-After: 5' },
      503: { description: 'Retryable (the simulator’s ingestion storage is full): empty body, Retry-After: 5' },
    },
    handle(ctx) {
      const client = authenticateClientId(ctx);
      if ('code' in client) return pixelRefusal(client);
      const event = pixelEvent(ctx.query as Readonly<Record<string, unknown>>);
      const verdict = classifyUserAgent(client.userAgent, ctx.profile);
      warnMissingUserAgent(ctx, missingUserAgent(verdict));
      if (verdict.action === 'track_only' && (event.type ?? 'track') === 'track') recordAiPageViews(ctx, client, [event]);
      if (verdict.action !== 'allow') return gif();
      const refused = storePixelEvent(ctx, client.website.id, event, client);
      return refused ? pixelRefusal(refused) : gif();
    },
  }),
];

