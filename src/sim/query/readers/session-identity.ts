import { pageStayMs } from '../../model/derived/pageview-times.js';
import { hashString, mix } from '../../model/hash.js';
import { anonymousIdOf, profileIdOf, sessionIdOf } from '../../model/identity.js';
import type { SessionBatch } from '../../model/traffic.js';
import type { RunContext } from '../engine/definition.js';
import { passesFilters, type FieldTest, type FilterPlan } from '../engine/filters.js';
import { scanSessionsSteps, type ScanOptions } from './scan.js';
import { runToEnd, type PassSteps } from '../engine/pass-steps.js';

/**
 * Session scans that understand the identity filters (`anonymous_id`, `profile_id`,
 * `session_id`): the generated traffic holds no id columns, so these filters are tested against
 * the ids identity.ts gives each sample instead of dictionary masks. A filter that names ids
 * (eq, in, contains, starts_with) selects individual visitors or sessions, so each matching sample
 * then counts as one real session and visitor instead of the batch weight.
 */

const IDENTITY_FIELDS: ReadonlySet<string> = new Set(['anonymous_id', 'profile_id', 'session_id']);
const NAMING_OPS: ReadonlySet<string> = new Set(['eq', 'in', 'contains', 'starts_with']);
const NONE: ReadonlySet<string> = new Set();

/** Called once per session that passes every filter, with the real sessions the sample stands for. */
export type WeightedSessionVisitor = (batch: SessionBatch, index: number, matchedPages: number, visitorKey: number, weight: number) => void;

/** A filter plan without any filter. */
export const NO_FILTERS: FilterPlan = { masks: new Map(), excludesAll: false, tests: [] };

/** The anonymous id of session sample `index` (the row's `visitor_id`). */
export function visitorIdOf(batch: SessionBatch, index: number): string {
  if (batch.ingested) return batch.ingested.anonymousIds[index] as string;
  return anonymousIdOf(batch.websiteId, batch.visitor[index] as number);
}

/** The profile id of session sample `index`'s visitor; '' when anonymous. */
export function sampleProfileIdOf(ctx: RunContext, batch: SessionBatch, index: number): string {
  if (batch.ingested) return batch.ingested.profileIds[index] as string;
  return profileIdOf(ctx.traffic.seedHash, batch.websiteId, batch.visitor[index] as number);
}

/**
 * Session sample `index`'s value of an id filter field (`anonymous_id`, `profile_id`,
 * `session_id`, `website_id`); undefined for any other field.
 */
export function sessionIdValue(ctx: RunContext, batch: SessionBatch, index: number, field: string): string | undefined {
  switch (field) {
    case 'anonymous_id':
      return visitorIdOf(batch, index);
    case 'profile_id':
      return sampleProfileIdOf(ctx, batch, index);
    case 'session_id':
      return sessionIdOf(batch, index);
    case 'website_id':
      return batch.websiteId;
    default:
      return undefined;
  }
}

/**
 * The profile of session sample `index`'s visitor, counting `POST /identify`: its own profile id,
 * else the profile its anonymous id was linked to; '' when anonymous. Only the profile types read
 * identify's aliases (their cached rows key on the profile store).
 */
export function identifiedProfileIdOf(ctx: RunContext, batch: SessionBatch, index: number): string {
  return sampleProfileIdOf(ctx, batch, index) || (ctx.profiles.profileOfAlias(batch.websiteId, visitorIdOf(batch, index)) ?? '');
}

/** Reads the profile id of a session sample: {@link sampleProfileIdOf}, or {@link identifiedProfileIdOf}. */
export type ProfileIdReader = (ctx: RunContext, batch: SessionBatch, index: number) => string;

function identityValue(ctx: RunContext, batch: SessionBatch, index: number, field: string, profileIdOf: ProfileIdReader): string {
  if (field === 'anonymous_id') return visitorIdOf(batch, index);
  if (field === 'profile_id') return profileIdOf(ctx, batch, index);
  if (field === 'session_id') return sessionIdOf(batch, index);
  return '';
}

/**
 * Visits every session of the range that passes the filters, identity filters included, in
 * pieces: yields each few website-days' session samples read ({@link PassSteps}).
 * `fromMs`/`toMs` default to the request's range; `ownFields` are filter fields the caller tests
 * itself (they neither exclude everything nor select sessions here); `profileIdOf` reads the
 * profile id a `profile_id` filter tests.
 */
export function* scanIdentifiedSessionsSteps(
  ctx: RunContext,
  visit: WeightedSessionVisitor,
  fromMs = ctx.fromMs,
  toMs = ctx.toMs,
  ownFields: ReadonlySet<string> = NONE,
  profileIdOf: ProfileIdReader = sampleProfileIdOf,
  options: ScanOptions = {},
): PassSteps<void> {
  const identity: FieldTest[] = [];
  const rest: FieldTest[] = [];
  for (const test of ctx.filters.tests) {
    if (IDENTITY_FIELDS.has(test.field)) identity.push(test);
    else if (!ownFields.has(test.field)) rest.push(test);
  }
  if (identity.length === 0 && rest.length === ctx.filters.tests.length) {
    yield* scanSessionsSteps(ctx, (batch, i, matched, visitorKey) => visit(batch, i, matched, visitorKey, batch.weight), fromMs, toMs, options);
    return;
  }
  const excludesAll = rest.some(
    (test) => !(test.field in ctx.dictionaries.values) && !passesFilters({ ...NO_FILTERS, tests: [test] }, () => ''),
  );
  const identityPlan: FilterPlan = { ...NO_FILTERS, tests: identity };
  const naming = identity.some((test) => NAMING_OPS.has(test.op));
  const scoped: RunContext = { ...ctx, filters: { masks: ctx.filters.masks, excludesAll, tests: rest } };
  yield* scanSessionsSteps(
    scoped,
    (batch, i, matched, visitorKey) => {
      if (identity.length > 0 && !passesFilters(identityPlan, (field) => identityValue(ctx, batch, i, field, profileIdOf))) return;
      visit(batch, i, matched, visitorKey, naming ? 1 : batch.weight);
    },
    fromMs,
    toMs,
    options,
  );
}

/**
 * The id a profile type asks about: the `anonymous_id` filter's value, matched against a
 * visitor's anonymous id or profile id. Throws (the live builder's "Missing required filter")
 * when the request has no such scalar filter.
 */
export function requestedVisitorId(ctx: RunContext): string {
  const test = ctx.filters.tests.find((t) => t.field === 'anonymous_id');
  const value = test?.values[0];
  if (!test || value === undefined || value === '') throw new Error("Missing required filter: 'anonymous_id'.");
  return value;
}

/**
 * Visits every session (within [fromMs, toMs], default the range) of the visitor whose anonymous id
 * or profile id (read by `profileIdOf`) is `id`, in scan order (website, then time), in pieces:
 * yields the session samples read ({@link PassSteps}). Other filters do not apply, as live.
 */
export function* scanVisitorSessionsSteps(
  ctx: RunContext,
  id: string,
  visit: (batch: SessionBatch, index: number) => void,
  fromMs = ctx.fromMs,
  toMs = ctx.toMs,
  profileIdOf: ProfileIdReader = sampleProfileIdOf,
): PassSteps<void> {
  const bare: RunContext = { ...ctx, filters: NO_FILTERS };
  yield* scanSessionsSteps(
    bare,
    (batch, i) => {
      if (visitorIdOf(batch, i) === id || profileIdOf(ctx, batch, i) === id) visit(batch, i);
    },
    fromMs,
    toMs,
  );
}

/** When session sample `index` ends: the last page's exit (its start plus its time on page). */
export function sessionEndOf(batch: SessionBatch, index: number): number {
  const to = batch.pageOffsets[index + 1] as number;
  let at = batch.startMs[index] as number;
  for (let p = batch.pageOffsets[index] as number; p < to; p++) at += pageStayMs(batch, p);
  return at;
}

/** `YYYY-MM-DD HH:MM:SS.mmm` of an instant in UTC (ClickHouse DateTime64(3) in JSON). */
export function formatDateTime64(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

/** A version-4-shaped UUID made from seeded words: the same words always give the same id. */
export function uuidOf(...words: number[]): string {
  const hex = [1, 2, 3, 4].map((k) => mix(...words, k).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16] as string, 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The seeded words that name one session sample: the base of its event ids. */
export function sessionWords(ctx: RunContext, batch: SessionBatch, index: number): number[] {
  return [ctx.traffic.seedHash, hashString(batch.websiteId), batch.day, index];
}

/** A duration in seconds as a short human text (`1h 2m 3s`, `45s`). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h ${m}m ${rest}s`;
  if (m > 0) return `${m}m ${rest}s`;
  return `${rest}s`;
}

/**
 * {@link scanIdentifiedSessionsSteps}, in one piece, with the sessions built from ingested page views too (after
 * each day's generated ones), for visitors that read only the batch's columns and ids.
 */
export function scanIdentifiedAndIngestedSessions(ctx: RunContext, visit: WeightedSessionVisitor, fromMs = ctx.fromMs, toMs = ctx.toMs): void {
  runToEnd(scanIdentifiedSessionsSteps(ctx, visit, fromMs, toMs, NONE, sampleProfileIdOf, { ingested: true }));
}
