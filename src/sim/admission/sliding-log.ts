/**
 * An exact sliding-window log: the instants of admitted requests of one identity. An entry
 * admitted at `t` holds a slot during [t, t + window). Invariant: at any instant, the entries
 * holding a slot never exceed the limit, and a request is refused only when they equal it.
 */
export interface SlidingLog {
  /** Admitted instants, ascending; entries before `head` have expired. */
  times: number[];
  head: number;
}

/** The outcome of one check of a window: a value, never an exception. */
export interface WindowDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Slots left after this decision. */
  readonly remaining: number;
  /** Epoch ms when the next slot frees (now + window when none is held). */
  readonly reset: number;
  /**
   * Set when the store could not judge the request at all (its identity table is full of windows
   * in use): not a refusal by the window, so it is answered 503 and recorded as no check.
   */
  readonly unavailable?: true;
}

/** Creates an empty log. */
export function createSlidingLog(): SlidingLog {
  return { times: [], head: 0 };
}

/** Drops entries that no longer hold a slot at `now`; compacts the array now and then. */
export function pruneLog(log: SlidingLog, now: number, windowMs: number): void {
  const { times } = log;
  let head = log.head;
  while (head < times.length && (times[head] as number) <= now - windowMs) head++;
  if (head > 64 && head * 2 > times.length) {
    times.splice(0, head);
    head = 0;
  }
  log.head = head;
}

/** Slots held at `now` (after pruning). */
export function heldSlots(log: SlidingLog): number {
  return log.times.length - log.head;
}

/**
 * Checks one request against the window and records it when admitted. Time must not run
 * backwards across calls on the same log (the simulator clock guarantees it).
 */
export function consumeSlot(log: SlidingLog, now: number, limit: number, windowMs: number): WindowDecision {
  pruneLog(log, now, windowMs);
  const held = heldSlots(log);
  if (held >= limit) {
    // More may be held than the limit allows when the limit was lowered: a slot is free again
    // once all but limit − 1 of the held entries have expired.
    return { allowed: false, limit, remaining: 0, reset: (log.times[log.head + held - limit] as number) + windowMs };
  }
  log.times.push(now);
  const oldest = log.times[log.head] as number;
  return { allowed: true, limit, remaining: limit - held - 1, reset: oldest + windowMs };
}

/** Seconds a refused client should wait: max(1, ceil((reset − now) / 1000)). */
export function retryAfterSeconds(reset: number, now: number): number {
  return Math.max(1, Math.ceil((reset - now) / 1000));
}

/** What a window holds at an instant, read without recording anything. */
export interface WindowUsage {
  readonly limit: number;
  /** Slots held at the instant. */
  readonly held: number;
  /** Slots a request could take now: max(0, limit − held). */
  readonly remaining: number;
  /** Epoch ms when the next slot frees, or null when none is held. */
  readonly reset: number | null;
}

/**
 * Reads a log at `now` as {@link consumeSlot} would see it, without pruning or recording: safe
 * to call with any window, any number of times, between two requests.
 */
export function peekSlots(log: SlidingLog, now: number, limit: number, windowMs: number): WindowUsage {
  const { times } = log;
  // The first entry still holding a slot: times are ascending, so a binary search finds it.
  let lo = log.head;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((times[mid] as number) <= now - windowMs) lo = mid + 1;
    else hi = mid;
  }
  const held = times.length - lo;
  if (held === 0) return { limit, held, remaining: limit, reset: null };
  const freeing = held >= limit ? lo + held - limit : lo;
  return { limit, held, remaining: Math.max(0, limit - held), reset: (times[freeing] as number) + windowMs };
}
