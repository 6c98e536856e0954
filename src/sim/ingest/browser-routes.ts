import type { z } from 'zod';
import {
  analyticsEventSchema,
  batchResponseSchema,
  clientIdQuerySchema,
  INGEST_BATCH_MAX,
  ingestBatchBodySchema,
  ingestEventBodySchema,
  outgoingLinkSchema,
  singleEventResponseSchema,
  type AnalyticsEvent,
  type OutgoingLink,
} from '../../contract/ingest-events.js';
import { SPAN_FUTURE_MESSAGE } from '../../contract/ingest-spans.js';
import { MAX_EVENT_FUTURE_MS } from '../../contract/track.js';
import { basketError, type BasketIssue, type SimError } from '../errors.js';
import { NO_CONTENT, ok, type RouteContext } from '../routing/route.js';
import { defineIngestRoute } from './ingest-route.js';
import { AI_AGENT_HITS } from './ai-agent-hits.js';
import { warnMissingUserAgent } from './bots.js';
import { matchAiAgent } from '../model/derived/ai-crawlers.js';
import { authenticateSender, BOT_IGNORED, clientIdRefusals, type ClientIdentity, type ClientIdQuery, type ClientSender } from './client-id-auth.js';
import { asIngestEnvelope, basketIssuesOf } from './basket-envelope.js';
import { ingestPart } from './ingest-ledger.js';
import {
  countryOf,
  OUTGOING_LINKS,
  PAGE_EVENTS,
  toOutgoingLinkRecord,
  toPageEventRecord,
  type OutgoingLinkRecord,
  type PageEventRecord,
} from './page-events.js';

/**
 * The browser tracker's main routes: `POST /batch` (its queue of page views, page exits and
 * other named events, and the unload beacon) and `POST /` (one event: outgoing-link clicks, or
 * every event of a tracker with batching off). Client-id authentication; page events go to the
 * ledger's `page_event` kind (the query families count them as sessions and page views beside
 * the generated traffic), link clicks to `outgoing_link`.
 */

/** One item's outcome in a `/batch` answer. */
type ItemResult = z.infer<typeof batchResponseSchema>['results'][number];

/** What one item turned into: a record to store (not yet stored), or its failure. */
type ItemOutcome =
  | { readonly ok: true; readonly type: 'track' | 'outgoing_link'; readonly eventId: string; readonly record: PageEventRecord | OutgoingLinkRecord; readonly dedupKey: string }
  | { readonly ok: false; readonly result: ItemResult; readonly error: SimError };

/** The event time of an item: its timestamp when it has a number, else the arrival instant. */
function timeOf(timestamp: number | null | undefined, now: number): number {
  return typeof timestamp === 'number' ? timestamp : now;
}

/** A schema failure of one item. */
function schemaFailure(issues: readonly BasketIssue[], eventType: string, eventId: string | undefined): ItemOutcome {
  return {
    ok: false,
    result: {
      status: 'error',
      message: 'Invalid event schema',
      code: 'INVALID_EVENT_SCHEMA',
      errors: [...issues],
      eventType,
      ...(eventId !== undefined ? { eventId } : {}),
    },
    error: basketError('INVALID_EVENT_SCHEMA', issues),
  };
}

const stringField = (item: unknown, name: string): string | undefined => {
  const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/** The schema and record maker of each item type `/batch` and `/` accept. */
const ITEM_TYPES = {
  track: {
    schema: analyticsEventSchema,
    record: (ctx: RouteContext<ClientIdQuery>, client: ClientIdentity, event: AnalyticsEvent, time: number, country: string) =>
      toPageEventRecord(ctx.state.world.seed, ctx.state.ingested, ctx.state.dictionaries, event, time, client, country),
  },
  outgoing_link: {
    schema: outgoingLinkSchema,
    record: (ctx: RouteContext<ClientIdQuery>, client: ClientIdentity, link: OutgoingLink, time: number, country: string) =>
      toOutgoingLinkRecord(ctx.state.world.seed, ctx.state.ingested, client.website.id, link, time, country),
  },
} as const;

/**
 * Issues for an item's times more than an hour after the receiver's clock (`timestamp`, and a
 * page view's `sessionStartTime`), in the service's words; the lower bound, 2000-01-01, is the
 * schema's.
 */
function futureTimeIssues(value: { readonly timestamp?: number | null; readonly sessionStartTime?: number | null }, now: number): BasketIssue[] {
  const issues: BasketIssue[] = [];
  for (const field of ['timestamp', 'sessionStartTime'] as const) {
    const time = value[field];
    if (typeof time === 'number' && time > now + MAX_EVENT_FUTURE_MS) issues.push({ code: 'custom', field, message: SPAN_FUTURE_MESSAGE });
  }
  return issues;
}

/** Validates one item and makes its record, without storing it. */
function readItem(ctx: RouteContext<ClientIdQuery>, client: ClientIdentity, item: unknown, country: string): ItemOutcome {
  const type = item !== null && typeof item === 'object' && !Array.isArray(item) ? ((item as Record<string, unknown>).type ?? 'track') : 'track';
  if (type !== 'track' && type !== 'outgoing_link') {
    const eventType = typeof type === 'string' ? type.slice(0, 64) : typeof type;
    return { ok: false, result: { status: 'error', message: 'Unknown event type', eventType }, error: basketError('INGEST_UNKNOWN_EVENT_TYPE') };
  }
  const spec = ITEM_TYPES[type];
  const parsed = spec.schema.safeParse(item);
  if (!parsed.success) return schemaFailure(basketIssuesOf(parsed.error.issues), type, stringField(item, 'eventId'));
  const value = parsed.data;
  const late = futureTimeIssues(value, ctx.now);
  if (late.length > 0) return schemaFailure(late, type, value.eventId);
  const time = timeOf(value.timestamp, ctx.now);
  const record = type === 'track' ? ITEM_TYPES.track.record(ctx, client, value as AnalyticsEvent, time, country) : ITEM_TYPES.outgoing_link.record(ctx, client, value as OutgoingLink, time, country);
  return { ok: true, type, eventId: value.eventId, record, dedupKey: `${client.website.id}\u0000${type}\u0000${value.eventId}` };
}

/**
 * Stores the accepted items of a request, skipping duplicates (an event id the website already
 * sent for that type: dropped silently, still a success, as the service does). All or nothing:
 * when the ledger is full, nothing is stored and no event id is claimed.
 */
function storeItems(ctx: RouteContext<ClientIdQuery>, websiteId: string, accepted: readonly Extract<ItemOutcome, { ok: true }>[]): SimError | null {
  const ledger = ctx.state.ingested;
  const fresh = new Set<string>();
  const pages: PageEventRecord[] = [];
  const links: OutgoingLinkRecord[] = [];
  for (const item of accepted) {
    if (ledger.hasEventId(item.dedupKey) || fresh.has(item.dedupKey)) continue;
    fresh.add(item.dedupKey);
    if (item.type === 'track') pages.push(item.record as PageEventRecord);
    else links.push(item.record as OutgoingLinkRecord);
  }
  if (!ledger.appendAll([ingestPart(PAGE_EVENTS, websiteId, pages), ingestPart(OUTGOING_LINKS, websiteId, links)]).ok) return basketError('DELIVERY_UNAVAILABLE');
  for (const key of fresh) ledger.claimEventId(key);
  return null;
}

/**
 * What the service keeps of an AI crawler's page views (`recordAiPageView`): each `screen_view`
 * item becomes an AI-traffic request of the agent (source `tracker`, format html, at the arrival
 * instant), and no analytics row. Bounded by the items' count; a full ledger drops them.
 */
export function recordAiPageViews(ctx: RouteContext<ClientIdQuery>, client: ClientIdentity, items: readonly unknown[]): void {
  const agent = matchAiAgent(client.userAgent);
  if (!agent) return;
  const hits = [];
  for (const item of items) {
    if (stringField(item, 'name') !== 'screen_view') continue;
    const url = stringField(item, 'path') ?? '';
    let path = '/';
    let host = client.website.domain;
    try {
      const parsed = new URL(url);
      path = parsed.pathname;
      host = parsed.host;
    } catch {
      // Not a URL: the website's root, as the service keeps an unreadable path.
    }
    const referrer = stringField(item, 'referrer') ?? '';
    hits.push({ timestamp: ctx.now, agent, path: path.slice(0, 2048), format: 'html' as const, host: host.slice(0, 253), userAgent: client.userAgent.slice(0, 512), accept: '', referrer: referrer.slice(0, 2048) });
  }
  if (hits.length > 0) ctx.state.ingested.append(AI_AGENT_HITS, client.website.id, hits);
}

/** The browser tracker's page-view routes (observed: live-ingestion §2.1, §2.2). */
export const browserRoutes = [
  defineIngestRoute<unknown[], ClientSender, undefined, ClientIdQuery>({
    method: 'POST',
    path: '/batch',
    summary: `The browser tracker's queue: up to ${INGEST_BATCH_MAX} page views, page exits, named events and outgoing-link clicks, each validated and answered on its own (client id in ?client_id= or databuddy-client-id). Feeds the page, session, traffic, device and geo types and outbound_links.`,
    query: clientIdQuerySchema,
    body: ingestBatchBodySchema,
    bodyError: () => basketError('INGEST_BATCH_NOT_ARRAY'),
    shapeRefusal: (error) => asIngestEnvelope(error),
    responses: {
      200: { description: 'Each item’s outcome in `results` (status success, partial or error: still HTTP 200 when every item failed)', schema: batchResponseSchema },
      ...clientIdRefusals(`a body that is not an array (basket.INGEST_BATCH_NOT_ARRAY), more than ${INGEST_BATCH_MAX} items (basket.INGEST_BATCH_TOO_LARGE)`),
    },
    authorize: (ctx) => authenticateSender(ctx),
    validate(_ctx, body) {
      return body.length > INGEST_BATCH_MAX ? basketError('INGEST_BATCH_TOO_LARGE') : undefined;
    },
    handle(ctx, body, access) {
      warnMissingUserAgent(ctx, access.missingUserAgent);
      const country = countryOf(ctx.request.headers);
      if (access.aiCrawler) recordAiPageViews(ctx, access.client, body);
      const outcomes: ItemOutcome[] = access.bot ? [] : body.map((item) => readItem(ctx, access.client, item, country));
      const accepted = outcomes.filter((o): o is Extract<ItemOutcome, { ok: true }> => o.ok);
      const failed = storeItems(ctx, access.client.website.id, accepted);
      if (failed) return failed;
      const results: ItemResult[] = access.bot
        ? body.map((item) => ({ status: 'error', message: 'Bot detected', eventType: stringField(item, 'type') ?? 'track', error: 'ignored' }))
        : outcomes.map((o) => (o.ok ? { status: 'success', type: o.type, eventId: o.eventId } : o.result));
      const successes = accepted.length;
      return ok({
        status: successes === body.length && body.length > 0 ? 'success' : successes === 0 ? 'error' : 'partial',
        batch: true,
        processed: body.length,
        batched: {
          track: accepted.filter((o) => o.type === 'track').length,
          outgoing_link: accepted.filter((o) => o.type === 'outgoing_link').length,
        },
        results,
      });
    },
  }),
  defineIngestRoute<Record<string, unknown>, ClientSender, undefined, ClientIdQuery>({
    method: 'POST',
    path: '/',
    summary:
      'One tracker event: an outgoing-link click (type outgoing_link), or a page view or named event of a tracker with batching off (client id in ?client_id= or databuddy-client-id). Feeds outbound_links, or the page and session types.',
    query: clientIdQuerySchema,
    body: ingestEventBodySchema,
    bodyError: (details) => basketError('INVALID_EVENT_SCHEMA', details.map((d) => ({ code: 'invalid_type', field: '', message: d.message }))),
    shapeRefusal: (error) => asIngestEnvelope(error),
    responses: {
      200: { description: 'The event was accepted (a duplicate event id is accepted and not stored twice)', schema: singleEventResponseSchema },
      204: BOT_IGNORED,
      ...clientIdRefusals('a type other than track or outgoing_link (basket.INGEST_UNKNOWN_EVENT_TYPE), an event that fails its schema (basket.INVALID_EVENT_SCHEMA, errors[] names the fields)'),
    },
    authorize: (ctx) => authenticateSender(ctx),
    handle(ctx, body, access) {
      warnMissingUserAgent(ctx, access.missingUserAgent);
      if (access.aiCrawler) recordAiPageViews(ctx, access.client, [body]);
      if (access.bot) return NO_CONTENT;
      const outcome = readItem(ctx, access.client, body, countryOf(ctx.request.headers));
      if (!outcome.ok) return outcome.error;
      const failed = storeItems(ctx, access.client.website.id, [outcome]);
      return failed ?? ok({ status: 'success', type: outcome.type });
    },
  }),
];
