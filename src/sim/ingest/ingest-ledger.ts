import { DAY_MS } from '../model/world.js';

/**
 * The ingested-record ledger: what the ingestion routes accepted (page views, outgoing links,
 * web vitals, errors, engagement spans, AI-crawler hits, MCP calls, webhook revenue …), kept per
 * kind, per website and per UTC day, in arrival order. The query families read a website-day's
 * records beside the generated traffic of that day, so ingested and generated data add up in the
 * same aggregates. Empty in the seeded state; a reset makes a new, empty ledger.
 *
 * Bounded: at most `maxRecords` records and `maxChars` characters of record text in all, and at
 * most `maxRecords` event ids remembered for de-duplication. Append-only, so a count of what a
 * set of websites and days holds grows exactly when one of those days gained a record: the
 * query result cache keys on {@link IngestLedger.countTouching}.
 */

/** What every ingested record has: the instant it happened, epoch ms (it picks the record's day). */
export interface IngestRecord {
  readonly timestamp: number;
}

/**
 * A kind of ingested record: a name unique among kinds, and how many characters of text a record
 * holds (its strings' lengths: the memory bound counts them). Declared once, in the file of the
 * route that writes the kind, with {@link defineIngestKind}.
 */
export interface IngestKind<T extends IngestRecord> {
  readonly name: string;
  readonly charsOf: (record: T) => number;
}

/** Declares a kind of ingested record. */
export function defineIngestKind<T extends IngestRecord>(name: string, charsOf: (record: T) => number): IngestKind<T> {
  return { name, charsOf };
}

/** Bounds of a ledger. */
export interface IngestLedgerLimits {
  /** Records kept at most, all kinds together (and event ids remembered at most). */
  readonly maxRecords: number;
  /** Characters of record text kept at most: a memory bound. */
  readonly maxChars: number;
}

/** Default bounds: a million records and 256 Mi characters, as for tracked events. */
export const DEFAULT_INGEST_LEDGER_LIMITS: IngestLedgerLimits = { maxRecords: 1_000_000, maxChars: 256 * 1024 * 1024 };

/** What an append decided: all records kept, or none (nothing is half-written). */
export type IngestAppendResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'records' | 'chars' };

/** The ledger of one simulator run. */
export interface IngestLedger {
  readonly limits: IngestLedgerLimits;
  /** Records kept, all kinds. */
  readonly size: number;
  /**
   * Appends records of one kind to a website, each on the UTC day of its timestamp: all of them,
   * or none when they would pass a bound.
   */
  append<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string, records: readonly T[]): IngestAppendResult;
  /** The records of a kind a website holds on a UTC day (days since the epoch), in arrival order. */
  onDay<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string, day: number): readonly T[];
  /** Whether a website holds any record of a kind on any day: lets a scan skip the ledger. */
  holds<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string): boolean;
  /**
   * How many records (all kinds) the websites hold on the UTC days that [fromMs, toMs] touches.
   * Costs one step per day that holds records, never one per record.
   */
  countTouching(websiteIds: readonly string[], fromMs: number, toMs: number): number;
  /**
   * Reserves an event id for de-duplication (the service keys it on client id, type and event
   * id): true the first time, false for a duplicate. Remembers at most `maxRecords` ids, and
   * forgets the oldest past that.
   */
  claimEventId(key: string): boolean;
  /**
   * Gives back an id {@link IngestLedger.claimEventId} reserved for records that were not stored
   * after all (an append refused by a bound), so that a retry of them is not taken for a duplicate.
   */
  releaseEventId(key: string): void;
}

/** Creates an empty ledger. */
export function createIngestLedger(limits: Partial<IngestLedgerLimits> = {}): IngestLedger {
  const bounds: IngestLedgerLimits = { ...DEFAULT_INGEST_LEDGER_LIMITS, ...limits };
  /** kind name → website id → day → records. */
  const kinds = new Map<string, Map<string, Map<number, IngestRecord[]>>>();
  /** website id → day → records of every kind. */
  const counts = new Map<string, Map<number, number>>();
  const eventIds = new Set<string>();
  let size = 0;
  let chars = 0;
  return {
    limits: bounds,
    get size() {
      return size;
    },
    append(kind, websiteId, records) {
      let added = 0;
      for (const record of records) added += kind.charsOf(record);
      if (size + records.length > bounds.maxRecords) return { ok: false, reason: 'records' };
      if (chars + added > bounds.maxChars) return { ok: false, reason: 'chars' };
      let sites = kinds.get(kind.name);
      if (!sites) kinds.set(kind.name, (sites = new Map()));
      let days = sites.get(websiteId);
      if (!days) sites.set(websiteId, (days = new Map()));
      let tally = counts.get(websiteId);
      if (!tally) counts.set(websiteId, (tally = new Map()));
      for (const record of records) {
        const day = Math.floor(record.timestamp / DAY_MS);
        let list = days.get(day);
        if (!list) days.set(day, (list = []));
        list.push(record);
        tally.set(day, (tally.get(day) ?? 0) + 1);
      }
      size += records.length;
      chars += added;
      return { ok: true };
    },
    onDay<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string, day: number): readonly T[] {
      return (kinds.get(kind.name)?.get(websiteId)?.get(day) as T[] | undefined) ?? [];
    },
    holds(kind, websiteId) {
      return kinds.get(kind.name)?.has(websiteId) ?? false;
    },
    countTouching(websiteIds, fromMs, toMs) {
      const firstDay = Math.floor(fromMs / DAY_MS);
      const lastDay = Math.floor(toMs / DAY_MS);
      let total = 0;
      for (const id of websiteIds) {
        const tally = counts.get(id);
        if (!tally) continue;
        for (const [day, n] of tally) if (day >= firstDay && day <= lastDay) total += n;
      }
      return total;
    },
    claimEventId(key) {
      if (eventIds.has(key)) return false;
      eventIds.add(key);
      if (eventIds.size > bounds.maxRecords) eventIds.delete(eventIds.values().next().value as string);
      return true;
    },
    releaseEventId(key) {
      eventIds.delete(key);
    },
  };
}
