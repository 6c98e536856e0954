import { createEntryColumns } from './entry-columns.js';
import type { JournalEntry } from './journal-entry.js';

export type { JournalEntry, Outcome, WindowCheck } from './journal-entry.js';

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

/** Whether an entry with these fields passes a journal query's filters (its `limit` aside). */
function passes(query: JournalQuery, identity: string, route: string | null, path: string, outcome: string, at: number): boolean {
  if (query.identity !== undefined && identity !== query.identity) return false;
  if (query.route !== undefined && route !== query.route && path !== query.route) return false;
  if (query.outcome !== undefined && outcome !== query.outcome) return false;
  if (query.since !== undefined && at < query.since) return false;
  if (query.until !== undefined && at > query.until) return false;
  return true;
}

/** The entries of an ordered list that pass a journal query's filters, the newest `limit` of them. */
export function filterEntries(entries: readonly JournalEntry[], query: JournalQuery = {}): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const e of entries) if (passes(query, e.identity, e.route, e.path, e.outcome, e.at)) out.push(e);
  return query.limit !== undefined && out.length > query.limit ? out.slice(out.length - query.limit) : out;
}

/** Entries kept by default: the newest 100,000. */
export const DEFAULT_JOURNAL_CAPACITY = 100_000;

/**
 * Creates an empty journal that keeps at most `capacity` entries, dropping the oldest. Entries
 * are kept as columns (`entry-columns.ts`) and made as objects again only when listed; a
 * listing with a `limit` reads from the newest back and makes only the entries it returns.
 */
export function createJournal(now: number, capacity = DEFAULT_JOURNAL_CAPACITY): Journal {
  const kept = createEntryColumns(capacity);
  let seq = 0;
  let checks = 0;
  let ordered = true;
  let dropped = 0;
  let complete = true;
  let since = now;

  /** Puts the kept entries in arrival order (requests can finish out of order). */
  const order = (): void => {
    const sorted = Array.from({ length: kept.size }, (_, i) => kept.entry(i)).sort((a, b) => a.seq - b.seq);
    kept.clear();
    for (const e of sorted) kept.append(e);
    ordered = true;
  };

  return {
    reserve: () => ++seq,
    nextCheck: () => ++checks,
    record(entry) {
      if (kept.size > 0 && entry.seq < kept.seq(kept.size - 1)) ordered = false;
      if (kept.append(entry)) {
        dropped++;
        complete = false;
        since = kept.at(0);
      }
    },
    list(query = {}) {
      if (!ordered) order();
      const limit = query.limit ?? Number.POSITIVE_INFINITY;
      const out: JournalEntry[] = [];
      for (let i = kept.size - 1; i >= 0 && out.length < limit; i--) {
        if (passes(query, kept.identity(i), kept.route(i), kept.path(i), kept.outcome(i), kept.at(i))) out.push(kept.entry(i));
      }
      return out.reverse();
    },
    info: () => ({ complete, since, capacity, size: kept.size, dropped }),
    clear(now) {
      kept.clear();
      ordered = true;
      dropped = 0;
      complete = false;
      since = now;
    },
    restart(now) {
      kept.clear();
      ordered = true;
      seq = 0;
      checks = 0;
      dropped = 0;
      complete = true;
      since = now;
    },
  };
}
