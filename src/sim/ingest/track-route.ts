import { formatIso } from '../text.js';
import { errorBodySchema, rateLimitBodySchema, type ErrorDetail } from '../../contract/errors.js';
import {
  eventTimeInWindow,
  eventTimeOf,
  MAX_EVENT_FUTURE_MS,
  MIN_EVENT_TIMESTAMP,
  PROPERTY_LIMITS,
  TRACK_BATCH_MAX,
  trackBodySchema,
  trackQuerySchema,
  trackResponseSchema,
  type TrackBody,
  type TrackEvent,
} from '../../contract/track.js';
import { ingestRule } from '../admission/rules.js';
import {
  accessDenied,
  authRequired,
  basketError,
  eventStorageFull,
  invalidEventSchema,
  notFound,
  type BasketErrorKey,
  type SimError,
} from '../errors.js';
import { followsLive } from '../profile.js';
import { truncate } from '../text.js';
import type { ApiKeyRecord, Website } from '../model/entities.js';
import { NO_CONTENT, ok, type RouteContext } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { createBasketEnvelope } from './basket-envelope.js';
import { classifyUserAgent, missingUserAgent, warnMissingUserAgent, type MissingUserAgent } from './bots.js';
import { isIpAllowed, isOriginAllowed } from './client-id-auth.js';
import type { TrackedEvent } from './event-store.js';

/** Who sends the events: an API key with track:events, or (without a usable key) a website. */
type Sender =
  | { readonly kind: 'key'; readonly key: ApiKeyRecord; readonly ip: string }
  | { readonly kind: 'website'; readonly website: Website; readonly ip: string };

/** What `authorize` found: the sender, the events with their times, and whether a bot sent them. */
interface TrackAccess {
  readonly sender: Sender;
  readonly events: readonly TrackEvent[];
  /** Event times, epoch ms (the arrival instant for events without a timestamp). */
  readonly times: readonly number[];
  readonly bot: boolean;
  /** Whether the request had no User-Agent, and whether that blocked it (said in a `Warning`). */
  readonly missingUserAgent: MissingUserAgent;
}

/** Where each event goes. */
interface Target {
  readonly organizationId: string;
  /** Null for an organization-level event. */
  readonly websiteId: string | null;
}

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value.length === 0 ? undefined : value);

const iso = formatIso;

const WITHOUT_KEY =
  'Send an API key with the track:events scope (x-api-key or Authorization: Bearer), or name the website with ?website_id= or websiteId on the first event.';

/** The field name of event `i` in error details: `body.x` for one event, `body[i].x` in a batch. */
function fieldOf(batch: boolean, i: number, name: string): string {
  return batch ? `body[${i}].${name}` : `body.${name}`;
}

/** Event times, or the details of those outside [2000-01-01, now + 1 h]. */
function eventTimes(events: readonly TrackEvent[], batch: boolean, now: number): number[] | SimError {
  const details: ErrorDetail[] = [];
  const times = events.map((event, i) => {
    if (event.timestamp === undefined || event.timestamp === null) return now;
    const ms = eventTimeOf(event.timestamp) as number;
    if (!eventTimeInWindow(ms, now)) {
      details.push({
        field: fieldOf(batch, i, 'timestamp'),
        message: `Timestamp outside accepted range: ${Number.isFinite(new Date(ms).getTime()) ? iso(ms) : String(ms)} is not between ${iso(MIN_EVENT_TIMESTAMP)} and ${iso(now + MAX_EVENT_FUTURE_MS)} (one hour after the receiver's clock)`,
      });
    }
    return ms;
  });
  return details.length > 0 ? invalidEventSchema(details) : times;
}

/** The query string of `/track`. */
type TrackQuery = { readonly website_id?: string | undefined };

/** 403 ACCESS_DENIED "Website scope mismatch", in the service's words. */
function websiteScopeMismatch(hint: string): SimError {
  return accessDenied('website', { message: 'Website scope mismatch', hint });
}

/**
 * Who sends the events: an API key (the pipeline has checked its track:events scope), or,
 * without one (no key, or a malformed, unknown, disabled, revoked or expired key, which count
 * as none), the website named by `?website_id=` or the first event's `websiteId` (401 when
 * neither is given, 404 when the website does not exist).
 */
function resolveSender(ctx: RouteContext<TrackQuery>, events: readonly TrackEvent[]): Sender | SimError {
  const { principal } = ctx;
  if (principal.kind === 'apikey') return { kind: 'key', key: principal.key, ip: principal.ip };
  const websiteId = nonEmpty(ctx.query.website_id) ?? nonEmpty(events[0]?.websiteId);
  if (websiteId === undefined) {
    const problem = principal.kind === 'anonymous' ? principal.problem : null;
    return authRequired(
      problem ? `${problem} Without a usable API key, name the website with ?website_id= or websiteId on the first event.` : WITHOUT_KEY,
      { message: 'API key or website_id required' },
    );
  }
  const website = ctx.state.websites.get(websiteId);
  if (!website || (website.status ?? 'ACTIVE') !== 'ACTIVE') return notFound({ kind: 'Website', id: websiteId });
  // Without a key the service checks a present Origin, and the client IP, against the website's settings.
  const origin = ctx.request.headers.origin;
  if (origin !== undefined && !isOriginAllowed(origin, website)) {
    return followsLive(ctx.profile, 'track-errors')
      ? basketError('INGEST_ORIGIN_NOT_AUTHORIZED')
      : accessDenied('website', { message: 'Origin not authorized', hint: `Origin ${truncate(origin, 100)} is neither ${website.domain} (or a subdomain) nor among the website's allowed origins.` });
  }
  if ((website.allowedIps?.length ?? 0) > 0 && !isIpAllowed(principal.ip, website.allowedIps ?? [])) {
    return followsLive(ctx.profile, 'track-errors')
      ? basketError('INGEST_IP_NOT_AUTHORIZED')
      : accessDenied('website', { message: 'IP address not authorized', hint: "The client IP is not among the website's allowed IPs." });
  }
  return { kind: 'website', website, ip: principal.ip };
}

/**
 * Where each event goes, or why one may not go there. An event names its website with
 * `websiteId`, else the request's `?website_id=`, else (website identity) the sender's website.
 * A website-restricted key must name one of its websites for every event; a global key may
 * name none (an organization-level event) or any website of its organization. Events sent
 * with a website identity all belong to that website.
 */
function resolveTargets(ctx: RouteContext<TrackQuery>, access: TrackAccess): Target[] | SimError {
  const { sender, events } = access;
  const fromQuery = nonEmpty(ctx.query.website_id);
  const ids = events.map((event) => nonEmpty(event.websiteId) ?? fromQuery ?? (sender.kind === 'website' ? sender.website.id : undefined));
  if (sender.kind === 'website') {
    const i = ids.findIndex((id) => id !== sender.website.id);
    if (i !== -1) {
      return websiteScopeMismatch(
        `Events sent for website ${sender.website.id} (without an API key) can only belong to it; event ${i} names ${truncate(ids[i] ?? '', 100)}.`,
      );
    }
    return ids.map(() => ({ organizationId: sender.website.organizationId, websiteId: sender.website.id }));
  }
  const { key } = sender;
  if (key.websiteIds !== null) {
    const allowed = key.websiteIds;
    const i = ids.findIndex((id) => id === undefined || !allowed.includes(id));
    if (i !== -1) {
      const id = ids[i];
      return websiteScopeMismatch(
        id === undefined
          ? `This API key is restricted to ${allowed.join(', ')}: name one of them in websiteId or ?website_id= (event ${i} names none).`
          : `This API key is restricted to ${allowed.join(', ')} and cannot send events for ${truncate(id, 100)}.`,
      );
    }
  }
  for (const id of new Set(ids)) {
    if (id === undefined) continue;
    const website = ctx.state.websites.get(id);
    if (!website) return notFound({ kind: 'Website', id });
    if (website.organizationId !== key.organizationId) {
      return websiteScopeMismatch(`Website ${truncate(id, 100)} belongs to another organization than this API key.`);
    }
  }
  return ids.map((id) => ({ organizationId: key.organizationId, websiteId: id ?? null }));
}

const PROPERTY_KEY = /^(body(?:\[\d+\])?\.properties)\.(.*)$/s;

/**
 * Schema problems in words a sender can act on: the shape of the whole body, a timestamp of
 * the wrong type, a property name that is too long (named by its owner field, not by itself).
 */
function eventSchemaError(details: readonly ErrorDetail[]): SimError {
  return invalidEventSchema(
    details.map((detail) => {
      if (detail.field === 'body' && detail.message.startsWith('Invalid value')) {
        return { ...detail, message: `Send one event object or an array of at most ${TRACK_BATCH_MAX} events` };
      }
      if (detail.field.endsWith('.timestamp') && detail.message.startsWith('Invalid value')) {
        return { ...detail, message: 'timestamp must be epoch milliseconds (an integer) or an ISO 8601 string' };
      }
      const key = PROPERTY_KEY.exec(detail.field);
      if (key && detail.message === 'Invalid key in record') {
        return { field: key[1] as string, message: `Property name ${truncate(key[2] as string, 40)} is longer than ${PROPERTY_LIMITS.keyLength} characters` };
      }
      return detail;
    }),
  );
}

const orNull = (value: string | undefined): string | null => (value === undefined ? null : value);

/** The live catalogue key of each refusal `/track` can give (`apps/basket/src/lib/structured-errors.ts`). */
const BASKET_KEY_OF: Readonly<Record<string, BasketErrorKey>> = {
  PAYLOAD_TOO_LARGE: 'TRACK_PAYLOAD_TOO_LARGE',
  INVALID_EVENT_SCHEMA: 'INVALID_EVENT_SCHEMA',
  FORBIDDEN: 'TRACK_MISSING_SCOPE',
  AUTH_REQUIRED: 'TRACK_MISSING_CREDENTIALS',
  NOT_FOUND: 'TRACK_WEBSITE_NOT_FOUND',
  ACCESS_DENIED: 'TRACK_WEBSITE_SCOPE_MISMATCH',
  RATE_LIMITED: 'TRACK_RATE_LIMITED',
  EVENT_STORAGE_FULL: 'DELIVERY_UNAVAILABLE',
};

const BODY_FIELD = /^body(?:\[(\d+)\])?(?:\.(.*))?$/s;

/**
 * A detail's field as the live envelope names it: the event's index and the path joined with
 * dots (`body.name` → `0.name`, `body[3].properties` → `3.properties`).
 */
function basketField(field: string): string {
  const match = BODY_FIELD.exec(field);
  if (!match) return field;
  const index = match[1] ?? '0';
  return match[2] === undefined ? index : `${index}.${match[2]}`;
}

/**
 * `track-errors` under `live`: a `/track` refusal in the ingestion service's envelope, with the
 * catalogue's code (`basket.<KEY>`), message, why and fix, and for schema problems
 * `errors:[{code, field, message}]`. A refusal the catalogue has no key for is left as is.
 */
export const asTrackEnvelope: (error: SimError) => SimError = createBasketEnvelope(BASKET_KEY_OF, basketField);

/** A refusal of the route in the envelope the profile uses. */
function refusal(ctx: RouteContext<TrackQuery>, error: SimError): SimError {
  return followsLive(ctx.profile, 'track-errors') ? asTrackEnvelope(error) : error;
}

/** Event ingestion (SPEC 4.7 and 8.3; observed §10). */
export const trackRoutes = [
  defineIngestRoute<TrackBody, TrackAccess, Target[], TrackQuery>({
    method: 'POST',
    path: '/track',
    access: { kind: 'ingest', scope: 'track:events' },
    summary:
      'Send one custom event or a batch of up to 100 (track:events with an API key; or name the website with ?website_id= or websiteId). 600 requests per 60 s per key, or per website and client IP.',
    query: trackQuerySchema,
    body: trackBodySchema,
    bodyError: eventSchemaError,
    shapeRefusal: (error, profile) => (followsLive(profile, 'track-errors') ? asTrackEnvelope(error) : error),
    responses: {
      200: { description: 'Every event was accepted and stored; `count` says how many', schema: trackResponseSchema },
      204: { description: 'The user agent is a bot (crawler, spider, headless browser): nothing is stored, empty body' },
      400: { description: 'Malformed JSON (PARSE) or events that do not have the accepted shape (INVALID_EVENT_SCHEMA, `details` name the fields)', schema: errorBodySchema },
      401: { description: 'No usable API key and no website named (AUTH_REQUIRED "API key or website_id required")', schema: errorBodySchema },
      403: { description: 'The key lacks track:events (FORBIDDEN), an event names a website the credential does not reach (ACCESS_DENIED "Website scope mismatch"), or, without a key, an Origin or client IP the website does not allow (ACCESS_DENIED "Origin not authorized" / "IP address not authorized")', schema: errorBodySchema },
      404: { description: 'The website does not exist (NOT_FOUND "Website not found")', schema: errorBodySchema },
      413: { description: 'The body is over 1 MB (PAYLOAD_TOO_LARGE)', schema: errorBodySchema },
      415: { description: 'A form body (send JSON; text/plain is accepted for beacons)', schema: errorBodySchema },
      429: { description: 'Over 600 requests in 60 s for this key, or this website and client IP (RATE_LIMITED)', schema: rateLimitBodySchema },
      503: { description: 'Admission is unavailable (SERVICE_UNAVAILABLE), or the simulator’s event storage is full (EVENT_STORAGE_FULL)', schema: errorBodySchema },
    },
    authorize(ctx, body) {
      const batch = Array.isArray(body);
      const events: readonly TrackEvent[] = batch ? body : [body];
      const times = eventTimes(events, batch, ctx.now);
      if (!Array.isArray(times)) return refusal(ctx, times);
      const sender = resolveSender(ctx, events);
      if ('code' in sender) return refusal(ctx, sender);
      const verdict = classifyUserAgent(ctx.request.headers['user-agent'], ctx.profile);
      return { sender, events, times, bot: verdict.action !== 'allow', missingUserAgent: missingUserAgent(verdict) };
    },
    windowRule(access) {
      if (access.bot) return null;
      const { sender } = access;
      return sender.kind === 'key' ? ingestRule(sender.key.id, null, sender.ip) : ingestRule(null, sender.website.id, sender.ip);
    },
    validate(ctx, _body, access) {
      if (access.bot) return [];
      const targets = resolveTargets(ctx, access);
      return Array.isArray(targets) ? targets : refusal(ctx, targets);
    },
    handle(ctx, _body, access, targets) {
      warnMissingUserAgent(ctx, access.missingUserAgent);
      if (access.bot) return NO_CONTENT;
      const stored: TrackedEvent[] = access.events.map((event, i) => {
        const target = targets[i] as Target;
        return {
          organizationId: target.organizationId,
          websiteId: target.websiteId,
          name: event.name,
          timestamp: access.times[i] as number,
          anonymousId: orNull(nonEmpty(event.anonymousId)),
          sessionId: orNull(nonEmpty(event.sessionId)),
          profileId: orNull(nonEmpty(event.profileId)),
          namespace: orNull(event.namespace),
          source: orNull(event.source),
          path: orNull(event.path),
          eventId: orNull(event.eventId),
          propertiesJson: event.properties === undefined ? null : JSON.stringify(event.properties),
          receivedAt: ctx.now,
        };
      });
      const store = ctx.state.trackedEvents;
      const appended = store.append(stored);
      if (!appended.ok) {
        const { maxEvents, maxChars } = store.limits;
        return refusal(ctx, eventStorageFull(
          appended.reason === 'events'
            ? `The simulator keeps at most ${maxEvents} events and holds ${store.size}; these ${stored.length} were not stored. Reset it (POST /__sim/reset) or give it a larger eventStorage.maxEvents.`
            : `The simulator keeps at most ${maxChars} characters of event text; these ${stored.length} events were not stored. Reset it (POST /__sim/reset) or give it a larger eventStorage.maxChars.`,
        ));
      }
      return ok({ status: 'success', type: 'custom_event', count: stored.length });
    },
  }),
];
