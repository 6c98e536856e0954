import type { ClockMode } from '../clock.js';
import type { JournalEntry, JournalInfo, Outcome } from '../journal/journal.js';

/** Distinct API key ids counted under their own label; later keys are counted as `other`. */
export const MAX_KEY_LABELS = 1000;

/** The `key` label of requests made without an API key (sessions, anonymous callers). */
export const NO_KEY_LABEL = 'none';

/** The `key` label of keys beyond the first {@link MAX_KEY_LABELS}. */
export const OTHER_KEY_LABEL = 'other';

/** The `route` label of requests no route matched. */
export const UNMATCHED_ROUTE_LABEL = 'unmatched';

/** How many service requests ended one way: by outcome, route pattern and API key id. */
export interface RequestCount {
  /** `admitted`, the rule that refused the request, or `scenario`. */
  readonly outcome: Outcome;
  /** The matched route pattern, or {@link UNMATCHED_ROUTE_LABEL}. */
  readonly route: string;
  /** The API key id, {@link NO_KEY_LABEL} or {@link OTHER_KEY_LABEL}; never a secret. */
  readonly key: string;
  readonly count: number;
}

/**
 * The decision counters of one process: fed with each journal entry as it is recorded, in
 * memory, never shared (with a shared store every process counts the requests it served).
 * Plain numbers: rendering them is the adapters' business (`GET /__sim/metrics`).
 */
export interface RequestCounters {
  /** Counts one decided request. */
  record(entry: JournalEntry): void;
  /** Every non-zero count, in first-seen order. */
  counts(): RequestCount[];
  /** Back to zero (the simulator was reset: the journal starts again too). */
  restart(): void;
}

/** Creates counters at zero. */
export function createRequestCounters(): RequestCounters {
  type Row = { outcome: Outcome; route: string; key: string; count: number };
  // Rows by outcome, then route, then key label: lookups on strings already made (interned
  // route patterns, key ids), no key text built per request. `order` keeps first-seen order.
  let rows = new Map<Outcome, Map<string, Map<string, Row>>>();
  let order: Row[] = [];
  let keys = new Set<string>();
  const keyLabel = (keyId: string | null): string => {
    if (keyId === null) return NO_KEY_LABEL;
    if (keys.has(keyId)) return keyId;
    if (keys.size >= MAX_KEY_LABELS) return OTHER_KEY_LABEL;
    keys.add(keyId);
    return keyId;
  };
  return {
    record(entry) {
      const route = entry.route ?? UNMATCHED_ROUTE_LABEL;
      const key = keyLabel(entry.keyId);
      let byRoute = rows.get(entry.outcome);
      if (byRoute === undefined) rows.set(entry.outcome, (byRoute = new Map()));
      let byKey = byRoute.get(route);
      if (byKey === undefined) byRoute.set(route, (byKey = new Map()));
      const row = byKey.get(key);
      if (row) row.count++;
      else {
        const made = { outcome: entry.outcome, route, key, count: 1 };
        byKey.set(key, made);
        order.push(made);
      }
    },
    counts: () => order.map((row) => ({ ...row })),
    restart() {
      rows = new Map();
      order = [];
      keys = new Set();
    },
  };
}

/** One API key's requests in flight, against the cap. */
export interface KeyInFlight {
  readonly key: string;
  readonly inFlight: number;
}

/**
 * What `GET /__sim/metrics` exposes, as plain data: this process's decision counters, the
 * in-flight count of each key and the cap, the journal's size and drops, and the clock.
 * A {@link MetricsRenderer} turns it into the Prometheus text format.
 */
export interface MetricsSnapshot {
  readonly requests: readonly RequestCount[];
  readonly inFlight: readonly KeyInFlight[];
  readonly inFlightCap: number;
  /** The journal read (with a shared store, the one every process writes). */
  readonly journal: JournalInfo;
  /** The simulator clock, epoch ms. */
  readonly clockMs: number;
  readonly clockMode: ClockMode;
  /** Whether several processes share a store (the request counters are then per process). */
  readonly shared: boolean;
}

/** Renders a snapshot as the body of `GET /__sim/metrics`, with its content type. */
export type MetricsRenderer = (snapshot: MetricsSnapshot) => Promise<MetricsText> | MetricsText;

/** A rendered exposition. */
export interface MetricsText {
  readonly text: string;
  readonly contentType: string;
}
