import type { StepRef } from '../faults/fault-plan.js';
import type { AdmissionRule } from '../admission/rules.js';
import type { JournalEntry, JournalReason, Outcome, WindowCheck } from './journal-entry.js';

/**
 * The journal's entries kept as columns: one typed array per number, one array of references
 * per string or list, and the window checks in a ring of their own. A full journal holds
 * 100,000 entries for as long as the simulator runs; as objects (an entry, its checks array,
 * two check objects, boxed numbers) each cost about 700 bytes of old-generation heap and ten
 * objects for the collector to mark, as columns about 300 bytes and none. Entries are made
 * again as objects only when read.
 */
export interface EntryColumns {
  /** Entries kept. */
  readonly size: number;
  /**
   * Appends an entry after the others; when `capacity` entries are kept, drops the oldest
   * first. Returns whether one was dropped.
   */
  append(entry: JournalEntry): boolean;
  /** The `i`-th entry from the oldest (0 ≤ i < size), made as an object. */
  entry(i: number): JournalEntry;
  /** Fields of the `i`-th entry, read without making it (for filters). */
  seq(i: number): number;
  at(i: number): number;
  identity(i: number): string;
  route(i: number): string | null;
  path(i: number): string;
  outcome(i: number): Outcome;
  /** Drops every entry. */
  clear(): void;
}

/** Slots made at first; the columns double when full, up to the capacity. */
const FIRST_SLOTS = 1024;

/** The missing number of a nullable number column. */
const NONE = Number.NaN;

/** Distinct reasons the columns keep one copy of. */
const MAX_INTERNED_REASONS = 1024;

const orNull = (value: number): number | null => (Number.isNaN(value) ? null : value);

/**
 * The window checks of the kept entries, oldest first, in a ring addressed by absolute
 * position (the n-th check ever appended is at n modulo the ring's length). Entries are
 * dropped in the order they were appended, so their checks are too: the ring holds exactly
 * the checks of the kept entries.
 */
function createCheckRing() {
  let slots = 0;
  let rule: AdmissionRule[] = [];
  let id: string[] = [];
  let limit = new Float64Array(0);
  let windowMs = new Float64Array(0);
  let order = new Float64Array(0);
  let at = new Float64Array(0);
  let allowed = new Uint8Array(0);
  /** Absolute positions of the oldest kept check and of the next one. */
  let head = 0;
  let tail = 0;

  const resize = (length: number): void => {
    const next = {
      rule: new Array<AdmissionRule>(length),
      id: new Array<string>(length),
      limit: new Float64Array(length),
      windowMs: new Float64Array(length),
      order: new Float64Array(length),
      at: new Float64Array(length),
      allowed: new Uint8Array(length),
    };
    for (let n = head; n < tail; n++) {
      const from = n % slots;
      const to = n % length;
      next.rule[to] = rule[from] as AdmissionRule;
      next.id[to] = id[from] as string;
      next.limit[to] = limit[from] as number;
      next.windowMs[to] = windowMs[from] as number;
      next.order[to] = order[from] as number;
      next.at[to] = at[from] as number;
      next.allowed[to] = allowed[from] as number;
    }
    ({ rule, id, limit, windowMs, order, at, allowed } = next);
    slots = length;
  };

  return {
    /** Appends an entry's checks; their absolute position. */
    append(checks: readonly WindowCheck[]): number {
      const from = tail;
      for (const check of checks) {
        if (tail - head === slots) resize(Math.max(FIRST_SLOTS, slots * 2));
        const s = tail % slots;
        rule[s] = check.rule;
        id[s] = check.id;
        limit[s] = check.limit;
        windowMs[s] = check.windowMs;
        order[s] = check.order;
        at[s] = check.at ?? NONE;
        allowed[s] = check.allowed ? 1 : 0;
        tail++;
      }
      return from;
    },
    /** Drops the `count` oldest checks (those of the oldest entry). */
    drop(count: number): void {
      head += count;
    },
    /** The checks at absolute positions [from, from + count), made as objects. */
    read(from: number, count: number): WindowCheck[] {
      const out: WindowCheck[] = [];
      for (let n = from; n < from + count; n++) {
        const s = n % slots;
        const check = { rule: rule[s] as AdmissionRule, id: id[s] as string, limit: limit[s] as number, windowMs: windowMs[s] as number, allowed: allowed[s] === 1, order: order[s] as number };
        const judgedAt = at[s] as number;
        out.push(Number.isNaN(judgedAt) ? check : { ...check, at: judgedAt });
      }
      return out;
    },
    clear(): void {
      head = 0;
      tail = 0;
      slots = 0;
      resize(0);
    },
  };
}

/** The columns of at most `capacity` entries (see {@link EntryColumns}). */
export function createEntryColumns(capacity: number): EntryColumns {
  const checks = createCheckRing();
  let slots = 0;
  let start = 0;
  let size = 0;
  let seq = new Float64Array(0);
  let at = new Float64Array(0);
  let status = new Uint16Array(0);
  let inFlight = new Float64Array(0);
  let inFlightCap = new Float64Array(0);
  let retryAfter = new Float64Array(0);
  let checkFrom = new Float64Array(0);
  let checkCount = new Uint8Array(0);
  let requestId: string[] = [];
  let method: string[] = [];
  let path: string[] = [];
  let route: (string | null)[] = [];
  let identity: string[] = [];
  let keyId: (string | null)[] = [];
  let outcome: Outcome[] = [];
  let faults: (readonly StepRef[])[] = [];
  let fingerprint: string[] = [];
  let warnings: (readonly string[])[] = [];
  let reason: (JournalReason | null)[] = [];
  /** Reasons kept once each: a run's refusals say the same few things (a 429, a bad field) many times. */
  let reasons = new Map<string, JournalReason>();

  const slot = (i: number): number => (start + i) % slots;

  /** The last fingerprint kept: a run of the same request (a load test's) keeps one copy of it, not one per entry. */
  let lastFingerprint = '';

  /** The one kept copy of a reason; past {@link MAX_INTERNED_REASONS} distinct ones the table starts again. */
  let lastReason: JournalReason | null = null;
  const intern = (r: JournalReason): JournalReason => {
    // A run of refusals (a 429 storm) says the same thing again and again: no key to build for a repeat.
    const last = lastReason;
    if (last !== null && last.code === r.code && last.message === r.message && last.field === r.field && last.cause === r.cause && last.fix === r.fix) return last;
    const key = `${r.code}\u0000${r.message}\u0000${r.field}\u0000${r.cause}\u0000${r.fix}`;
    let kept = reasons.get(key);
    if (kept === undefined) {
      if (reasons.size >= MAX_INTERNED_REASONS) reasons = new Map();
      reasons.set(key, (kept = r));
    }
    lastReason = kept;
    return kept;
  };

  /** Re-lays the kept entries, oldest first, from slot 0 of columns `length` long. */
  const resize = (length: number): void => {
    const order = Array.from({ length: size }, (_, i) => slot(i));
    const numbers = <T extends Float64Array | Uint16Array | Uint8Array>(column: T, make: (n: number) => T): T => {
      const next = make(length);
      order.forEach((from, to) => (next[to] = column[from] as number));
      return next;
    };
    const refs = <T>(column: T[]): T[] => {
      const next = new Array<T>(length);
      order.forEach((from, to) => (next[to] = column[from] as T));
      return next;
    };
    const f64 = (n: number) => new Float64Array(n);
    seq = numbers(seq, f64);
    at = numbers(at, f64);
    status = numbers(status, (n) => new Uint16Array(n));
    inFlight = numbers(inFlight, f64);
    inFlightCap = numbers(inFlightCap, f64);
    retryAfter = numbers(retryAfter, f64);
    checkFrom = numbers(checkFrom, f64);
    checkCount = numbers(checkCount, (n) => new Uint8Array(n));
    requestId = refs(requestId);
    method = refs(method);
    path = refs(path);
    route = refs(route);
    identity = refs(identity);
    keyId = refs(keyId);
    outcome = refs(outcome);
    faults = refs(faults);
    fingerprint = refs(fingerprint);
    warnings = refs(warnings);
    reason = refs(reason);
    slots = length;
    start = 0;
  };

  const write = (s: number, e: JournalEntry): void => {
    seq[s] = e.seq;
    at[s] = e.at;
    status[s] = e.status;
    inFlight[s] = e.inFlight ?? NONE;
    inFlightCap[s] = e.inFlightCap ?? NONE;
    retryAfter[s] = e.retryAfter ?? NONE;
    // A request meets at most three windows; the count's column holds up to 255.
    checkFrom[s] = checks.append(e.checks.length > 255 ? e.checks.slice(0, 255) : e.checks);
    checkCount[s] = Math.min(e.checks.length, 255);
    requestId[s] = e.requestId;
    method[s] = e.method;
    // Most paths are their route's pattern: one string for all of them.
    path[s] = e.path === e.route ? e.route : e.path;
    route[s] = e.route;
    identity[s] = e.identity;
    keyId[s] = e.keyId;
    outcome[s] = e.outcome;
    faults[s] = e.faults;
    fingerprint[s] = e.fingerprint === lastFingerprint ? lastFingerprint : (lastFingerprint = e.fingerprint);
    warnings[s] = e.warnings;
    reason[s] = e.reason === null ? null : intern(e.reason);
  };

  return {
    get size() {
      return size;
    },
    append(e) {
      if (size === slots && slots < capacity) resize(Math.min(capacity, Math.max(FIRST_SLOTS, slots * 2)));
      if (size < slots) {
        write(slot(size), e);
        size++;
        return false;
      }
      checks.drop(checkCount[start] as number);
      write(start, e);
      start = (start + 1) % slots;
      return true;
    },
    entry(i) {
      const s = slot(i);
      return {
        seq: seq[s] as number,
        at: at[s] as number,
        requestId: requestId[s] as string,
        method: method[s] as string,
        path: path[s] as string,
        route: route[s] as string | null,
        identity: identity[s] as string,
        keyId: keyId[s] as string | null,
        outcome: outcome[s] as Outcome,
        status: status[s] as number,
        checks: checks.read(checkFrom[s] as number, checkCount[s] as number),
        inFlight: orNull(inFlight[s] as number),
        inFlightCap: orNull(inFlightCap[s] as number),
        faults: faults[s] as readonly StepRef[],
        fingerprint: fingerprint[s] as string,
        retryAfter: orNull(retryAfter[s] as number),
        warnings: warnings[s] as readonly string[],
        reason: reason[s] as JournalReason | null,
      };
    },
    seq: (i) => seq[slot(i)] as number,
    at: (i) => at[slot(i)] as number,
    identity: (i) => identity[slot(i)] as string,
    route: (i) => route[slot(i)] as string | null,
    path: (i) => path[slot(i)] as string,
    outcome: (i) => outcome[slot(i)] as Outcome,
    clear() {
      size = 0;
      start = 0;
      resize(0);
      checks.clear();
      reasons = new Map();
      lastReason = null;
    },
  };
}
