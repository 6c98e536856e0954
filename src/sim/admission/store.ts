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

/** Operations between two sweeps of idle identities. */
const SWEEP_EVERY = 4096;

/**
 * The in-memory store: one sliding log per identity. Memory stays bounded by the traffic of
 * the last window: expired entries are pruned on use, and identities idle for a whole window
 * are swept periodically.
 */
export function createMemoryStore(): AdmissionStore {
  const logs = new Map<string, { log: SlidingLog; windowMs: number }>();
  let operations = 0;

  function sweep(now: number): void {
    for (const [id, entry] of logs) {
      pruneLog(entry.log, now, entry.windowMs);
      if (heldSlots(entry.log) === 0) logs.delete(id);
    }
  }

  return {
    consume(id, now, limit, windowMs) {
      if (++operations % SWEEP_EVERY === 0) sweep(now);
      let entry = logs.get(id);
      if (!entry) {
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
    },
    size: () => logs.size,
  };
}
