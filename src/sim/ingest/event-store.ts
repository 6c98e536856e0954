import { DAY_MS } from '../model/world.js';
import { createIntakeHold, NO_INTAKE_DELAY, type IntakeHold } from './intake-hold.js';
import { countBelow, createSortedDayIndex, type SortedTimes } from './sorted-times.js';

/** A custom event accepted by `POST /track`, as the simulator keeps it. */
export interface TrackedEvent {
  /** The organization that owns the event. */
  readonly organizationId: string;
  /** The website it belongs to; null for an organization-level event (a global key, no website). */
  readonly websiteId: string | null;
  readonly name: string;
  /** Event time, epoch ms. */
  readonly timestamp: number;
  readonly anonymousId: string | null;
  readonly sessionId: string | null;
  readonly profileId: string | null;
  readonly namespace: string | null;
  readonly source: string | null;
  readonly path: string | null;
  readonly eventId: string | null;
  /** The properties as JSON text (compact in memory), or null. */
  readonly propertiesJson: string | null;
  /** Simulator time the event was accepted, epoch ms. */
  readonly receivedAt: number;
}

/** Bounds of an event store. */
export interface EventStoreLimits {
  /** Events kept at most. */
  readonly maxEvents: number;
  /** Characters of event text (names, ids, properties JSON…) kept at most: a memory bound. */
  readonly maxChars: number;
}

/** Default bounds: a million events, and 256 Mi characters of event text. */
export const DEFAULT_EVENT_STORE_LIMITS: EventStoreLimits = { maxEvents: 1_000_000, maxChars: 256 * 1024 * 1024 };

/** What an append decided. */
export type AppendResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'events' | 'chars' };

/** Read access to tracked events, for the queries. */
export interface EventReader {
  /**
   * How many events the owners hold on the UTC days that [fromMs, toMs] touches. Events are only
   * ever added, so the number grows exactly when what those owners and days hold changes: a
   * cached result keyed by it is stale only when an event landed on one of its owners and days.
   * Costs one step per day that holds events of each owner, never one per event.
   */
  countTouching(owners: readonly string[], fromMs: number, toMs: number): number;
  /**
   * How many events the owners hold on any day: {@link EventReader.countTouching} over all time,
   * in one step per owner. Grows exactly when an event lands on one of them.
   */
  countOwned(owners: readonly string[]): number;
  /**
   * Visits the events of an owner (a website id, or {@link organizationOwner} of an
   * organization) whose time is within [fromMs, toMs], day by day, in arrival order per day.
   */
  scan(owner: string, fromMs: number, toMs: number, visit: (event: TrackedEvent) => void): void;
  /**
   * Counts the events of an owner per quarter hour (UTC, 15 minutes) within [fromMs, toMs]:
   * calls `visit` with each quarter's start and its count, for quarters that hold some. Costs
   * two binary searches per quarter of a day that holds events, never one step per event, so
   * an unfiltered count stays cheap however many events were tracked.
   */
  tallyQuarters(owner: string, fromMs: number, toMs: number, visit: (quarterStartMs: number, count: number) => void): void;
  /**
   * {@link EventReader.scan} in pieces: visits the same events, yielding how many it visited
   * every {@link EVENT_SCAN_PIECE} of them (and once at the end), so a caller may let other work
   * run between pieces; events appended meanwhile to a day not yet finished are visited too.
   *
   * With `cursor`, only the events appended since the cursor last saw the owner's days: those
   * of the days [fromMs, toMs] touches at positions the cursor has not seen (whose time is
   * within the range), the cursor moved past each piece before it is visited. A fold kept with
   * its cursor is thus brought up to date by the new events alone, and two scans sharing a
   * cursor between their pieces visit each event once between them.
   */
  scanSteps(owner: string, fromMs: number, toMs: number, visit: (event: TrackedEvent) => void, cursor?: EventCursor): Generator<number, void, void>;
  /**
   * The latest event time of the owners within [fromMs, toMs], or -Infinity when they hold none
   * there: a binary search per owner and day touched, never one step per event.
   */
  latestWithin(owners: readonly string[], fromMs: number, toMs: number): number;
}

/** How far a fold has read an owner's events: per UTC day, how many of its events it has seen. */
export type EventCursor = Map<number, number>;

/** Events {@link EventReader.scanSteps} visits between two of its yields. */
export const EVENT_SCAN_PIECE = 2_000;

/** The length of a quarter hour, ms: every bucket of every time zone is a union of them. */
export const QUARTER_MS = 900_000;

/** Tracked events of one simulator run: bounded; a batch is stored whole or not at all. */
export interface EventStore extends EventReader {
  readonly limits: EventStoreLimits;
  /** Events stored. */
  readonly size: number;
  /** Characters of event text stored. */
  readonly chars: number;
  /** Stores every event of a batch, or (when they do not all fit) none. */
  append(events: readonly TrackedEvent[]): AppendResult;
}

/** The owner key of an organization's own events (those sent without a website). */
export function organizationOwner(organizationId: string): string {
  return `org:${organizationId}`;
}

function ownerOf(event: TrackedEvent): string {
  return event.websiteId ?? organizationOwner(event.organizationId);
}

const textOf = (value: string | null): number => (value === null ? 0 : value.length);

/** Characters an event holds, for the memory bound. */
function charsOf(event: TrackedEvent): number {
  return (
    event.name.length +
    textOf(event.anonymousId) +
    textOf(event.sessionId) +
    textOf(event.profileId) +
    textOf(event.namespace) +
    textOf(event.source) +
    textOf(event.path) +
    textOf(event.eventId) +
    textOf(event.propertiesJson)
  );
}

/**
 * Creates an empty store. With an ingestion delay (`hold`), a batch is checked against the
 * bounds (counting the batches still held) when it is accepted and stored once its delay has passed.
 */
export function createEventStore(limits: Partial<EventStoreLimits> = {}, hold: IntakeHold = createIntakeHold(NO_INTAKE_DELAY)): EventStore {
  const bounds: EventStoreLimits = {
    maxEvents: limits.maxEvents ?? DEFAULT_EVENT_STORE_LIMITS.maxEvents,
    maxChars: limits.maxChars ?? DEFAULT_EVENT_STORE_LIMITS.maxChars,
  };
  /** owner → UTC day → events in arrival order. */
  const byOwner = new Map<string, Map<number, TrackedEvent[]>>();
  /** The events' times by owner and day, sorted, and each owner's count. */
  const index = createSortedDayIndex();
  /** The owner's days that [fromMs, toMs] touches and that hold events, in day order. */
  const daysWithin = (owner: string, fromMs: number, toMs: number): [number, TrackedEvent[]][] => {
    const days = byOwner.get(owner);
    if (!days || toMs < fromMs) return [];
    const first = Math.floor(fromMs / DAY_MS);
    const last = Math.floor(toMs / DAY_MS);
    return [...days].filter(([day]) => day >= first && day <= last).sort(([a], [b]) => a - b);
  };
  let size = 0;
  let chars = 0;
  /** Events and characters of the batches the ingestion delay still holds (they count against the bounds). */
  let heldEvents = 0;
  let heldChars = 0;
  /** Stores a batch whose bounds were checked. */
  const write = (events: readonly TrackedEvent[], added: number): void => {
    for (const event of events) {
      const owner = ownerOf(event);
      let days = byOwner.get(owner);
      if (!days) {
        days = new Map();
        byOwner.set(owner, days);
      }
      const day = Math.floor(event.timestamp / DAY_MS);
      let list = days.get(day);
      if (!list) days.set(day, (list = []));
      list.push(event);
      index.add(owner, event.timestamp);
    }
    size += events.length;
    chars += added;
  };
  const scanSteps: EventReader['scanSteps'] = function* (owner, fromMs, toMs, visit, cursor) {
    let visited = 0;
    for (const [day, list] of daysWithin(owner, fromMs, toMs)) {
      let next = 0;
      for (;;) {
        const start = cursor === undefined ? next : (cursor.get(day) ?? 0);
        if (start >= list.length) break;
        const end = Math.min(list.length, start + EVENT_SCAN_PIECE - visited);
        // Claimed before it is visited: a scan sharing the cursor goes on after this piece.
        cursor?.set(day, end);
        for (let i = start; i < end; i++) {
          const event = list[i] as TrackedEvent;
          if (event.timestamp >= fromMs && event.timestamp <= toMs) visit(event);
        }
        visited += end - start;
        next = end;
        if (visited >= EVENT_SCAN_PIECE) {
          yield visited;
          visited = 0;
        }
      }
    }
    if (visited > 0) yield visited;
  };
  return {
    limits: bounds,
    get size() {
      return size;
    },
    get chars() {
      return chars;
    },
    append(events) {
      if (size + heldEvents + events.length > bounds.maxEvents) return { ok: false, reason: 'events' };
      const added = events.reduce((sum, event) => sum + charsOf(event), 0);
      if (chars + heldChars + added > bounds.maxChars) return { ok: false, reason: 'chars' };
      let held = false;
      const stored = hold.defer(() => {
        if (held) {
          heldEvents -= events.length;
          heldChars -= added;
        }
        write(events, added);
      });
      if (!stored) {
        held = true;
        heldEvents += events.length;
        heldChars += added;
      }
      return { ok: true };
    },
    countTouching: index.countTouching,
    latestWithin: index.latestWithin,
    countOwned: index.countOwned,
    scan(owner, fromMs, toMs, visit) {
      // The same scan, its pieces driven to the end at once.
      for (const piece of scanSteps(owner, fromMs, toMs, visit)) void piece;
    },
    scanSteps,
    tallyQuarters(owner, fromMs, toMs, visit) {
      for (const [day] of daysWithin(owner, fromMs, toMs)) {
        const times = index.timesOn(owner, day) as SortedTimes;
        const start = Math.max(day * DAY_MS, Math.floor(fromMs / QUARTER_MS) * QUARTER_MS);
        const end = Math.min((day + 1) * DAY_MS - 1, toMs);
        for (let quarter = start; quarter <= end; quarter += QUARTER_MS) {
          const below = countBelow(times, Math.max(quarter, fromMs));
          const upTo = countBelow(times, Math.min(quarter + QUARTER_MS - 1, toMs) + 0.5);
          if (upTo > below) visit(quarter, upTo - below);
        }
      }
    },
  };
}
