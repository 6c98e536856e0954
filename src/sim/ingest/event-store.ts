import { DAY_MS } from '../model/world.js';

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
   * Visits the events of an owner (a website id, or {@link organizationOwner} of an
   * organization) whose time is within [fromMs, toMs], day by day, in arrival order per day.
   */
  scan(owner: string, fromMs: number, toMs: number, visit: (event: TrackedEvent) => void): void;
}

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

/** Creates an empty store. */
export function createEventStore(limits: Partial<EventStoreLimits> = {}): EventStore {
  const bounds: EventStoreLimits = {
    maxEvents: limits.maxEvents ?? DEFAULT_EVENT_STORE_LIMITS.maxEvents,
    maxChars: limits.maxChars ?? DEFAULT_EVENT_STORE_LIMITS.maxChars,
  };
  /** owner → UTC day → events in arrival order. */
  const byOwner = new Map<string, Map<number, TrackedEvent[]>>();
  let size = 0;
  let chars = 0;
  return {
    limits: bounds,
    get size() {
      return size;
    },
    get chars() {
      return chars;
    },
    append(events) {
      if (size + events.length > bounds.maxEvents) return { ok: false, reason: 'events' };
      const added = events.reduce((sum, event) => sum + charsOf(event), 0);
      if (chars + added > bounds.maxChars) return { ok: false, reason: 'chars' };
      for (const event of events) {
        const owner = ownerOf(event);
        let days = byOwner.get(owner);
        if (!days) {
          days = new Map();
          byOwner.set(owner, days);
        }
        const day = Math.floor(event.timestamp / DAY_MS);
        const list = days.get(day);
        if (list) list.push(event);
        else days.set(day, [event]);
      }
      size += events.length;
      chars += added;
      return { ok: true };
    },
    countTouching(owners, fromMs, toMs) {
      const first = Math.floor(fromMs / DAY_MS);
      const last = Math.floor(toMs / DAY_MS);
      let count = 0;
      for (const owner of owners) {
        const days = byOwner.get(owner);
        if (!days) continue;
        for (const [day, list] of days) if (day >= first && day <= last) count += list.length;
      }
      return count;
    },
    scan(owner, fromMs, toMs, visit) {
      const days = byOwner.get(owner);
      if (!days || toMs < fromMs) return;
      const first = Math.floor(fromMs / DAY_MS);
      const last = Math.floor(toMs / DAY_MS);
      const wanted = [...days.keys()].filter((day) => day >= first && day <= last).sort((a, b) => a - b);
      for (const day of wanted) {
        for (const event of days.get(day) as TrackedEvent[]) {
          if (event.timestamp >= fromMs && event.timestamp <= toMs) visit(event);
        }
      }
    },
  };
}
