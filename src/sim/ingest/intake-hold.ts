/**
 * The ingestion delay (`--ingest-delay`): how long an accepted record waits before any query
 * sees it, as the live pipeline's lag makes a client wait. With no delay (the default) a store
 * writes at once; with one, the stores check their bounds when a record is accepted (so the
 * answer the sender gets is final) and hand the write to this queue, which applies it once the
 * clock reaches its due instant (accepted + the delay in force then).
 */
export interface IntakeHold {
  /**
   * Runs `write` at once when there is no delay; otherwise keeps it until {@link release} is
   * called at or after now + delay. Returns whether it ran at once.
   */
  defer(write: () => void): boolean;
  /** Applies every kept write whose due instant is at or before `now`, in acceptance order. */
  release(now: number): void;
  /** Writes kept, not yet applied. */
  readonly pending: number;
}

/** Where an {@link IntakeHold} reads the clock and the delay in force. */
export interface IntakeHoldSource {
  readonly now: () => number;
  readonly delayMs: () => number;
}

/** No delay, ever: every write applies at once (a state built without a source). */
export const NO_INTAKE_DELAY: IntakeHoldSource = { now: () => 0, delayMs: () => 0 };

/** Creates an empty hold over a clock and a delay setting. */
export function createIntakeHold(source: IntakeHoldSource): IntakeHold {
  /** Kept writes in acceptance order. */
  let kept: { readonly due: number; readonly write: () => void }[] = [];
  return {
    defer(write) {
      const delay = Math.max(0, source.delayMs());
      if (delay === 0) {
        write();
        return true;
      }
      kept.push({ due: source.now() + delay, write });
      return false;
    },
    release(now) {
      if (kept.length === 0 || (kept[0] as { due: number }).due > now) return;
      const waiting: typeof kept = [];
      for (const entry of kept) {
        if (entry.due <= now) entry.write();
        else waiting.push(entry);
      }
      kept = waiting;
    },
    get pending() {
      return kept.length;
    },
  };
}
