import type { Website } from '../../model/entities.js';
import type { SessionBatch } from '../../model/traffic.js';
import { deviceDetailsOf, type DeviceDetails } from '../../model/derived/device-details.js';
import type { RunContext } from '../engine/definition.js';
import { passesFilters, type FilterPlan } from '../engine/filters.js';
import { scanSessionsSteps } from './scan.js';
import { runToEnd, type PassSteps } from '../engine/pass-steps.js';
import { sessionIdValue } from './session-identity.js';

/**
 * Filter fields a session answers from derived values rather than dictionary columns: its
 * visitor's ids and the UTM tags the samples lack. The filter plan marks them as matching
 * nothing (no dictionary holds them); {@link visitSessions} tests them per session instead.
 */
const SESSION_STRING_FIELDS = new Set(['anonymous_id', 'profile_id', 'utm_term', 'utm_content']);

/** One filtered session as {@link visitSessions} hands it over; the object is reused. */
export interface SessionVisit {
  batch: SessionBatch;
  index: number;
  /** Its pageviews that pass the path filter (≥ 1). */
  matched: number;
  /** Identifies its visitor across the scope. */
  visitorKey: number;
  /** The derived details of its batch (browser version, viewport, UTM term …), computed on first use. */
  details(): DeviceDetails;
}

function stringFieldValue(ctx: RunContext, batch: SessionBatch, index: number, details: () => DeviceDetails, field: string): string {
  switch (field) {
    case 'utm_term':
      return details().utmTerm[index] as string;
    case 'utm_content':
      return details().utmContent[index] as string;
    default:
      return sessionIdValue(ctx, batch, index, field) ?? '';
  }
}

/** Whether some filter on a field without data excludes every session (as `query_string` eq 'x'). */
function excludesAll(ctx: RunContext): boolean {
  return ctx.filters.tests.some(
    (test) =>
      !(test.field in ctx.dictionaries.values) &&
      !SESSION_STRING_FIELDS.has(test.field) &&
      !passesFilters({ ...ctx.filters, tests: [test] }, () => ''),
  );
}

/**
 * Visits every session of the scope in [fromMs, toMs] that passes the request's filters,
 * including filters on the visitor's ids (`anonymous_id`, `profile_id`) and on the derived UTM
 * tags (`utm_term`, `utm_content`), where the type allows them. Same order as `scanSessions`.
 * Sessions built from ingested page views are visited too (their `batch.ingested` says so, and
 * `details()` answers from what they were sent with).
 */
export function visitSessions(ctx: RunContext, visit: (session: SessionVisit) => void, fromMs = ctx.fromMs, toMs = ctx.toMs): void {
  runToEnd(visitSessionsSteps(ctx, visit, fromMs, toMs));
}

/**
 * {@link visitSessions} in pieces: yields each website-day's session samples read, and what the
 * day's device details cost when derived again ({@link scanSessionsSteps} counts it; {@link PassSteps}).
 */
export function* visitSessionsSteps(ctx: RunContext, visit: (session: SessionVisit) => void, fromMs = ctx.fromMs, toMs = ctx.toMs): PassSteps<void> {
  if (ctx.scope.kind !== 'websites') return;
  const stringTests = ctx.filters.tests.filter((test) => SESSION_STRING_FIELDS.has(test.field));
  const plan: FilterPlan = { masks: ctx.filters.masks, excludesAll: excludesAll(ctx), tests: stringTests };
  const websites = new Map<string, Website>(ctx.scope.websites.map((w) => [w.id, w]));
  const derivation = deviceDetailsOf(ctx.dictionaries);
  let detailsBatch: SessionBatch | null = null;
  let detailsValue: DeviceDetails | null = null;
  const current: SessionVisit = {
    batch: undefined as unknown as SessionBatch,
    index: 0,
    matched: 0,
    visitorKey: 0,
    details() {
      if (current.batch.ingested) return current.batch.ingested.details;
      if (detailsBatch !== current.batch || !detailsValue) {
        detailsBatch = current.batch;
        detailsValue = ctx.traffic.derived(derivation, websites.get(current.batch.websiteId) as Website, current.batch.day);
      }
      return detailsValue;
    },
  };
  yield* scanSessionsSteps(
    { ...ctx, filters: plan },
    (batch, index, matched, visitorKey) => {
      current.batch = batch;
      current.index = index;
      current.matched = matched;
      current.visitorKey = visitorKey;
      if (stringTests.length > 0 && !passesFilters(plan, (field) => stringFieldValue(ctx, batch, index, current.details, field))) return;
      visit(current);
    },
    fromMs,
    toMs,
    { ingested: true },
  );
}

/** Pageviews of a session sample, whatever the path filter. */
export function pagesOf(batch: SessionBatch, index: number): number {
  return (batch.pageOffsets[index + 1] as number) - (batch.pageOffsets[index] as number);
}

/** Custom events of a session sample. */
export function customEventsOf(batch: SessionBatch, index: number): number {
  return (batch.eventOffsets[index + 1] as number) - (batch.eventOffsets[index] as number);
}

/** Seconds the session spent on its pages, the last one included (the sum of its page_exit times). */
export function activeSecondsOf(batch: SessionBatch, index: number): number {
  let total = 0;
  for (let p = batch.pageOffsets[index] as number; p < (batch.pageOffsets[index + 1] as number); p++) total += batch.pageTimeS[p] as number;
  return total;
}

/**
 * The live service's bounce: one pageview, under 10 seconds on it, and no event besides the
 * page view and exit.
 */
export function isLiveBounce(batch: SessionBatch, index: number): boolean {
  return pagesOf(batch, index) === 1 && (batch.pageTimeS[batch.pageOffsets[index] as number] as number) < 10 && customEventsOf(batch, index) === 0;
}
