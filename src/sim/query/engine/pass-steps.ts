/**
 * A pass in pieces: a generator that yields the records it read since its last yield (a
 * website-day's samples, a group's values …) and returns its result. The engine drives a long
 * parameter's pass this way, letting other requests run between pieces (execute.ts); driven to
 * its end at once ({@link runToEnd}) it is the same pass, with the same result.
 */
export type PassSteps<T> = Generator<number, T, void>;

/**
 * Records a pass reads between two turns of the event loop. On this project's machine that is
 * about 18 ms of the costliest pass per record (profile_list: 0.55 µs a session sample) and
 * 6 ms of the vitals types' (0.18 µs a value) once compiled, and a few times that the first
 * time a type runs in the process.
 */
export const PASS_PIECE_RECORDS = 32_000;

/**
 * What a record the pass had to generate or derive counts for, in records read: a day evicted
 * from the traffic cache since the prefetch (a range longer than the cache holds) is made again
 * by the pass, at about 6 µs a session sample.
 */
export const GENERATED_RECORD_WORK = 12;

/**
 * Records a scan reads before it yields them: a yield resumes every generator between the scan
 * and the engine, so scans report a few days at a time rather than each day.
 */
export const YIELD_RECORDS = 8_000;

/**
 * What a tracked event (`POST /track`) counts for, in records read: its filters, its properties'
 * JSON read and its tallies cost about 2 µs, four session samples' worth.
 */
export const TRACKED_EVENT_WORK = 4;

/** What folding a kept per-day digest counts for, in records read: a few hundred rows. */
export const DIGEST_DAY_WORK = 500;

/**
 * `steps`, each yield raised by what `extra` returns then: the work its callbacks did that the
 * scan under them does not count (records of a day derived again, read through its visitor).
 */
export function* withExtraWork<T>(steps: PassSteps<T>, extra: () => number): PassSteps<T> {
  let step = steps.next();
  while (step.done !== true) {
    yield step.value + extra();
    step = steps.next();
  }
  return step.value;
}

/** Drives `steps` to its end without pausing and returns its result. */
export function runToEnd<T>(steps: PassSteps<T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
}

/**
 * Yielded by a parameter's steps (execute.ts) once it knows its rows must be computed, before its
 * pass reads any day: the driver then generates the days first ({@link runInPieces}'s
 * `needsDays`, the prefetch), which rows already kept never wait for. Driven to its end at once,
 * it counts as nothing.
 */
export const NEEDS_DAYS = -1;

/**
 * Drives `steps` to its end, awaiting `pause` each time {@link PASS_PIECE_RECORDS} records were
 * read since the last one, and `needsDays` when it yields {@link NEEDS_DAYS}; returns its result.
 */
export async function runInPieces<T>(steps: PassSteps<T>, pause: () => Promise<void>, needsDays?: () => Promise<void>): Promise<T> {
  let read = 0;
  let step = steps.next();
  while (step.done !== true) {
    if (step.value === NEEDS_DAYS) {
      await needsDays?.();
    } else {
      read += step.value;
      if (read >= PASS_PIECE_RECORDS) {
        read = 0;
        await pause();
      }
    }
    step = steps.next();
  }
  return step.value;
}
