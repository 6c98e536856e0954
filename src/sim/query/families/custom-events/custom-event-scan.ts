import type { EventCursor, TrackedEvent } from '../../../ingest/event-store.js';
import type { Website } from '../../../model/entities.js';
import { customEventDetails, propertiesJson, type CustomEventDetails, type EventProperty } from '../../../model/derived/custom-event-details.js';
import { anonymousIdOf, sessionIdOf } from '../../../model/identity.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { createDistinct } from '../../readers/aggregate.js';
import type { RunContext } from '../../engine/definition.js';
import { passesFilters, type FilterPlan } from '../../engine/filters.js';
import { passesRecord, splitFilters } from '../../readers/record-filters.js';
import { scanSessionsSteps } from '../../readers/scan.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { sessionIdValue } from '../../readers/session-identity.js';
import { scanOwnerSteps, trackedValue } from '../../readers/tracked-events.js';
import { ownersOf } from '../../engine/scope-owners.js';

export type { EventProperty } from '../../../model/derived/custom-event-details.js';

/** A key of a distinct count: a number for generated visitors and sessions, a string for tracked ids. */
export type DistinctKey = number | string;

/** A generated event: sample `session` of `batch`, event index `event`. */
export interface GeneratedOrigin {
  readonly kind: 'generated';
  readonly batch: SessionBatch;
  readonly session: number;
  readonly event: number;
  readonly visitorKey: number;
}

/** One custom event as every custom-events type reads it, whether generated or tracked. */
export interface EventOccurrence {
  readonly name: string;
  readonly timeMs: number;
  /** The page it was fired on; null for server-side events. */
  readonly path: string | null;
  /** Distinct-count key of the path (the dictionary code where there is one); null without a path. */
  readonly pathKey: DistinctKey | null;
  /** The visitor: profile id when there is one, else anonymous id; null when neither. */
  readonly userKey: DistinctKey | null;
  readonly sessionKey: DistinctKey | null;
  /** Real events this occurrence stands for (a generated sample's weight, 1 for a tracked event). */
  readonly weight: number;
  /** Top-level properties of a JSON object payload. */
  readonly properties: readonly EventProperty[];
  /** The payload is valid JSON other than `{}` (what `events_with_properties` counts). */
  readonly hasProperties: boolean;
  readonly origin: GeneratedOrigin | { readonly kind: 'tracked'; readonly event: TrackedEvent };
}

/** Filter fields custom events carry that no session dictionary holds. */
const RECORD_FIELDS = new Set(['profile_id', 'anonymous_id', 'session_id', 'namespace', 'source', 'website_id', 'property_key']);

const NO_PROPERTIES: readonly EventProperty[] = [];

/**
 * Visits every custom event of the scope in range that passes the filters: the events of the
 * filtered session samples (the event's own page must pass a path filter) and the events accepted
 * by `POST /track`. Filters on `property_key` are left to the caller (they apply after the
 * properties are expanded, as the service's SQL does).
 */
export function* scanCustomEvents(ctx: RunContext, visit: (event: EventOccurrence) => void): PassSteps<void> {
  yield* scanGeneratedEvents(ctx, visit);
  yield* scanTrackedOccurrences(ctx, visit);
}

/**
 * The generated half of {@link scanCustomEvents}: the events of the filtered session samples, in
 * pieces ({@link PassSteps}; a day's event details derived again count too, as {@link scanSessionsSteps} counts them).
 */
export function* scanGeneratedEvents(ctx: RunContext, visit: (event: EventOccurrence) => void): PassSteps<void> {
  if (ctx.scope.kind !== 'websites') return;
  const split = splitFilters(ctx, RECORD_FIELDS);
  const recordTests = split.record.tests.filter((t) => t.field !== 'property_key');
  const record = { ...split, record: { ...split.record, tests: recordTests } };
  const { values } = ctx.dictionaries;
  const nameMask = ctx.filters.masks.get('event_name') ?? null;
  const pathMask = ctx.filters.masks.get('path') ?? null;
  const details = customEventDetails(ctx.dictionaries);
  const websites = new Map<string, Website>(ctx.scope.websites.map((w) => [w.id, w]));
  let batchOf: SessionBatch | null = null;
  let detailsOf: CustomEventDetails | null = null;
  let serial = 0;
  yield* scanSessionsSteps(record.sessions, (batch, i, _matched, visitorKey) => {
    serial++;
    const first = batch.eventOffsets[i] as number;
    const end = batch.eventOffsets[i + 1] as number;
    if (first === end) return;
    if (recordTests.length > 0) {
      if (!passesRecord(record, (field) => sessionIdValue(ctx, batch, i, field) ?? '')) return;
    }
    if (batch !== batchOf) {
      batchOf = batch;
      detailsOf = ctx.traffic.derived(details, websites.get(batch.websiteId) as Website, batch.day);
    }
    const { pathCodes, properties } = detailsOf as CustomEventDetails;
    for (let e = first; e < end; e++) {
      const code = batch.eventNames[e] as number;
      if (nameMask && nameMask[code] === 0) continue;
      const timeMs = batch.eventTimeMs[e] as number;
      if (timeMs < ctx.fromMs || timeMs > ctx.toMs) continue;
      const path = pathCodes[e] as number;
      if (pathMask && pathMask[path] === 0) continue;
      const props = properties[e] ?? NO_PROPERTIES;
      visit({
        name: values.event_name[code] ?? '',
        timeMs,
        path: values.path[path] ?? '',
        pathKey: path,
        userKey: visitorKey,
        sessionKey: serial,
        weight: batch.weight,
        properties: props,
        hasProperties: props.length > 0,
        origin: { kind: 'generated', batch, session: i, event: e, visitorKey },
      });
    }
  });
}

/**
 * The tracked half of {@link scanCustomEvents}: the events accepted by `POST /track`, in pieces.
 * With `cursors` (one per owner, kept by the caller), only the events appended since the
 * cursors last moved, which it moves to the end.
 */
export function* scanTrackedOccurrences(ctx: RunContext, visit: (event: EventOccurrence) => void, cursors?: Map<string, EventCursor>): PassSteps<void> {
  yield* scanTrackedEvents(ctx, (event, parsed) => {
    const pathCode = event.path === null ? -1 : pathCodeOf(ctx, event.path);
    visit({
      name: event.name,
      timeMs: event.timestamp,
      path: event.path,
      pathKey: event.path === null ? null : pathCode >= 0 ? pathCode : event.path,
      userKey: event.profileId || event.anonymousId || null,
      sessionKey: event.sessionId,
      weight: 1,
      properties: parsed.properties,
      hasProperties: parsed.valid,
      origin: { kind: 'tracked', event },
    });
  }, cursors);
}

const pathCodes = new WeakMap<readonly string[], Map<string, number>>();

/** The dictionary code of a path, or -1: a tracked event on a generated page counts as that page. */
function pathCodeOf(ctx: RunContext, path: string): number {
  const dictionary = ctx.dictionaries.values.path;
  let codes = pathCodes.get(dictionary);
  if (!codes) {
    codes = new Map(dictionary.map((p, code) => [p, code]));
    pathCodes.set(dictionary, codes);
  }
  return codes.get(path) ?? -1;
}


interface ParsedProperties {
  readonly valid: boolean;
  readonly properties: readonly EventProperty[];
}

/** Reads a tracked payload as the service's JSON functions do: top-level keys of an object, raw values. */
function parseProperties(json: string | null): ParsedProperties {
  if (json === null || json === '{}') return { valid: false, properties: NO_PROPERTIES };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { valid: false, properties: NO_PROPERTIES };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { valid: true, properties: NO_PROPERTIES };
  const properties = Object.entries(value as Record<string, unknown>).map(([key, v]) => {
    const raw = JSON.stringify(v) ?? 'null';
    return { key, raw, value: raw.replace(/^"+|"+$/g, '') };
  });
  return { valid: true, properties };
}

/** Visits the tracked events of the scope in range that pass every filter but `property_key`, in pieces. */
function* scanTrackedEvents(ctx: RunContext, visit: (event: TrackedEvent, parsed: ParsedProperties) => void, cursors?: Map<string, EventCursor>): PassSteps<void> {
  const plan: FilterPlan = { ...ctx.filters, tests: ctx.filters.tests.filter((t) => t.field !== 'property_key') };
  const each = (event: TrackedEvent): void => {
    if (event.name !== '' && passesFilters(plan, (field) => trackedValue(event, field))) visit(event, parseProperties(event.propertiesJson));
  };
  for (const owner of ownersOf(ctx.scope)) {
    if (!cursors) {
      yield* scanOwnerSteps(ctx, owner, ctx.fromMs, ctx.toMs, each);
      continue;
    }
    let cursor = cursors.get(owner);
    if (!cursor) {
      cursor = new Map();
      cursors.set(owner, cursor);
    }
    yield* scanOwnerSteps(ctx, owner, ctx.fromMs, ctx.toMs, each, cursor);
  }
}

/**
 * Counts distinct (group, key) pairs with weights: `add` returns true the first time a pair is
 * seen. Generated keys (numbers) and tracked ids (strings) never collide.
 */
export function createKeyDistinct(): (group: number, key: DistinctKey) => boolean {
  const numbers = createDistinct();
  const strings = new Set<string>();
  return (group, key) => {
    if (typeof key === 'number') return numbers(group, key);
    const pair = `${group}\u0000${key}`;
    if (strings.has(pair)) return false;
    strings.add(pair);
    return true;
  };
}

/** The raw row fields of an occurrence that only recent-event listings need. */
export interface OccurrenceIdentity {
  readonly namespace: string | null;
  readonly source: string | null;
  readonly properties: string;
  readonly anonymousId: string | null;
  readonly sessionId: string | null;
}

/** The ids and payload text of an occurrence, as the events table stores them. */
export function identityOf(occurrence: EventOccurrence): OccurrenceIdentity {
  const origin = occurrence.origin;
  if (origin.kind === 'tracked') {
    const e = origin.event;
    return { namespace: e.namespace, source: e.source, properties: e.propertiesJson ?? '{}', anonymousId: e.anonymousId, sessionId: e.sessionId };
  }
  return {
    namespace: null,
    source: null,
    properties: propertiesJson(occurrence.properties),
    anonymousId: anonymousIdOf(origin.batch.websiteId, origin.batch.visitor[origin.session] as number),
    sessionId: sessionIdOf(origin.batch, origin.session),
  };
}
