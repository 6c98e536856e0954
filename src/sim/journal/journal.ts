import type { AdmissionRule } from '../admission/rules.js';
import type { StepRef } from '../faults/fault-plan.js';

/** One sliding-window check made for a request: enough for an oracle to replay it. */
export interface WindowCheck {
  readonly rule: AdmissionRule;
  /** The window's identity in the store, e.g. `api-key:key_x` or `query:execute:anon:1.2.3.4`. */
  readonly id: string;
  readonly limit: number;
  readonly windowMs: number;
  readonly allowed: boolean;
  /** Position of this check among all window checks of the simulator: the order the store saw them. */
  readonly order: number;
  /**
   * The instant the store judged the check at, when it differs from the entry's `at` (a shared
   * store judges a window's checks in order of arrival, and two processes' clocks may differ
   * by a millisecond).
   */
  readonly at?: number;
}

/** `admitted`, the rule that refused the request, or `scenario` for an injected fault. */
export type Outcome = 'admitted' | AdmissionRule | 'scenario';

/**
 * One admission decision and its response. Identities name keys by id and users by id,
 * never by secret or token.
 */
export interface JournalEntry {
  /**
   * Position of the request's arrival since the simulator started or was reset (reserved when
   * it arrives, so entries list in arrival order even when they finish out of order).
   */
  readonly seq: number;
  /** Simulator clock time of the decision, epoch ms. */
  readonly at: number;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The matched route pattern, or null when no route matched. */
  readonly route: string | null;
  /** `apikey:<id>`, `user:<id>` or `anon:<ip>`. */
  readonly identity: string;
  readonly keyId: string | null;
  readonly outcome: Outcome;
  readonly status: number;
  /** Window checks made, in order. */
  readonly checks: readonly WindowCheck[];
  /** Requests of the same key in flight before this one (when the gate applied). */
  readonly inFlight: number | null;
  /** The in-flight cap at the time (when the gate applied). */
  readonly inFlightCap: number | null;
  /** Scenario steps that touched the request (the first refusing one decided it). */
  readonly faults: readonly StepRef[];
  /** Hash of method, path, query and body: the same request sent again has the same one. */
  readonly fingerprint: string;
  /** The Retry-After the response carried, in seconds, or null. */
  readonly retryAfter: number | null;
  /** What the simulator ignored or reinterpreted in the request (the `Warning` headers it sent). */
  readonly warnings: readonly string[];
}

/** Filters of a journal listing. All are optional and combine with AND. */
export interface JournalQuery {
  readonly identity?: string;
  readonly route?: string;
  readonly outcome?: string;
  /** Inclusive bounds on `at`, epoch ms. */
  readonly since?: number;
  readonly until?: number;
  /** At most this many entries, the newest last (default all). */
  readonly limit?: number;
}

/** What the journal knows about its own completeness. */
export interface JournalInfo {
  /** True while every decision since the admission state was empty is kept. */
  readonly complete: boolean;
  /** Clock time from which decisions are kept. */
  readonly since: number;
  readonly capacity: number;
  readonly size: number;
  readonly dropped: number;
}

/** A bounded, ordered record of admission decisions. */
export interface Journal {
  /** Reserves the sequence number of an arriving request. */
  reserve(): number;
  /** The order number of the next window check. */
  nextCheck(): number;
  /** Records a finished request under the number it reserved. */
  record(entry: JournalEntry): void;
  list(query?: JournalQuery): JournalEntry[];
  info(): JournalInfo;
  /** Drops the entries (the admission state stays: the journal is then incomplete). */
  clear(now: number): void;
  /** Drops the entries together with the admission state (after a reset). */
  restart(now: number): void;
}

/** The entries of an ordered list that pass a journal query's filters, the newest `limit` of them. */
export function filterEntries(entries: readonly JournalEntry[], query: JournalQuery = {}): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const e of entries) {
    if (query.identity !== undefined && e.identity !== query.identity) continue;
    if (query.route !== undefined && e.route !== query.route && e.path !== query.route) continue;
    if (query.outcome !== undefined && e.outcome !== query.outcome) continue;
    if (query.since !== undefined && e.at < query.since) continue;
    if (query.until !== undefined && e.at > query.until) continue;
    out.push(e);
  }
  return query.limit !== undefined && out.length > query.limit ? out.slice(out.length - query.limit) : out;
}

/** Entries kept by default: the newest 100,000. */
export const DEFAULT_JOURNAL_CAPACITY = 100_000;

/** Creates an empty journal that keeps at most `capacity` entries, dropping the oldest. */
export function createJournal(now: number, capacity = DEFAULT_JOURNAL_CAPACITY): Journal {
  let ring: (JournalEntry | undefined)[] = new Array(Math.min(capacity, 1024));
  let start = 0;
  let size = 0;
  let seq = 0;
  let checks = 0;
  let ordered = true;
  let dropped = 0;
  let complete = true;
  let since = now;

  const at = (i: number): JournalEntry => ring[(start + i) % ring.length] as JournalEntry;

  return {
    reserve: () => ++seq,
    nextCheck: () => ++checks,
    record(full) {
      if (size > 0 && full.seq < at(size - 1).seq) ordered = false;
      if (size === ring.length && ring.length < capacity) {
        const grown: (JournalEntry | undefined)[] = new Array(Math.min(capacity, ring.length * 2));
        for (let i = 0; i < size; i++) grown[i] = at(i);
        ring = grown;
        start = 0;
      }
      if (size < ring.length) {
        ring[(start + size) % ring.length] = full;
        size++;
      } else {
        ring[start] = full;
        start = (start + 1) % ring.length;
        dropped++;
        complete = false;
        since = at(0).at;
      }
    },
    list(query = {}) {
      if (!ordered) {
        const sorted = Array.from({ length: size }, (_, i) => at(i)).sort((a, b) => a.seq - b.seq);
        ring = sorted;
        start = 0;
        ordered = true;
      }
      return filterEntries(Array.from({ length: size }, (_, i) => at(i)), query);
    },
    info: () => ({ complete, since, capacity, size, dropped }),
    clear(now) {
      ring = new Array(Math.min(capacity, 1024));
      start = 0;
      size = 0;
      dropped = 0;
      complete = false;
      since = now;
    },
    restart(now) {
      ring = new Array(Math.min(capacity, 1024));
      start = 0;
      size = 0;
      seq = 0;
      checks = 0;
      dropped = 0;
      complete = true;
      since = now;
    },
  };
}
