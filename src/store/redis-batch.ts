/**
 * The calls of one event-loop turn as one script call: the Redis store's hot-path operations
 * (begin, window checks, leases, log commands, journal entries, ordinals) wait in a queue and
 * go to Redis together, in call order, as one `BATCH` script (`redis-scripts.ts`): one round
 * trip for every request that reached the same step in the same turn.
 *
 * A partial batch waits while {@link MAX_IN_FLIGHT} calls are in flight: calls made meanwhile wait
 * for one of them and go in the next, so the busier the process, the more calls share a round
 * trip, and an idle one sends a call at the end of the turn it was made in. With several, the
 * requests one answer moves on go to Redis while the other batches are still out, instead of
 * waiting for them: the process has work while Redis runs a batch. Only a partial call waits:
 * once the queue holds a full one (the bounds below), it goes at the end of the turn behind
 * those in flight, on the same connection, so a burst is sent at once as several calls rather
 * than one round trip after another, and what waits for the answers is less than one call's
 * worth. Redis answers the calls of one connection in the order they were sent, so the
 * operations still run in call order. A call the store must order after the queued ones
 * (a read of the log or the journal) asks for {@link ScriptBatcher.flush} first: the queue is
 * sent at once, on the same connection, before the call.
 *
 * Grouped calls: the begins of one batch go as one `begins` operation and its journal entries
 * as one `journals` (a lone one too: {@link OPERATION_GROUPS}), where the first of them stood in call order, and
 * their callers are answered there, in call order: Redis numbers the requests with one INCRBY
 * and reads the log once for all of them, and decodes and runs one operation instead of one per
 * call.
 *
 * Bounded work: a script call carries at most {@link MAX_BATCH_OPERATIONS} operations and
 * {@link MAX_BATCH_CHARS} characters of arguments (an operation longer than that goes alone), so
 * a burst of thousands of requests in one turn, or of large logged bodies, becomes several calls
 * in a row rather than one that holds Redis and this process. Each request has at most one
 * step queued (it waits for its step before the next): one operation, or its journal entry and
 * its slot's release, asked together.
 *
 * Failure: a batch that is refused, times out or cannot be sent (even by a throw) rejects every
 * operation in it with the same error, and the next batch is sent: nothing waits for an answer
 * that cannot come.
 */
import { COUNTED, OPERATION_GROUPS, OPERATIONS, type Call, type Operation, type OperationGroup } from './redis-scripts.js';

/** Operations sent in one script call at most; more wait for the next. */
export const MAX_BATCH_OPERATIONS = 512;

/**
 * Calls in flight at most before a partial batch waits for an answer (full calls go at once, and
 * count). Measured on the bench's quota-key work (docs/benchmarks.md, "Batches in flight"): two
 * serve 15-25% more requests a second than one; where the load, Redis and the simulator share
 * two cores, four serve about 10% more than two (eight, no more than four).
 */
export const MAX_IN_FLIGHT = 4;

/**
 * Characters of arguments (operations' names and arguments) sent in one script call at most, about a
 * megabyte; more wait for the next. A logged request carries its body (up to 1 MB), so 512 of
 * them in one call would be hundreds of megabytes for Redis to read and run in one step.
 */
export const MAX_BATCH_CHARS = 1 << 20;

/** One operation's outcome in a batch's answer: `[1, what it returned]` or `[0, the error]`. */
export type BatchOutcome = readonly [1, unknown] | readonly [0, string];

/** What the batcher needs: the script call that carries a batch (the store's guarded call), and the queue's bound. */
export interface ScriptBatcherOptions {
  /**
   * Sends one batch: ARGV as the `BATCH` script reads it (`calls`: how many calls it carries, a
   * group counting each of its calls); resolves with one outcome per operation sent, or rejects
   * for all of them.
   */
  send(argv: readonly string[], calls: number): Promise<readonly BatchOutcome[]>;
  /** How a failed operation rejects (the error Redis answered, in the store's words). */
  failed(said: string): Error;
  /** Operations per script call at most (default {@link MAX_BATCH_OPERATIONS}). */
  readonly maxOperations?: number;
  /** Characters of arguments per script call at most, unless one operation alone has more (default {@link MAX_BATCH_CHARS}). */
  readonly maxChars?: number;
}

/** Calls batched per event-loop turn, and counts of what went to Redis. */
export interface ScriptBatcher {
  /**
   * Queues one call with its own arguments (as many as {@link OPERATIONS} or, for a grouped
   * call, {@link OPERATION_GROUPS} says: the batch derives its keys); resolves with what it returned (made into the caller's value by `answer`,
   * when given, as the batch's answer is read: no promise of its own for that step), rejects
   * with the error of the operation or of its batch (or what `answer` threw). `unheard`, when
   * given, is called with the batch's error (before the rejection) when the whole call carrying
   * it failed, so that Redis may have run the operation without this process hearing what it
   * did (a call that timed out still runs once Redis resumes); the store tells from the error
   * whether the call was ever sent.
   */
  run<T = unknown>(operation: Call, args: readonly string[], answer?: (returned: unknown) => T, unheard?: (error: unknown) => void): Promise<T>;
  /** Sends what is queued now, even while batches are in flight (the connection keeps the order). */
  flush(): void;
  /** Script calls sent (round trips). */
  readonly roundTrips: number;
  /** Calls sent in them (each call of a group counts). */
  readonly operations: number;
}

/** The group a call goes in, if it goes grouped. */
function groupOf(call: Call): OperationGroup | undefined {
  return Object.hasOwn(OPERATION_GROUPS, call) ? OPERATION_GROUPS[call as keyof typeof OPERATION_GROUPS] : undefined;
}

/** What one operation of a batch answers: one call, or the calls of one group. */
interface Sent {
  readonly calls: readonly Queued[];
  /** The group the calls went as, for grouped calls. */
  readonly group: OperationGroup | undefined;
}

interface Queued {
  readonly operation: Call;
  readonly args: readonly string[];
  /** The characters of the operation's name and arguments. */
  readonly chars: number;
  readonly answer: ((returned: unknown) => unknown) | undefined;
  readonly unheard: ((error: unknown) => void) | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Creates the batcher of one store (its counts start at 0). */
export function createScriptBatcher(options: ScriptBatcherOptions): ScriptBatcher {
  const max = options.maxOperations ?? MAX_BATCH_OPERATIONS;
  const maxChars = options.maxChars ?? MAX_BATCH_CHARS;
  let queue: Queued[] = [];
  /** The characters of the queued operations' arguments. */
  let queuedChars = 0;
  let inFlight = 0;
  let scheduled = false;
  let roundTrips = 0;
  let operations = 0;

  /** How many of the queue's first operations the next call takes: at least one, within both bounds. */
  const nextBatchSize = (): number => {
    let chars = 0;
    let n = 0;
    while (n < queue.length && n < max) {
      chars += queue[n]!.chars;
      if (n > 0 && chars > maxChars) break;
      n++;
    }
    return n;
  };

  const send = (): void => {
    const size = nextBatchSize();
    const batch = queue.slice(0, size);
    queue = queue.slice(size);
    for (const queued of batch) queuedChars -= queued.chars;
    const sent = groupCalls(batch);
    const argv: string[] = [String(sent.length)];
    for (const { calls, group } of sent) {
      if (group === undefined) {
        const queued = calls[0]!;
        argv.push(queued.operation);
        for (const arg of queued.args) argv.push(arg);
      } else {
        const joined = group.join(calls.map((queued) => queued.args));
        argv.push(group.operation, String(joined.length));
        for (const arg of joined) argv.push(arg);
      }
    }
    roundTrips++;
    operations += batch.length;
    inFlight++;
    let answer: Promise<readonly BatchOutcome[]>;
    try {
      answer = options.send(argv, batch.length);
    } catch (error) {
      // A call that throws instead of rejecting fails its batch the same way, not the batcher.
      answer = Promise.reject(error);
    }
    answer.then(
      (outcomes) => {
        inFlight--;
        const answered: readonly (BatchOutcome | undefined)[] = Array.isArray(outcomes) ? outcomes : [];
        sent.forEach(({ calls, group }, i) => {
          const outcome = answered[i];
          if (outcome === undefined) for (const queued of calls) queued.reject(options.failed('no answer for the operation in its batch'));
          else if (outcome[0] !== 1) for (const queued of calls) queued.reject(options.failed(outcome[1]));
          else if (group === undefined) settle(calls[0]!, outcome[1]);
          else {
            let returned: unknown[];
            try {
              returned = group.split(outcome[1], calls.map((queued) => queued.args));
            } catch (error) {
              for (const queued of calls) queued.reject(error);
              return;
            }
            calls.forEach((queued, j) => settle(queued, returned[j]));
          }
        });
        schedule();
      },
      (error: unknown) => {
        inFlight--;
        for (const queued of batch) {
          queued.unheard?.(error);
          queued.reject(error);
        }
        schedule();
      },
    );
  };

  /**
   * The operations a batch sends: each call alone, except the grouped calls
   * ({@link OPERATION_GROUPS}), which go together where the first of them stands.
   */
  const groupCalls = (batch: readonly Queued[]): Sent[] => {
    const sent: Sent[] = [];
    const open = new Map<Call, Queued[]>();
    for (const queued of batch) {
      const group = groupOf(queued.operation);
      if (group === undefined) {
        sent.push({ calls: [queued], group });
        continue;
      }
      const joined = open.get(queued.operation);
      if (joined !== undefined) {
        joined.push(queued);
        continue;
      }
      const calls = [queued];
      open.set(queued.operation, calls);
      sent.push({ calls, group });
    }
    return sent;
  };

  /** Answers one call with what its operation returned (made into its value by its `answer`). */
  const settle = (queued: Queued, returned: unknown): void => {
    if (queued.answer === undefined) {
      queued.resolve(returned);
      return;
    }
    try {
      queued.resolve(queued.answer(returned));
    } catch (error) {
      queued.reject(error);
    }
  };

  /** Whether the queue holds at least one full call. */
  const full = (): boolean => queue.length >= max || queuedChars > maxChars;

  /**
   * Sends the queue at the end of this turn: its full calls, and the rest as one call unless
   * {@link MAX_IN_FLIGHT} batches are out (an answer schedules it then): the requests that
   * answer moves on to their next step join the same call.
   */
  const schedule = (): void => {
    if (scheduled || queue.length === 0 || (inFlight >= MAX_IN_FLIGHT && !full())) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      while (full()) send();
      if (inFlight < MAX_IN_FLIGHT && queue.length > 0) send();
    });
  };

  const flushQueued = (): void => {
    while (queue.length > 0) send();
  };

  return {
    run<T>(operation: Call, args: readonly string[], answer?: (returned: unknown) => T, unheard?: (error: unknown) => void): Promise<T> {
      const arity = groupOf(operation)?.args ?? OPERATIONS[operation as Operation].args;
      if (arity === COUNTED) return Promise.reject(new Error(`${operation} is the operation of grouped calls, not a call`));
      if (args.length !== arity) return Promise.reject(new Error(`${operation} takes ${arity} arguments, not ${args.length}`));
      return new Promise<T>((resolve, reject) => {
        let chars = operation.length;
        for (const arg of args) chars += arg.length;
        queue.push({ operation, args, chars, answer, unheard, resolve: resolve as (value: unknown) => void, reject });
        queuedChars += chars;
        schedule();
      });
    },
    flush: flushQueued,
    get roundTrips() {
      return roundTrips;
    },
    get operations() {
      return operations;
    },
  };
}
