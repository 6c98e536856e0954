import type { SharedSlot, SharedStore, SharedWindowDecision, WindowAsk } from '../store/shared-store.js';
import type { Admission } from './admission.js';
import type { WindowRule } from './rules.js';
import type { WindowDecision } from './sliding-log.js';

/** A window's decision, numbered: `order` is the check's place in the run (the oracle replays in that order). */
export interface CheckedWindow {
  readonly decision: WindowDecision;
  readonly order: number;
  /** The instant the store judged the check at, when it is not the request's (a shared store's clock). */
  readonly at?: number;
}

/** An in-flight slot asked for: taken or not, how many were held, and the slot's own name (a shared store's lease). */
export type InFlightSlot = SharedSlot;

/**
 * What the admission stages ask of where limits live: check a window, take and give back an
 * in-flight slot. Two implementations, one per store: in this process's memory
 * ({@link createMemoryLimiter}: synchronous, so the in-memory path makes no promise) and in a
 * shared store several processes use ({@link createSharedLimiter}). The stages never ask which.
 * A failing store throws or rejects; the stages answer 503 for it.
 */
export interface Limiter {
  /** Checks one window and, when admitted, records the request in it; null when no window could judge it (a full identity table). */
  check(rule: WindowRule, now: number): CheckedWindow | null | Promise<CheckedWindow | null>;
  /** Takes a slot of `fingerprint` unless `cap` are held. */
  acquire(fingerprint: string, cap: number): InFlightSlot | Promise<InFlightSlot>;
  /** Gives a slot back (its lease, for a shared store); never fails: a slot a store cannot take back expires there. */
  release(fingerprint: string, lease: string | null): void | Promise<void>;
  /**
   * Takes a slot as `acquire` does and, only when it is taken, checks `rule` at `now` as `check`
   * does, in one atomic step: the in-flight gate and the per-key quota are consecutive stages,
   * so a store asked over the network is asked once for both (`checked` is undefined when the
   * slot was refused). Absent (memory): the stages ask one at a time.
   */
  acquireThenCheck?(fingerprint: string, cap: number, rule: WindowRule, now: number): Promise<{ slot: InFlightSlot; checked: CheckedWindow | null | undefined }>;
}

/** The limiter of one process: the simulator's admission store, in-flight gate and journal's check numbers. */
export function createMemoryLimiter(admission: Admission): Limiter {
  return {
    check(rule, now) {
      const order = admission.journal.nextCheck();
      const pending = admission.store.consume(rule.id, now, rule.limit, rule.windowMs);
      if (pending instanceof Promise) return pending.then((decision) => (decision.unavailable === true ? null : { decision, order }));
      return pending.unavailable === true ? null : { decision: pending, order };
    },
    acquire(fingerprint, cap) {
      const { acquired, held } = admission.gate.acquire(fingerprint, cap);
      return { acquired, held, lease: null };
    },
    release(fingerprint) {
      admission.gate.release(fingerprint);
    },
  };
}

/** A shared store's decision as a numbered check (with the instant it was judged at when it is not `now`). */
export function checkedOf(decision: SharedWindowDecision, now: number): CheckedWindow {
  return decision.at === now ? { decision, order: decision.order } : { decision, order: decision.order, at: decision.at };
}

/** A window rule asked of a shared store at `now`. */
export function windowAsk(rule: WindowRule, now: number): WindowAsk {
  return { id: rule.id, now, limit: rule.limit, windowMs: rule.windowMs };
}

/** The limiter of a simulator several processes serve: windows and leases in the shared store, which numbers every check. */
export function createSharedLimiter(store: SharedStore): Limiter {
  return {
    check: (rule, now) => store.windows.consume(rule.id, now, rule.limit, rule.windowMs).then((decision) => checkedOf(decision, now)),
    acquire: (fingerprint, cap) => store.leases.acquire(fingerprint, cap),
    release: (fingerprint, lease) => (lease === null ? undefined : store.leases.release(fingerprint, lease).catch(() => undefined)),
    acquireThenCheck: (fingerprint, cap, rule, now) =>
      store.leases.acquireThenConsume(fingerprint, cap, windowAsk(rule, now)).then(({ slot, decision }) => ({
        slot,
        checked: decision === null ? undefined : checkedOf(decision, now),
      })),
  };
}
