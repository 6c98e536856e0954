import { consumeSlot, createSlidingLog, heldSlots, peekSlots, pruneLog, type SlidingLog, type WindowDecision, type WindowUsage } from './sliding-log.js';

/**
 * Where admission state lives. Methods may return promises so that a shared store (Redis)
 * can stand behind the same interface; a failure (throw or rejection) makes the simulator
 * answer 503 SERVICE_UNAVAILABLE instead of guessing.
 */
export interface AdmissionStore {
  /** Checks and, when admitted, records one request in the window of `id`. */
  consume(id: string, now: number, limit: number, windowMs: number): WindowDecision | Promise<WindowDecision>;
  /**
   * What the window of `id` holds at `now`, recording nothing (the inspector's
   * `GET /__sim/limits`). Optional: a store without it is reported as unreadable.
   */
  peek?(id: string, now: number, limit: number, windowMs: number): WindowUsage | Promise<WindowUsage>;
  /** Forgets every window. */
  clear(): void | Promise<void>;
  /** Identities with a window in memory (for sizing and tests). */
  size(): number;
}

/** The least time between two sweeps of a full identity table. */
const FULL_SWEEP_GAP_MS = 1_000;

/** Operations between two sweeps of idle identities, at least (as many as there are identities, on a larger table). */
const SWEEP_EVERY = 4096;

/** Identities the in-memory store keeps a window for at most, by default. */
export const MAX_IDENTITIES = 100_000;

/**
 * The in-memory store: one sliding log per identity. Memory stays bounded by the traffic of
 * the last window: expired entries are pruned on use, and identities idle for a whole window
 * are swept periodically. The number of identities is capped (`maxIdentities`, default
 * {@link MAX_IDENTITIES}): a new identity arriving at a full table first sweeps the idle ones
 * (only windows with no entry left inside them, so forgetting one never admits more than the
 * limit); when every window is still in use, the new identity cannot be judged until the
 * earliest window empties: the decision says so (`unavailable`, answered 503 and journaled
 * with no check, since no window refused it) and its reset says when that is. The sweep of a
 * full table runs at most once a second (FULL_SWEEP_GAP_MS), so a table kept full by windows
 * that empty one by one cannot make every new identity pay for a sweep of all of them.
 */
export function createMemoryStore(options: { maxIdentities?: number } = {}): AdmissionStore {
  const maxIdentities = options.maxIdentities ?? MAX_IDENTITIES;
  const logs = new Map<string, { log: SlidingLog; windowMs: number }>();
  let operations = 0;
  /** No sweep of a full table before this instant: the first window to empty, and at least a second after the last sweep. */
  let noSweepBefore = -Infinity;

  /** Forgets every identity with no entry inside its window; returns when the next one empties. */
  function sweep(now: number): number {
    let nextEmpty = Infinity;
    for (const [id, entry] of logs) {
      pruneLog(entry.log, now, entry.windowMs);
      if (heldSlots(entry.log) === 0) logs.delete(id);
      else nextEmpty = Math.min(nextEmpty, (entry.log.times[entry.log.times.length - 1] as number) + entry.windowMs);
    }
    return nextEmpty;
  }

  return {
    consume(id, now, limit, windowMs) {
      // A sweep walks every identity, so a larger table is swept less often: at most one identity per operation.
      if (++operations >= Math.max(SWEEP_EVERY, logs.size)) {
        operations = 0;
        sweep(now);
      }
      let entry = logs.get(id);
      if (!entry) {
        if (logs.size >= maxIdentities) {
          if (now < noSweepBefore) return { allowed: false, limit, remaining: 0, reset: noSweepBefore, unavailable: true };
          const nextEmpty = sweep(now);
          noSweepBefore = now + FULL_SWEEP_GAP_MS;
          if (logs.size >= maxIdentities) {
            noSweepBefore = Math.max(nextEmpty, noSweepBefore);
            return { allowed: false, limit, remaining: 0, reset: noSweepBefore, unavailable: true };
          }
        }
        entry = { log: createSlidingLog(), windowMs };
        logs.set(id, entry);
      }
      entry.windowMs = windowMs;
      return consumeSlot(entry.log, now, limit, windowMs);
    },
    peek(id, now, limit, windowMs) {
      const entry = logs.get(id);
      return entry ? peekSlots(entry.log, now, limit, windowMs) : { limit, held: 0, remaining: limit, reset: null };
    },
    clear() {
      logs.clear();
      noSweepBefore = -Infinity;
    },
    size: () => logs.size,
  };
}
