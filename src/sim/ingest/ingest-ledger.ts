import { DAY_MS } from '../model/world.js';
import { createIntakeHold, NO_INTAKE_DELAY, type IntakeHold } from './intake-hold.js';
import { createSortedDayIndex } from './sorted-times.js';

/**
 * The ingested-record ledger: what the ingestion routes accepted (page views, outgoing links,
 * web vitals, errors, engagement spans, AI-crawler hits, MCP calls, webhook revenue …), kept per
 * kind, per website and per UTC day, in arrival order. The query families read a website-day's
 * records beside the generated traffic of that day, so ingested and generated data add up in the
 * same aggregates. Empty in the seeded state; a reset makes a new, empty ledger.
 *
 * A record's owner is its website's id; records that belong to an organization rather than to one
 * of its websites (MCP calls sent without a websiteId) are kept under `organizationOwner(id)` of
 * event-store.ts, as tracked events are.
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

/** Records of one kind for one website, to append with others at once. */
export interface IngestPart<T extends IngestRecord = IngestRecord> {
  readonly kind: IngestKind<T>;
  readonly websiteId: string;
  readonly records: readonly T[];
}

/** A part of one kind for {@link IngestLedger.appendAll}. */
export function ingestPart<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string, records: readonly T[]): IngestPart {
  // charsOf only ever receives this kind's own records.
  return { kind: kind as unknown as IngestKind<IngestRecord>, websiteId, records };
}

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
  /** Appends several parts at once: all of them, or none when together they would pass a bound. */
  appendAll(parts: readonly IngestPart[]): IngestAppendResult;
  /**
   * Appends records of one kind to several owners at once (owner → its records): all of them, or
   * none when they would pass a bound.
   */
  appendGroups<T extends IngestRecord>(kind: IngestKind<T>, groups: ReadonlyMap<string, readonly T[]>): IngestAppendResult;
  /** The records of a kind a website holds on a UTC day (days since the epoch), in arrival order. */
  onDay<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string, day: number): readonly T[];
  /** Whether a website holds any record of a kind on any day: lets a scan skip the ledger. */
  holds<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string): boolean;
  /** The first UTC day (days since the epoch) on which a website holds a record of a kind; null when it holds none. */
  firstDay<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string): number | null;
  /**
   * How many records (all kinds) the websites hold on the UTC days that [fromMs, toMs] touches.
   * Costs one step per day that holds records, never one per record.
   */
  countTouching(websiteIds: readonly string[], fromMs: number, toMs: number): number;
  /** Records of every kind the websites hold on any day, in one step per website. */
  countOwned(websiteIds: readonly string[]): number;
  /**
   * The latest record time (all kinds) the websites hold within [fromMs, toMs], or -Infinity
   * when they hold none there: a binary search per website and day touched.
   */
  latestWithin(websiteIds: readonly string[], fromMs: number, toMs: number): number;
  /**
   * Reserves an event id for de-duplication (the service keys it on client id, type and event
   * id): true the first time, false for a duplicate. Remembers at most `maxRecords` ids, and
   * forgets the oldest past that.
   */
  claimEventId(key: string): boolean;
  /** Whether an event id was claimed (and is still remembered). */
  hasEventId(key: string): boolean;
  /**
   * A website's number for an ingested visitor (0, 1, 2 … in order of first appearance), the
   * same on every day: what the query families count distinct visitors by.
   */
  visitorNumber(websiteId: string, visitorId: string): number;
  /**
   * Gives back an id {@link IngestLedger.claimEventId} reserved, for records that were then not
   * appended (a bound refused them): a later delivery of the same records is new again.
   */
  releaseEventId(key: string): void;
}

/**
 * Creates an empty ledger. With an ingestion delay (`hold`), records are checked against the
 * bounds (counting those still held) when they are accepted and written once their delay has passed.
 */
export function createIngestLedger(limits: Partial<IngestLedgerLimits> = {}, hold: IntakeHold = createIntakeHold(NO_INTAKE_DELAY)): IngestLedger {
  const bounds: IngestLedgerLimits = { ...DEFAULT_INGEST_LEDGER_LIMITS, ...limits };
  /** kind name → website id → day → records. */
  const kinds = new Map<string, Map<string, Map<number, IngestRecord[]>>>();
  /** The times of every kind's records by website and day, sorted, and each website's count. */
  const index = createSortedDayIndex();
  const eventIds = new Set<string>();
  const visitors = new Map<string, Map<string, number>>();
  let size = 0;
  let chars = 0;
  /** Records and characters the ingestion delay still holds (they count against the bounds). */
  let heldRecords = 0;
  let heldChars = 0;
  /** Checks every bound for all parts, then writes them all (now, or once the ingestion delay has passed). */
  function appendAll(parts: readonly IngestPart[]): IngestAppendResult {
    let count = 0;
    let added = 0;
    for (const part of parts) {
      count += part.records.length;
      for (const record of part.records) added += part.kind.charsOf(record);
    }
    if (size + heldRecords + count > bounds.maxRecords) return { ok: false, reason: 'records' };
    if (chars + heldChars + added > bounds.maxChars) return { ok: false, reason: 'chars' };
    let held = false;
    const written = hold.defer(() => {
      if (held) {
        heldRecords -= count;
        heldChars -= added;
      }
      write(parts, count, added);
    });
    if (!written) {
      held = true;
      heldRecords += count;
      heldChars += added;
    }
    return { ok: true };
  }
  /** Writes parts whose bounds were checked. */
  function write(parts: readonly IngestPart[], count: number, added: number): void {
    for (const { kind, websiteId, records } of parts) {
      if (records.length === 0) continue;
      let sites = kinds.get(kind.name);
      if (!sites) kinds.set(kind.name, (sites = new Map()));
      let days = sites.get(websiteId);
      if (!days) sites.set(websiteId, (days = new Map()));
      for (const record of records) {
        const day = Math.floor(record.timestamp / DAY_MS);
        let list = days.get(day);
        if (!list) days.set(day, (list = []));
        list.push(record);
        index.add(websiteId, record.timestamp);
      }
    }
    size += count;
    chars += added;
  }
  return {
    limits: bounds,
    get size() {
      return size;
    },
    appendGroups(kind, groups) {
      return appendAll([...groups].map(([websiteId, records]) => ingestPart(kind, websiteId, records)));
    },
    append(kind, websiteId, records) {
      return appendAll([ingestPart(kind, websiteId, records)]);
    },
    appendAll,
    onDay<T extends IngestRecord>(kind: IngestKind<T>, websiteId: string, day: number): readonly T[] {
      return (kinds.get(kind.name)?.get(websiteId)?.get(day) as T[] | undefined) ?? [];
    },
    holds(kind, websiteId) {
      return kinds.get(kind.name)?.has(websiteId) ?? false;
    },
    firstDay(kind, websiteId) {
      const days = kinds.get(kind.name)?.get(websiteId);
      if (!days) return null;
      let first: number | null = null;
      for (const day of days.keys()) if (first === null || day < first) first = day;
      return first;
    },
    countTouching: index.countTouching,
    latestWithin: index.latestWithin,
    countOwned: index.countOwned,
    claimEventId(key) {
      if (eventIds.has(key)) return false;
      eventIds.add(key);
      if (eventIds.size > bounds.maxRecords) eventIds.delete(eventIds.values().next().value as string);
      return true;
    },
    hasEventId(key) {
      return eventIds.has(key);
    },
    visitorNumber(websiteId, visitorId) {
      let numbers = visitors.get(websiteId);
      if (!numbers) visitors.set(websiteId, (numbers = new Map()));
      let number = numbers.get(visitorId);
      if (number === undefined) numbers.set(visitorId, (number = numbers.size));
      return number;
    },
    releaseEventId(key) {
      eventIds.delete(key);
    },
  };
}
