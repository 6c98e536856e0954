/** A source of the current time in epoch milliseconds. The core reads time only through this. */
export interface Clock {
  now(): number;
}

/** `virtual`: time moves only when told. `real`: follows the injected time source. */
export type ClockMode = 'real' | 'virtual';

/** What the control plane reports about the clock. */
export interface ClockSnapshot {
  readonly mode: ClockMode;
  readonly now: number;
  readonly iso: string;
}

/**
 * The simulator's clock: virtual (moves only when told) or real (follows an injected time
 * source), switchable at run time. Invariant: virtual time never moves backwards.
 */
export interface SimClock extends Clock {
  mode(): ClockMode;
  /** Freezes time at `atMs` (default: the current instant) and switches to virtual. */
  useVirtual(atMs?: number): ClockChange;
  /** Follows the real time source again. */
  useReal(): ClockChange;
  /** Moves virtual time forward by `ms` (≥ 0). */
  advance(ms: number): ClockChange;
  /** Sets virtual time to `atMs`, which must not be earlier than now. */
  set(atMs: number): ClockChange;
  snapshot(): ClockSnapshot;
  /** Back to the mode and instant the clock was created with (used by reset). */
  restart(): void;
}

/** The outcome of a clock change: applied, or refused with a reason. */
export type ClockChange = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The largest instant a JavaScript date can hold, epoch ms. */
export const MAX_INSTANT = 8.64e15;

/** The default start of a virtual clock: Monday 2 June 2025, 12:00 UTC. */
export const DEFAULT_VIRTUAL_START = Date.UTC(2025, 5, 2, 12, 0, 0);

/** How a {@link SimClock} starts. */
export interface SimClockOptions {
  readonly mode: ClockMode;
  /** Start of virtual time, epoch ms. */
  readonly startMs?: number;
  /** The real time source, injected by the adapter or CLI (e.g. `Date.now`). */
  readonly realNow?: () => number;
}

/**
 * Creates a switchable clock. Without `realNow`, real mode is unavailable. Time never runs
 * backwards, whatever the mode or the source: rate windows depend on it. Switching to real
 * time behind the virtual instant holds the clock there until real time catches up.
 */
export function createSimClock(options: SimClockOptions): SimClock {
  const realNow = options.realNow;
  const startMs = options.startMs ?? DEFAULT_VIRTUAL_START;
  let mode: ClockMode = options.mode;
  let virtualNow = startMs;
  /** The latest instant handed out: the floor of every later one. */
  let highWater = mode === 'real' && realNow ? realNow() : startMs;
  if (mode === 'real' && !realNow) throw new Error('a real clock needs a realNow time source');

  const now = (): number => {
    const at = mode === 'real' && realNow ? realNow() : virtualNow;
    if (at > highWater) highWater = at;
    return highWater;
  };
  const refuse = (reason: string): ClockChange => ({ ok: false, reason });
  const ok: ClockChange = { ok: true };
  const backwards = 'The clock only moves forward; reset the simulator to start over';
  const outOfRange = `The instant must be between 0 and ${MAX_INSTANT} ms`;

  return {
    now,
    mode: () => mode,
    useVirtual(atMs) {
      const current = now();
      const target = atMs ?? current;
      if (!Number.isFinite(target) || target < 0 || target > MAX_INSTANT) return refuse(outOfRange);
      if (target < current) return refuse(backwards);
      mode = 'virtual';
      virtualNow = Math.floor(target);
      return ok;
    },
    useReal() {
      if (!realNow) return refuse('This simulator was created without a real time source');
      now();
      mode = 'real';
      return ok;
    },
    advance(ms) {
      if (mode !== 'virtual') return refuse('Only the virtual clock can be advanced');
      if (!Number.isFinite(ms) || ms < 0) return refuse('advanceMs must be a number ≥ 0');
      if (virtualNow + ms > MAX_INSTANT) return refuse(`The clock cannot move past ${MAX_INSTANT} ms (the largest date)`);
      virtualNow += Math.floor(ms);
      return ok;
    },
    set(atMs) {
      if (mode !== 'virtual') return refuse('Only the virtual clock can be set; switch to virtual first');
      if (!Number.isFinite(atMs) || atMs < 0 || atMs > MAX_INSTANT) return refuse(outOfRange);
      if (atMs < virtualNow) return refuse(backwards);
      virtualNow = Math.floor(atMs);
      return ok;
    },
    snapshot() {
      const at = now();
      return { mode, now: at, iso: new Date(at).toISOString() };
    },
    restart() {
      mode = options.mode;
      virtualNow = startMs;
      highWater = mode === 'real' && realNow ? realNow() : startMs;
    },
  };
}
