import type { EventCursor, TrackedEvent } from '../../ingest/event-store.js';
import { TRACKED_EVENT_WORK, type PassSteps } from '../engine/pass-steps.js';
import type { RunContext } from '../engine/definition.js';
import { passesFilters } from '../engine/filters.js';
import { ownersOf } from '../engine/scope-owners.js';
import { createFieldReader } from './record-filters.js';

/** A tracked event's value of a filter field; the empty string for fields it does not carry. */
export const trackedValue = createFieldReader<TrackedEvent>({
  event_name: (event) => event.name,
  path: (event) => event.path ?? '',
  anonymous_id: (event) => event.anonymousId ?? '',
  session_id: (event) => event.sessionId ?? '',
  profile_id: (event) => event.profileId ?? '',
  namespace: (event) => event.namespace ?? '',
  source: (event) => event.source ?? '',
  website_id: (event) => event.websiteId ?? '',
});

/**
 * The events of one owner (a website id, or an organization's own) within [fromMs, toMs], in
 * pieces counted as a pass counts its records ({@link TRACKED_EVENT_WORK} each), unfiltered;
 * with `cursor`, those appended since it last moved (the event store's `scanSteps`).
 */
export function* scanOwnerSteps(ctx: RunContext, owner: string, fromMs: number, toMs: number, visit: (event: TrackedEvent) => void, cursor?: EventCursor): PassSteps<void> {
  for (const visited of ctx.events.scanSteps(owner, fromMs, toMs, visit, cursor)) yield visited * TRACKED_EVENT_WORK;
}

/**
 * Visits each event accepted by `POST /track` for the scope's websites (and, for an
 * organization scope, the organization's own events) within the range that passes the
 * filters, in pieces ({@link scanOwnerSteps}). Fields a tracked event does not carry (country,
 * browser…) hold the empty string.
 */
export function* scanTrackedSteps(ctx: RunContext, visit: (event: TrackedEvent) => void): PassSteps<void> {
  for (const owner of ownersOf(ctx.scope)) {
    yield* scanOwnerSteps(ctx, owner, ctx.fromMs, ctx.toMs, (event) => {
      if (passesFilters(ctx.filters, (field) => trackedValue(event, field))) visit(event);
    });
  }
}

/**
 * Tracked events (`POST /track`) in the range that pass the filters, per `keyOf` of their time.
 * `keyOf` must give every instant of a quarter hour the key of its start, as time buckets do
 * (`createBucketer`): unfiltered, the events are then counted a quarter at a time from the
 * store's sorted times, so the cost follows the quarters, not the events tracked.
 */
export function* countTrackedSteps<K>(ctx: RunContext, keyOf: (ms: number) => K): PassSteps<Map<K, number>> {
  const counts = new Map<K, number>();
  if (ctx.filters.tests.length === 0) {
    for (const owner of ownersOf(ctx.scope)) {
      ctx.events.tallyQuarters(owner, ctx.fromMs, ctx.toMs, (quarter, count) => {
        const key = keyOf(quarter);
        counts.set(key, (counts.get(key) ?? 0) + count);
      });
    }
    return counts;
  }
  yield* scanTrackedSteps(ctx, (event) => {
    const key = keyOf(event.timestamp);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  return counts;
}
