import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/errors.js';
import { clientIdQuerySchema } from '../../contract/ingest.js';
import { documentedAs, SPAN_FUTURE_MESSAGE } from '../../contract/ingest-spans.js';
import { MAX_EVENT_FUTURE_MS } from '../../contract/track.js';
import { basketError, type BasketErrorKey, type BasketIssue, type SimError } from '../errors.js';
import type { Website } from '../model/entities.js';
import { findUnknownFields } from '../pipeline/unknown-fields.js';
import { NO_CONTENT, ok, type Route, type RouteContext } from '../routing/route.js';
import { classifyUserAgent, missingUserAgent, warnMissingUserAgent, type MissingUserAgent } from './bots.js';
import { authenticateClientId, BOT_IGNORED, clientIdRefusals, sanitizeText, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { defineIngestRoute } from './ingest-route.js';
import { basketIssuesOf } from './basket-envelope.js';
import { countryOf } from './page-events.js';
import { storedVisitorId } from './visitor-id.js';
import type { IngestKind } from './ingest-ledger.js';
import type { UserAgentClient } from './parse-user-agent.js';
import type { SpanRecord } from './span-kinds.js';
import { groupDigits } from '../text.js';

/**
 * What `POST /vitals`, `/errors` and `/engagement` share (`apps/basket/src/routes/basket.ts`):
 * client-id authentication, then the body's schema, then the bot check (a bot's valid body gets
 * 204 and is not stored), then the spans, de-duplicated by delivery id, into the ingest ledger.
 * Every refusal, the pipeline's included, is written in the service's envelope
 * (`basket.<KEY>`, `errors:[{code, field, message}]` for schema problems).
 */

type Issue = z.core.$ZodIssue;

/** 400 `basket.INVALID_EVENT_SCHEMA` listing the issues. */
export function invalidSpans(issues: readonly BasketIssue[]): SimError {
  return basketError('INVALID_EVENT_SCHEMA', issues);
}

/** The pipeline's refusal of a body too deep or too wide to read, as a schema problem of the whole body. */
export function spanBodyError(details: readonly ErrorDetail[]): SimError {
  return invalidSpans(details.map((d) => ({ code: 'custom', field: '', message: d.message })));
}

/**
 * A refusal of a span route in the service's envelope: a body over the pipeline's 1 MB limit is
 * `tooLarge`; what the catalogue has no key for (malformed JSON, an outage) keeps its own code,
 * as the service's error hook does.
 */
export function asSpanEnvelope(error: SimError, tooLarge: BasketErrorKey): SimError {
  if (error.basket) return error;
  if (error.code === 'PAYLOAD_TOO_LARGE') return basketError(tooLarge);
  return { ...error, basket: {} };
}

/** What the body check found: the spans, and whether a bot sent them (nothing is then stored). */
export interface CheckedSpans<T> {
  readonly spans: readonly T[];
  readonly bot: boolean;
  /** Whether the request had no User-Agent, and whether that blocked it (for the route's `Warning`). */
  readonly missingUserAgent: MissingUserAgent;
}

/** What {@link checkSpans} needs of a route's body: its schema, its cap, and its items' field order. */
export interface SpanBatchShape<T> {
  readonly schema: z.ZodType<T[]>;
  readonly max: number;
  /** The item schema's field names in order: problems are listed item by item, field by field. */
  readonly fields: readonly string[];
}

/** Issues for the timestamps of a list's items that are more than an hour after `now`. */
function futureTimestampIssues(body: readonly unknown[], now: number): Issue[] {
  const issues: Issue[] = [];
  body.forEach((item, i) => {
    if (typeof item !== 'object' || item === null) return;
    const timestamp = (item as { timestamp?: unknown }).timestamp;
    if (typeof timestamp === 'number' && Number.isSafeInteger(timestamp) && timestamp > now + MAX_EVENT_FUTURE_MS) {
      issues.push({ code: 'custom', path: [i, 'timestamp'], message: SPAN_FUTURE_MESSAGE, input: timestamp } as Issue);
    }
  });
  return issues;
}

/** Orders issues item by item, then by the item schema's field order (stable: zod's order within a field). */
function inFieldOrder(issues: Issue[], fields: readonly string[]): Issue[] {
  const item = (issue: Issue): number => (typeof issue.path[0] === 'number' ? issue.path[0] : -1);
  const field = (issue: Issue): number => (typeof issue.path[1] === 'string' ? fields.indexOf(issue.path[1]) : -1);
  return issues.sort((a, b) => item(a) - item(b) || field(a) - field(b));
}

/**
 * Checks a span body after authentication, as the service orders it: an array of at most
 * `max` spans, each of the schema's shape, with timestamps at most an hour after the clock. A list
 * over `max` is refused before its items are read. Fields the schema does not know are dropped,
 * as the service drops them, and named in a `Warning`.
 */
export function checkSpans<T>(ctx: RouteContext<ClientIdQuery>, body: unknown, shape: SpanBatchShape<T>, identity: ClientIdentity): CheckedSpans<T> | SimError {
  if (Array.isArray(body) && body.length > shape.max) {
    return invalidSpans([{ code: 'too_big', field: '', message: `Too big: expected array to have <=${shape.max} items` }]);
  }
  const parsed = shape.schema.safeParse(body);
  const late = Array.isArray(body) ? futureTimestampIssues(body, ctx.now) : [];
  if (!parsed.success || late.length > 0) {
    const issues = parsed.success ? late : late.length === 0 ? [...parsed.error.issues] : inFieldOrder([...parsed.error.issues, ...late], shape.fields);
    return invalidSpans(basketIssuesOf(issues));
  }
  for (const unknown of findUnknownFields(shape.schema, body)) ctx.warn(unknown);
  const verdict = classifyUserAgent(identity.userAgent, ctx.profile);
  return { spans: parsed.data, bot: verdict.action !== 'allow', missingUserAgent: missingUserAgent(verdict) };
}

const SESSION_ID = /^[A-Za-z0-9_-]+$/;

/** A session id as the service keeps it: sanitized, cut to 128, '' unless `[A-Za-z0-9_-]+`. */
export function sanitizeSessionId(value: string | null | undefined): string {
  const id = sanitizeText(value, 128);
  return SESSION_ID.test(id) ? id : '';
}

/** A span's path as kept: the pathname of an absolute http(s) URL, else the path as sent (sanitized). */
export function normalizeSpanPath(value: string): string {
  const path = sanitizeText(value, 2048);
  if (!/^https?:\/\//i.test(path)) return path;
  try {
    return new URL(path).pathname;
  } catch {
    return path;
  }
}

/**
 * The fields every span record has, from the span's own and the request's. The anonymous id is
 * stored as every ingestion route stores it ({@link storedVisitorId}: the day's salt unless the
 * sender opted out), so a span and the page views of its visitor carry the same id.
 */
export function spanBase(
  span: {
    readonly timestamp?: number | null | undefined;
    readonly path: string;
    readonly anonymousId?: string | null | undefined;
    readonly anonymizeVisitorIds?: boolean | 'auto' | null | undefined;
    readonly sessionId?: string | null | undefined;
    readonly eventId?: string | undefined;
  },
  client: UserAgentClient,
  ctx: Pick<RouteContext<ClientIdQuery>, 'now' | 'state' | 'request'>,
): SpanRecord {
  const timestamp = span.timestamp ?? ctx.now;
  return {
    timestamp,
    path: normalizeSpanPath(span.path),
    anonymousId: storedVisitorId(ctx.state.world.seed, span.anonymousId, span.anonymizeVisitorIds, timestamp, countryOf(ctx.request.headers)),
    sessionId: sanitizeSessionId(span.sessionId),
    eventId: span.eventId ?? '',
    ...client,
  };
}

/**
 * Stores a request's span records for a website, dropping those whose delivery id the website
 * already sent for this kind (silently: they still count as accepted). All of them or none:
 * when the ledger is full, nothing is stored, the ids are given back, and the answer is 503
 * `basket.DELIVERY_UNAVAILABLE`, as the service answers when it cannot durably accept.
 */
export function storeSpans<R extends SpanRecord>(ctx: RouteContext<ClientIdQuery>, kind: IngestKind<R>, website: Website, records: readonly R[]): SimError | null {
  const ledger = ctx.state.ingested;
  const fresh: R[] = [];
  const claimed: string[] = [];
  for (const record of records) {
    if (record.eventId === '') {
      fresh.push(record);
      continue;
    }
    const key = `${website.id}\u0000${kind.name}\u0000${record.eventId}`;
    if (!ledger.claimEventId(key)) continue;
    claimed.push(key);
    fresh.push(record);
  }
  if (fresh.length === 0) return null;
  const appended = ledger.append(kind, website.id, fresh);
  if (appended.ok) return null;
  for (const key of claimed) ledger.releaseEventId(key);
  const { maxRecords, maxChars } = ledger.limits;
  const full = basketError('DELIVERY_UNAVAILABLE');
  return {
    ...full,
    basket: {
      why:
        appended.reason === 'records'
          ? `The simulator keeps at most ${maxRecords} ingested records and holds ${ledger.size}; these ${fresh.length} were not stored.`
          : `The simulator keeps at most ${maxChars} characters of ingested text; these ${fresh.length} records were not stored.`,
      fix: 'Reset the simulator (POST /__sim/reset) or give it a larger eventStorage.',
    },
  };
}

/**
 * What a kind of span is taken in as, by its route and by the pixel: the body's shape, the
 * records of checked spans, the kind they are stored as, and the answer's `type` (also the pixel
 * event type that carries one span of the kind).
 */
export interface SpanIntake<T, R extends SpanRecord> {
  readonly type: string;
  readonly body: SpanBatchShape<T>;
  readonly kind: IngestKind<R>;
  /** The records of checked spans, with what the request's User-Agent names. */
  readonly toRecords: (ctx: RouteContext<ClientIdQuery>, identity: ClientIdentity, spans: readonly T[]) => R[];
}

/**
 * A {@link SpanIntake} of a list schema of span objects (the route's body), its cap and its
 * records; the problems of a body are listed in the item schema's field order.
 */
export function defineSpanIntake<S extends z.ZodArray<z.ZodObject>, R extends SpanRecord>(
  type: string,
  kind: IngestKind<R>,
  schema: S,
  max: number,
  toRecords: SpanIntake<z.output<S>[number], R>['toRecords'],
): SpanIntake<z.output<S>[number], R> {
  return { type, body: { schema, max, fields: Object.keys(schema.element.shape) }, kind, toRecords };
}

/** Stores checked spans as their intake's records ({@link storeSpans}): the refusal of a full ledger, or null. */
export function storeCheckedSpans<T, R extends SpanRecord>(ctx: RouteContext<ClientIdQuery>, intake: SpanIntake<T, R>, identity: ClientIdentity, spans: readonly T[]): SimError | null {
  return storeSpans(ctx, intake.kind, identity.website, intake.toRecords(ctx, identity, spans));
}

/** What a span route says beyond its intake: its path, its documentation, and any byte limit of its own. */
export interface SpanRouteSpec {
  readonly path: string;
  /** What the body lists, in the plural (`measurements`, `errors`, `spans`). */
  readonly items: string;
  readonly summary: string;
  /** The 200 answer's schema. */
  readonly answer: z.ZodType;
  /** Said after the 200 answer's description. */
  readonly note?: string;
  /** The body's limit in bytes, measured as the service measures it (Content-Length, else the body's bytes), before the body is parsed and before the client id. */
  readonly maxBodyBytes?: number;
  /** The refusal of a body over the limit (or over the pipeline's 1 MB): INGEST_PAYLOAD_TOO_LARGE unless said. */
  readonly tooLarge?: BasketErrorKey;
}

/**
 * A span route (`POST /vitals`, `/errors`, `/engagement`): client-id authentication, the body
 * checked by {@link checkSpans}, 204 for a bot, else the spans stored and
 * `{status: "success", type, count}`.
 */
export function defineSpanRoute<T, R extends SpanRecord>(intake: SpanIntake<T, R>, spec: SpanRouteSpec): Route {
  const tooLarge = spec.tooLarge ?? 'INGEST_PAYLOAD_TOO_LARGE';
  const bodyProblems = `a body that is not an array of at most ${intake.body.max} ${spec.items} (basket.INVALID_EVENT_SCHEMA, \`errors\` name the fields)`;
  const overLimit = spec.maxBodyBytes === undefined ? undefined : `The body is over ${groupDigits(spec.maxBodyBytes)} bytes (basket.${tooLarge}), checked before the client id`;
  const accepted = `The ${spec.items} were accepted; \`count\` says how many the body held (repeated delivery ids are dropped silently)`;
  return defineIngestRoute<unknown, ClientIdentity, CheckedSpans<T>, ClientIdQuery>({
    method: 'POST',
    path: spec.path,
    summary: spec.summary,
    query: clientIdQuerySchema,
    body: documentedAs(intake.body.schema),
    maxBodyBytes: spec.maxBodyBytes,
    bodyError: spanBodyError,
    shapeRefusal: (error) => asSpanEnvelope(error, tooLarge),
    responses: {
      200: { description: spec.note === undefined ? accepted : `${accepted}. ${spec.note}`, schema: spec.answer },
      204: BOT_IGNORED,
      ...clientIdRefusals(bodyProblems, overLimit),
    },
    authorize: (ctx) => authenticateClientId(ctx),
    validate: (ctx, body, identity) => checkSpans(ctx, body, intake.body, identity),
    handle(ctx, _body, identity, checked) {
      warnMissingUserAgent(ctx, checked.missingUserAgent);
      if (checked.bot) return NO_CONTENT;
      return storeCheckedSpans(ctx, intake, identity, checked.spans) ?? ok({ status: 'success', type: intake.type, count: checked.spans.length });
    },
  });
}
