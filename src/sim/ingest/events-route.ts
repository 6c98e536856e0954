import { clientIdQuerySchema, customEventSpansSchema, type CustomEventSpan } from '../../contract/ingest.js';
import { eventTimeInWindow, MAX_EVENT_FUTURE_MS, MIN_EVENT_TIMESTAMP, trackResponseSchema } from '../../contract/track.js';
import type { ErrorDetail } from '../../contract/errors.js';
import { eventStorageFull, invalidEventSchema } from '../errors.js';
import { NO_CONTENT, ok } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { formatIso } from '../text.js';
import { createBasketEnvelope, INGEST_PIPELINE_KEYS } from './basket-envelope.js';
import { warnMissingUserAgent } from './bots.js';
import { authenticateSender, clientIdRefusals, type ClientIdQuery, type ClientSender } from './client-id-auth.js';
import type { TrackedEvent } from './event-store.js';

const asEventsEnvelope = createBasketEnvelope(INGEST_PIPELINE_KEYS);

const orNull = (value: string | null | undefined): string | null => (value === undefined || value === null || value.length === 0 ? null : value);

/** The details of spans whose timestamp is outside [2000-01-01, now + 1 h]. */
function timeProblems(spans: readonly CustomEventSpan[], now: number): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  spans.forEach((span, i) => {
    if (!eventTimeInWindow(span.timestamp, now)) {
      details.push({
        field: `body[${i}].timestamp`,
        message: `Timestamp outside accepted range: ${span.timestamp} is not between ${formatIso(MIN_EVENT_TIMESTAMP)} and ${formatIso(now + MAX_EVENT_FUTURE_MS)}`,
      });
    }
  });
  return details;
}

/**
 * Lean custom-event spans of the older SDKs (live `apps/basket/src/routes/basket.ts`,
 * `POST /events`): stored with the events of `/track`, so the custom-event query types read both.
 */
export const eventsRoutes = [
  defineIngestRoute<CustomEventSpan[], ClientSender, undefined, ClientIdQuery>({
    method: 'POST',
    path: '/events',
    summary:
      'Send up to 100 lean custom-event spans ({timestamp, path, eventName, …}) with the website’s client id (?client_id= or databuddy-client-id), as older SDKs do; stored with the events of /track. Refusals use the ingestion service’s envelope.',
    query: clientIdQuerySchema,
    body: customEventSpansSchema,
    bodyError: invalidEventSchema,
    shapeRefusal: asEventsEnvelope,
    responses: {
      200: { description: 'Every span was stored; `count` says how many', schema: trackResponseSchema },
      204: { description: 'The user agent is a bot’s: nothing is stored, empty body' },
      ...clientIdRefusals('spans that do not have the accepted shape or time (basket.INVALID_EVENT_SCHEMA)'),
    },
    authorize: (ctx) => authenticateSender(ctx),
    validate(ctx, spans, access) {
      if (access.bot) return undefined;
      const problems = timeProblems(spans, ctx.now);
      return problems.length > 0 ? invalidEventSchema(problems) : undefined;
    },
    handle(ctx, spans, access) {
      warnMissingUserAgent(ctx, access.missingUserAgent);
      if (access.bot) return NO_CONTENT;
      const { website } = access.client;
      const stored: TrackedEvent[] = spans.map((span) => ({
        organizationId: website.organizationId,
        websiteId: website.id,
        name: span.eventName,
        timestamp: span.timestamp,
        anonymousId: orNull(span.anonymousId),
        sessionId: orNull(span.sessionId),
        profileId: orNull(span.profileId),
        namespace: null,
        source: null,
        path: orNull(span.path),
        eventId: orNull(span.eventId),
        propertiesJson: span.properties === undefined || span.properties === null ? null : JSON.stringify(span.properties),
        receivedAt: ctx.now,
      }));
      const store = ctx.state.trackedEvents;
      const appended = store.append(stored);
      if (!appended.ok) {
        return eventStorageFull(`The simulator keeps at most ${store.limits.maxEvents} events (${store.limits.maxChars} characters of event text); these ${stored.length} spans were not stored. Reset it (POST /__sim/reset).`);
      }
      return ok({ status: 'success', type: 'custom_event', count: stored.length });
    },
  }),
];
