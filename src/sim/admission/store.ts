import { consumeSlot, createSlidingLog, heldSlots, pruneLog, type SlidingLog, type WindowDecision } from './sliding-log.js';

/**
 * Where admission state lives. Methods may return promises so that a shared store (Redis)
 * can stand behind the same interface; a failure (throw or rejection) makes the simulator
 * answer 503 SERVICE_UNAVAILABLE instead of guessing.
 */
export interface AdmissionStore {
  /** Checks and, when admitted, records one request in the window of `id`. */
  consume(id: string, now: number, limit: number, windowMs: number): WindowDecision | Promise<WindowDecision>;
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
    clear() {
      logs.clear();
    },
    size: () => logs.size,
  };
}
