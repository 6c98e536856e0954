/**
 * The Redis store: a {@link SharedStore} that several simulator processes share (`--store
 * redis://HOST:PORT[/DB]`, `rediss://…`, `sentinel://…/MASTER`, `redis-cluster://…`: see
 * `store-target.ts`). An adapter: time that matters to the simulation comes from the caller
 * (`now`) or from Redis (`TIME`, for lease expiry); its own timers only renew this process's
 * leases and bound the wait for the first connection.
 *
 * Key layout, every key under `{<prefix>}:` (default prefix `analytics-sim`). The braces are a
 * Redis Cluster hash tag: every key of one simulator hashes to one slot, so each script's keys,
 * declared or derived, live on one node; one simulator lives on one shard, and simulators with
 * other prefixes spread over the cluster.
 *
 * | key                  | type   | holds                                                              |
 * |----------------------|--------|--------------------------------------------------------------------|
 * | `meta`               | hash   | the settings every process must share (seed, profile, …, layout)   |
 * | `req`                | string | requests numbered since the last reset                             |
 * | `seq`                | string | journal positions reserved since the last reset                    |
 * | `checks`             | string | window checks numbered since the last reset                        |
 * | `high`               | string | the latest instant a window check was judged at                    |
 * | `log`                | stream | the command log, entry id `<position>-1`, field `c`                |
 * | `logn`               | string | the last log position (survives resets: positions only grow)       |
 * | `win:<id>`           | zset   | a window's admitted instants (score) by check order (member)       |
 * | `windows`            | zset   | window id → instant after which it is idle (for the sweep, reset)  |
 * | `lease:<fingerprint>`| zset   | in-flight leases of one secret → expiry, Redis server time in ms   |
 * | `leases`             | set    | fingerprints holding leases                                        |
 * | `journal`            | stream | decisions, field `e` (`redis-journal-codec.ts`), trimmed to capacity |
 * | `journal:info`       | hash   | `since`, `appended`, `cleared`, `history`, `clearedAt`, `lost`     |
 * | `ordinal`            | hash   | named counters (scenario draw ordinals)                            |
 * | `epoch`              | string | a random id written with the first data: gone, the data went too   |
 *
 * A reset deletes everything but `meta`, `logn`, `epoch` and the leases. Windows never use Redis key
 * expiry (the simulated clock may be frozen): every 4096th check deletes up to 1000 windows
 * that have been idle a whole window.
 *
 * Round trips: the operations of a request's hot path (begin, window checks, taking and giving
 * back a lease, a log command, a journal entry, an ordinal; a begin with the in-flight gate's
 * ask, `beginThenAdmit`, is one operation) wait for the end of the event-loop
 * turn and go to Redis together, in call order, as one script call (`redis-batch.ts`),
 * a partial batch waiting while `MAX_IN_FLIGHT` (four) calls are in flight, the begins and the journal entries of a batch grouped into one operation
 * each (`OPERATION_GROUPS` in `redis-scripts.ts`); the calls that read (the log, the journal, the leases, a window's peek)
 * send the queue first, so they see every write asked for before them. Redis runs a batch
 * atomically and each operation as it would run alone in that place (the calls of a group
 * where its first call stood: a begin grouped with an earlier one may not see a command logged
 * between them, as if it had begun first, which concurrent requests may), so decisions are the same
 * as one call at a time; `roundTrips` and `operations` count what was sent. A call carries at
 * most 512 operations and about a megabyte of arguments; a burst beyond goes as several calls in
 * a row. A failed batch (refused, timed out, connection lost) fails every operation in it with
 * the same error, and its requests are answered 503; once Redis answers again, the leases its
 * calls may have taken are given back and the journal entries that never reached Redis are
 * appended late.
 *
 * Outage: no offline queue, a command timeout and a reconnect every ≤ 500 ms, forever. While
 * Redis cannot be reached every method rejects at once (or within the command timeout when
 * Redis hangs); the client reconnects by itself and the same store object works again.
 *
 * Data loss: a Redis restarted without persistence (or flushed) answers again, empty. The
 * store notices it by the `epoch` key (checked on every reconnection and with each lease
 * renewal): `dataLoss` says what was lost, and `onDataLoss` is called once per loss.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ConnectionOptions } from 'node:tls';
import type { Cluster, Redis } from 'ioredis';
import { DEFAULT_JOURNAL_CAPACITY, type JournalEntry, type JournalInfo } from '../sim/journal/journal.js';
import {
  BEGIN_COMMANDS,
  type Begin,
  type StoreDataLoss,
  type LoggedCommand,
  type SharedAdmission,
  type SharedJournal,
  type SharedLeases,
  type SharedSlot,
  type SharedSettings,
  type SharedStore,
  type SharedWindowDecision,
  type SharedWindows,
  type WindowAsk,
} from '../sim/store/shared-store.js';
import type { WindowUsage } from '../sim/admission/sliding-log.js';
import * as scripts from './redis-scripts.js';
import { DEFAULT_STORE_PREFIX, type SentinelStoreConfig } from '../contract/config.js';
import { createRedisClient } from './redis-client.js';
import { createScriptBatcher, type BatchOutcome } from './redis-batch.js';
import { createFramedScriptCall } from './framed-script-call.js';
import { decodeJournalPage, encodeJournalEntry, journalEntryAt } from './redis-journal-codec.js';
import { describeClientError, describeConnectionProblem } from './connection-problem.js';
import { parseStoreTarget, SINGLE_STORE_FORMS, STORE_FORMS, type StoreTarget, type StoreTargetError } from './store-target.js';

export { parseStoreTarget, STORE_FORMS, type StoreTarget, type StoreNode } from './store-target.js';
export type { SentinelStoreConfig } from '../contract/config.js';
export type { StoreDataLoss } from '../sim/store/shared-store.js';

/** How {@link createRedisStore} connects. */
export interface RedisStoreOptions {
  /**
   * Where the store is: `redis://[user:pass@]host:port[/db]`, `rediss://…` (TLS),
   * `sentinel://[user:pass@]host:port[,host:port…]/MASTER[/db]` or
   * `redis-cluster://[user:pass@]host:port[,host:port…]`; or a Sentinel config object.
   */
  readonly url: string | SentinelStoreConfig;
  /** TLS options of a `rediss://` store, merged over the defaults: `{ ca: readFileSync('ca.pem') }` for a private CA. */
  readonly tls?: ConnectionOptions;
  /** Namespace of every key (`--store-prefix`); default `analytics-sim`. */
  readonly prefix?: string;
  /** How long a lease lives without renewal (a dead process's slots free after it); default 5000. */
  readonly leaseTtlMs?: number;
  /** How long a command may wait for Redis before it rejects; default 2000. */
  readonly commandTimeoutMs?: number;
  /** A client to use instead of one built from `url` (tests). The store owns it: `close` quits it. */
  readonly client?: Redis | Cluster;
  /**
   * The slow-answer guard: a command answered after more than `slowCallMs` (default
   * {@link SLOW_CALL_MS}), or not answered within `commandTimeoutMs`, makes every call fail at
   * once for `slowGuardMs` (default
   * {@link SLOW_GUARD_MS}), so requests get 503 instead of waiting; `now` is its wall clock (ms
   * since the epoch; default `Date.now`).
   */
  readonly slowCallMs?: number;
  readonly slowGuardMs?: number;
  readonly now?: () => number;
  /** Called once each time the store finds that Redis lost its data (the CLI logs the message). */
  readonly onDataLoss?: (loss: StoreDataLoss) => void;
}

/** A {@link SharedStore} over Redis, with what it knows about its connection. */
export interface RedisStore extends SharedStore {
  /** Connection failures (errors and lost connections) seen since the store was created. */
  readonly errors: number;
  /** The last connection error, one line without credentials (e.g. `connect ECONNREFUSED`), or null. */
  readonly lastError: string | null;
  /**
   * Round trips to Redis the store's methods made since it was created: each command or script
   * call sent counts once, a batch of operations too (the lease renewals and epoch checks of its
   * timers are not counted).
   */
  readonly roundTrips: number;
  /** Operations the store's methods asked Redis for (a begin, a window check, a lease, a journal entry, a read…), batched or not. */
  readonly operations: number;
}

/** Where a store URL points, without credentials. */
export interface StoreAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly tls: boolean;
  /** The URL to show: `redis://host:port/db`, never the password. */
  readonly location: string;
}

/** A store URL that could not be used, with a one-line reason. */
export interface StoreUrlError {
  readonly error: string;
}

/** The prefix used when none is given (the config file's default too). */
export { DEFAULT_STORE_PREFIX };

/**
 * The key layout's version, kept in `meta`: a store written by another layout is refused (2: keys
 * under a `{prefix}` hash tag; 3: journal entries encoded by `redis-journal-codec.ts`, not as
 * the entry's JSON; 4: `journal:info` knows the last reset's position, the last clear's instant
 * and the entries lost, which processes of an earlier layout would not keep).
 */
const LAYOUT = '4';

/**
 * A command answered later than this opens the slow-answer guard: a request makes several
 * calls in a row, and at a second or more each it would take many seconds to answer at all.
 */
export const SLOW_CALL_MS = 1000;
/** Leases given back later at most (asked for by calls that failed whole); older ones expire unrenewed. */
const MAX_UNHEARD_LEASES = 4096;
/** Journal entries appended later at most (their call never reached Redis); past it the journal says it is incomplete. */
const MAX_UNWRITTEN_ENTRIES = 4096;

/** How long the open guard refuses calls at once (a 503 with Retry-After); then the next call tries Redis again. */
export const SLOW_GUARD_MS = 2000;

/** Journal entries read per round trip when the journal is listed. */
export const JOURNAL_PAGE = 2000;

/** The stream id right after `id` (`ms-seq`), for a range that starts after it on any Redis since 5. */
function nextStreamId(id: string): string {
  const [ms, seq] = id.split('-');
  return `${ms}-${BigInt(seq ?? '0') + 1n}`;
}

/**
 * Reads a single-Redis store URL: `redis://[user:pass@]host[:port][/db]` or `rediss://…` (port
 * 6379 and database 0 by default). Returns where it points (never the password) or an error
 * value with a one-line message naming the accepted forms; the message never repeats a
 * password. A Sentinel or Cluster URL is refused here: {@link parseStoreTarget} reads every form.
 */
export function parseStoreUrl(url: string): StoreAddress | StoreUrlError {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'sentinel' || scheme === 'redis-cluster') return { error: `${scheme}:// is not a single Redis: use ${SINGLE_STORE_FORMS}` };
  const parsed = parseStoreTarget(url, SINGLE_STORE_FORMS);
  if ('error' in parsed) return parsed;
  if (parsed.kind !== 'redis') return { error: `not a single Redis: use ${SINGLE_STORE_FORMS}` };
  const { host, port, db, tls, location } = parsed;
  return { host, port, db, tls, location };
}

/** The Redis client's custom commands: one per script in `redis-scripts.ts` but `BATCH`, which `framed-script-call.ts` sends. */
interface ScriptCommands {
  simPeek(window: string, ...argv: string[]): Promise<[number, string]>;
  simRenew(numberOfKeys: number, ...keysAndArgv: string[]): Promise<number>;
  simTotal(fingerprints: string, prefix: string): Promise<number>;
  simHeld(leases: string): Promise<number>;
  simReset(...keysAndArgv: string[]): Promise<number>;
  simJournalInfo(journal: string, info: string): Promise<[number, string, number, string, string, number]>;
  simJournalPage(journal: string, start: string, count: string): Promise<[number, string, string]>;
  simJournalClear(journal: string, info: string, now: string): Promise<number>;
  simOpen(meta: string, ...argv: string[]): Promise<string[]>;
  simEpoch(epoch: string, candidate: string): Promise<string>;
}

/** What the `consume` operation answers: allowed 0|1, remaining, reset, order, the instant judged at. */
type ConsumeAnswer = [number, number, string, number, string];

/** name → [script, number of keys] (undefined: the caller passes the count first). */
const COMMANDS: Record<keyof ScriptCommands, [string, number | undefined]> = {
  simPeek: [scripts.PEEK, 1],
  simRenew: [scripts.RENEW, undefined],
  simTotal: [scripts.TOTAL, 1],
  simHeld: [scripts.HELD, 1],
  simReset: [scripts.RESET, 10],
  simJournalInfo: [scripts.JOURNAL_INFO, 2],
  simJournalPage: [scripts.JOURNAL_PAGE, 1],
  simJournalClear: [scripts.JOURNAL_CLEAR, 2],
  simOpen: [scripts.OPEN, 1],
  simEpoch: [scripts.EPOCH, 1],
};

/** One line for a connection error: `connect ECONNREFUSED`, `Command timed out`, never a password. */
const describeError = describeClientError;

/** Renders a number exactly for a script argument. */
const num = (n: number): string => String(n);

/** What each setting is called in the refusal of a store that holds another simulator. */
function describeSetting(field: string, value: string): string {
  switch (field) {
    case 'seed':
      return `seed ${value}`;
    case 'profile':
      return `profile ${value}`;
    case 'limits':
      return `limits ${value}`;
    case 'journalCapacity':
      return `journal capacity ${value}`;
    case 'fingerprint':
      return `world options ${value === '' ? '(none)' : createHash('sha256').update(value).digest('hex').slice(0, 8)}`;
    case 'layout':
      return `key layout ${value === '' ? '(unknown)' : value}`;
    default:
      return `${field} ${value}`;
  }
}

/** `a`, `a and b`, `a, b and c`. */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * Creates the Redis store. The client connects at once and reconnects by itself; a method
 * called while it first connects waits for it (at most `commandTimeoutMs`), one called while
 * Redis is unreachable rejects at once with `cannot reach the store at <location> (<reason>)`.
 *
 * Invariants: every method resolves with what Redis answered or rejects, within about
 * `commandTimeoutMs` (a batched operation asked while a batch is in flight waits for that one
 * first; one that timed out or answered later than `slowCallMs` opens the slow-answer guard,
 * which refuses the next at once); every check-then-write happens in one Lua script; leases this process
 * holds are renewed every `leaseTtlMs / 3` until released, so a dead process's leases expire
 * after at most `leaseTtlMs`. An invalid `url` throws.
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const parsed: StoreTarget | StoreTargetError = parseStoreTarget(options.url, STORE_FORMS);
  if ('error' in parsed) throw new Error(parsed.error);
  const prefix = options.prefix ?? DEFAULT_STORE_PREFIX;
  const leaseTtlMs = options.leaseTtlMs ?? 5000;
  const commandTimeoutMs = options.commandTimeoutMs ?? 2000;
  const location = parsed.location;

  const client = options.client ?? createRedisClient(parsed, { commandTimeoutMs, tls: options.tls });
  for (const [name, [lua, numberOfKeys]] of Object.entries(COMMANDS)) {
    client.defineCommand(name, numberOfKeys === undefined ? { lua } : { lua, numberOfKeys });
  }
  const redis = client as unknown as ScriptCommands & Redis;
  const callBatch = createFramedScriptCall(client, scripts.BATCH);

  let errors = 0;
  let lastError: string | null = null;
  /** The client's last error itself, for the words of a first connection that failed. */
  let lastErrorSeen: unknown = null;
  /** Whether the client was ever ready: before, a failure says what kept it from connecting. */
  let everReady = false;
  /** True from a failure of the connection until it is ready again: calls then reject at once. */
  let down = false;
  let closed = false;
  /** Whether an error was seen since the connection was last ready (a close then says less). */
  let erred = false;
  client.on('error', (error: unknown) => {
    errors++;
    lastError = describeError(error);
    lastErrorSeen = error;
    erred = true;
    down = true;
  });
  client.on('close', () => {
    if (closed) return;
    // Before the first ready, a connection that closes without an error is one attempt of
    // several (a cluster client drops its startup nodes for the ones CLUSTER SLOTS names): the
    // first wait goes on, bounded by the command timeout.
    if (!everReady && !erred) return;
    down = true;
    if (!erred) {
      errors++;
      lastError = 'connection closed';
    }
  });
  /** The settings this process opened the store with, written again after Redis lost its data. */
  let openedWith: string[] | null = null;
  client.on('ready', () => {
    down = false;
    erred = false;
    everReady = true;
    // A Redis restarted without persistence has forgotten the settings: bind it again (a no-op
    // when they are still there; a disagreement is this process's open error to find, not this).
    if (openedWith) redis.simOpen(K.meta, ...openedWith).catch(() => undefined);
    checkEpoch();
  });

  /** The epoch this process opened the store in (null before `open`): another one means Redis lost its data. */
  let epoch: string | null = null;
  let dataLoss: StoreDataLoss | null = null;
  let checkingEpoch = false;
  /** Compares the store's epoch with this process's; a missing or other one is a data loss, reported once. */
  const checkEpoch = (): void => {
    if (epoch === null || checkingEpoch || closed || client.status !== 'ready') return;
    checkingEpoch = true;
    redis
      .simEpoch(K.epoch, randomBytes(8).toString('hex'))
      .then((held) => {
        if (epoch === null || held === epoch) return;
        epoch = held;
        const at = Date.now();
        dataLoss = {
          count: (dataLoss?.count ?? 0) + 1,
          at,
          message:
            `the store at ${location} (prefix ${prefix}) lost the data it held (a Redis restarted without persistence, or flushed), found at ${new Date(at).toISOString()}: ` +
            'the ingested records, journal entries and limit windows written before are gone and every process starts over from the seed; ' +
            'run Redis with --appendonly yes to keep them',
        };
        options.onDataLoss?.(dataLoss);
      })
      .catch(() => undefined)
      .finally(() => {
        checkingEpoch = false;
      });
  };

  /**
   * Why calls fail now. Before the first connection, what kept it from connecting: nothing
   * answering (`cannot reach the store at …`), or a store refusing this process (`the store at …
   * refused …: fix`, naming credentials, TLS or the topology).
   */
  const unavailable = (): Error => {
    if (closed) return new Error(`the store at ${location} is closed`);
    if (!everReady && lastErrorSeen !== null) {
      const problem = describeConnectionProblem(lastErrorSeen, parsed, commandTimeoutMs);
      if (problem.kind === 'refused') return new Error(`the store at ${location} ${problem.fix} (${problem.reason})`);
      return new Error(`cannot reach the store at ${location} (${problem.reason})`);
    }
    if (!everReady && lastError !== null && lastError.startsWith('no answer within')) {
      const problem = describeConnectionProblem(null, parsed, commandTimeoutMs);
      if (problem.kind === 'refused') return new Error(`the store at ${location} ${problem.fix} (${problem.reason})`);
    }
    return new Error(`cannot reach the store at ${location} (${lastError ?? 'not connected'})`);
  };

  /** The wait for the first connection, shared by every call made meanwhile. */
  let connecting: Promise<void> | null = null;

  /** Resolves once the client is ready (waiting at most `commandTimeoutMs`); rejects at once while Redis is unreachable. */
  const whenReady = (): Promise<void> => {
    if (closed || down || client.status === 'end') return Promise.reject(unavailable());
    if (client.status === 'ready') return Promise.resolve();
    if (client.status === 'wait') client.connect().catch(() => undefined);
    connecting ??= new Promise<void>((resolve, reject) => {
      const done = (error?: Error): void => {
        clearTimeout(timer);
        client.off('ready', onReady);
        client.off('error', onError);
        client.off('end', onError);
        connecting = null;
        if (error) reject(error);
        else resolve();
      };
      const onReady = (): void => done();
      const onError = (): void => done(unavailable());
      const timer = setTimeout(() => {
        lastError ??= `no answer within ${commandTimeoutMs} ms`;
        done(unavailable());
      }, commandTimeoutMs);
      client.once('ready', onReady);
      client.once('error', onError);
      client.once('end', onError);
    });
    return connecting;
  };

  /**
   * Why a command failed, in one line: Redis refused it (`the store at … answered: …`), or it
   * never got an answer (`cannot reach the store at … (…)`: connection lost, timed out).
   */
  const failed = (error: unknown): never => {
    if (error instanceof Error && error.name === 'ReplyError') {
      const said = error.message.split('\n')[0]!.slice(0, 300);
      // A single-Redis URL on a cluster node: the keys' slot lives elsewhere.
      const problem = describeConnectionProblem(error, parsed, commandTimeoutMs);
      if (problem.kind === 'refused' && /^(MOVED|ASK|CLUSTERDOWN|NOPERM)\b/.test(said)) throw new Error(`the store at ${location} ${problem.fix} (${said})`);
      throw new Error(`the store at ${location} answered: ${said}`);
    }
    throw new Error(`cannot reach the store at ${location} (${describeError(error)})`);
  };

  const now = options.now ?? Date.now;
  const slowCallMs = options.slowCallMs ?? SLOW_CALL_MS;
  const slowGuardMs = options.slowGuardMs ?? SLOW_GUARD_MS;
  /** Until when the slow-answer guard refuses calls (0: closed), and what opened it. */
  let slowUntil = 0;
  let slowWhy = '';
  /** Commands and script calls the store's methods sent (a batch counts once): its round trips. */
  let roundTrips = 0;
  /**
   * Runs one command, timed: one slower than `slowCallMs` (answered or not), or given up at the
   * command timeout (shorter than `slowCallMs` when so configured), opens the guard: the
   * operations queued behind a batch that timed out are then refused at once instead of each
   * waiting out a timeout of their own.
   */
  const timed = <T>(command: () => Promise<T>): Promise<T> => {
    roundTrips++;
    const started = now();
    const settle = (timedOut: boolean): void => {
      const took = now() - started;
      if (took > slowCallMs || timedOut) {
        slowUntil = now() + slowGuardMs;
        slowWhy = timedOut ? `a command got no answer within ${commandTimeoutMs} ms` : `a command took ${Math.round(took)} ms, over ${slowCallMs} ms`;
      }
    };
    return command().then(
      (value) => {
        settle(false);
        return value;
      },
      (error: unknown) => {
        settle(error instanceof Error && error.message === 'Command timed out');
        return failed(error);
      },
    );
  };
  /**
   * Runs a command now when connected, after the first connection otherwise; rejects while Redis
   * is unreachable, and at once while the slow-answer guard is open, so that a request on a slow
   * Redis is answered 503 after one slow call instead of one slow call per step.
   */
  const call = <T>(command: () => Promise<T>): Promise<T> => {
    if (slowUntil !== 0 && now() < slowUntil) {
      return Promise.reject(new Error(`the store at ${location} answers slowly (${slowWhy}): calls are refused for ${slowGuardMs} ms, then Redis is asked again`));
    }
    if (client.status === 'ready' && !closed) return timed(command);
    return whenReady().then(() => timed(command));
  };

  /** The words of an operation Redis refused inside a batch, as `failed` words a refused command. */
  const refusedOperation = (said: string): Error => {
    const error = new Error(said);
    error.name = 'ReplyError';
    try {
      return failed(error);
    } catch (words) {
      return words as Error;
    }
  };

  // The hash tag keeps every key of the simulator in one cluster slot (see the layout above).
  const key = (name: string): string => `{${prefix}}:${name}`;
  const K = {
    /** Every key's beginning: the batch derives its operations' keys from it (`redis-scripts.ts`, OPERATIONS). */
    base: key(''),
    meta: key('meta'),
    req: key('req'),
    seq: key('seq'),
    checks: key('checks'),
    high: key('high'),
    log: key('log'),
    logn: key('logn'),
    windows: key('windows'),
    winPrefix: key('win:'),
    leasePrefix: key('lease:'),
    leases: key('leases'),
    journal: key('journal'),
    journalInfo: key('journal:info'),
    ordinal: key('ordinal'),
    epoch: key('epoch'),
  };

  /** Batches sent to Redis and the operations in them (not those refused before being sent: down, or the guard open). */
  let batchTrips = 0;
  let batchOperations = 0;
  const batcher = createScriptBatcher({
    send: (argv, calls) => {
      let sent = false;
      return call(() => {
        sent = true;
        batchTrips++;
        batchOperations += calls;
        return callBatch([K.base], argv);
      }).then(
        (answer) => {
          settleOwed();
          return JSON.parse(answer) as BatchOutcome[];
        },
        (error: unknown) => {
          // Refused before it reached Redis (the guard open, Redis unreachable): nothing it asked for was taken.
          if (!sent && typeof error === 'object' && error !== null) neverSent.add(error);
          throw error;
        },
      );
    },
    failed: refusedOperation,
  });
  /** Runs one operation in the next batch (`unheard`: see `ScriptBatcher.run` in redis-batch.ts). */
  const batched = <R, T = R>(operation: scripts.Call, args: readonly string[], answer?: (returned: R) => T, unheard?: (error: unknown) => void): Promise<T> =>
    batcher.run(operation, args, answer as ((returned: unknown) => T) | undefined, unheard);
  const nothing = (): undefined => undefined;
  /**
   * Runs a command of its own after every operation queued before it (what the store owes Redis
   * and the queue are sent first, on the same connection): a read sees every write this process
   * asked for before it, journal entries kept for a late append included.
   */
  const ordered = <T>(command: () => Promise<T>): Promise<T> => {
    settleOwed();
    batcher.flush();
    return call(command);
  };

  const processId = randomBytes(8).toString('hex');
  let journalCapacity = DEFAULT_JOURNAL_CAPACITY;
  let leaseCount = 0;
  /** Leases this process holds: lease → fingerprint. */
  const owned = new Map<string, string>();
  /**
   * Leases Redis may hold for this process without its knowing: asked for by a call that
   * failed whole (a call that timed out during a stall still runs once Redis resumes, and takes
   * its slots) or given back by a release that failed; not those of calls refused before they
   * were sent. Lease → fingerprint; past {@link MAX_UNHEARD_LEASES} newer ones are not kept (they
   * expire unrenewed). They are given back as soon as Redis answers a batch again or a read is
   * asked, once the slow-answer guard has closed (`settleOwed`), so a stall costs a key its
   * slots for a round trip, not for a lease's lifetime; giving back a lease Redis never took does
   * nothing.
   */
  const unheard = new Map<string, string>();
  /** The errors of batches refused before they were sent: their calls took nothing in Redis. */
  const neverSent = new WeakSet<object>();
  /** Whether `error` failed a call before it reached Redis (it took nothing there). */
  const neverReached = (error: unknown): boolean => typeof error === 'object' && error !== null && neverSent.has(error);
  /** Keeps `lease` to give back, unless its call never reached Redis; the first ones kept win (a stall's own come first). */
  const forgetLater = (lease: string, fingerprint: string, error?: unknown): void => {
    owned.delete(lease);
    if (neverReached(error) || unheard.size >= MAX_UNHEARD_LEASES) return;
    unheard.set(lease, fingerprint);
  };
  /** Queues the release of every unheard lease; their calls. */
  const giveBackUnheard = (): Promise<undefined>[] => {
    const pending = [...unheard];
    unheard.clear();
    return pending.map(([lease, fingerprint]) => batched('release', [fingerprint, lease], nothing, () => forgetLater(lease, fingerprint)));
  };

  /**
   * Journal entries whose call never reached Redis (refused while the slow-answer guard was open
   * or Redis unreachable), encoded, with their instants and the log positions their requests
   * began at: their requests were answered, so they are appended late once Redis answers a batch
   * again or a read is asked, once the slow-answer guard has closed (`journalLate`: listed in seq order like any other, and dropped by Redis when a reset
   * or clear, by any process, erased the history they belong to). Past
   * {@link MAX_UNWRITTEN_ENTRIES}, newer ones are counted as lost, in Redis once it answers
   * (`journalLost`), so every process's journal says it is incomplete. An entry whose call
   * reached Redis and failed (a timeout) is not kept: Redis may have appended it.
   */
  let unwritten: { readonly encoded: string; readonly at: number; readonly position: number }[] = [];
  /** Entries lost here, not yet counted in Redis, and the newest one's log position. */
  let lostEntries = 0;
  let lostPosition = 0;
  /** Counts `count` entries as lost, the newest begun at log position `position`. */
  const noteLost = (count: number, position: number): void => {
    lostEntries += count;
    lostPosition = Math.max(lostPosition, position);
  };
  const keepUnwritten = (encoded: string, at: number, position: number, error: unknown): void => {
    if (!neverReached(error)) return;
    if (unwritten.length < MAX_UNWRITTEN_ENTRIES) unwritten.push({ encoded, at, position });
    else noteLost(1, position);
  };
  /** Forgets what this process kept for its journal: it cleared or reset it. */
  const forgetUnwritten = (): void => {
    unwritten = [];
    lostEntries = 0;
    lostPosition = 0;
  };
  /**
   * Queues what the journal owes Redis: the late append of every unwritten entry, and the count
   * of those lost (kept again, should their calls not reach Redis either); their calls.
   */
  const drainUnwritten = (): Promise<undefined>[] => {
    const pending = unwritten;
    unwritten = [];
    const calls = pending.map(({ encoded, at, position }) =>
      batched('journalLate', [encoded, num(journalCapacity), num(at), num(position)], nothing, (error) => keepUnwritten(encoded, at, position, error)),
    );
    if (lostEntries > 0) {
      const lost = lostEntries;
      const position = lostPosition;
      lostEntries = 0;
      lostPosition = 0;
      calls.push(batched('journalLost', [num(lost), num(position)], nothing, (error) => (neverReached(error) ? noteLost(lost, position) : undefined)));
    }
    return calls;
  };
  /**
   * When Redis answered a batch, and before a read: gives back the unheard leases and sends what
   * the journal owes, unless the slow-answer guard is open (they would be refused at once and
   * kept again).
   */
  const settleOwed = (): void => {
    if (unheard.size === 0 && unwritten.length === 0 && lostEntries === 0) return;
    if (slowUntil !== 0 && now() < slowUntil) return;
    for (const call of [...giveBackUnheard(), ...drainUnwritten()]) void call.catch(nothing);
  };
  const appendEntry = (entry: JournalEntry, position: number): Promise<undefined> => {
    const encoded = encodeJournalEntry(entry);
    const { at } = entry;
    return batched('journal', [encoded, num(journalCapacity), num(at)], nothing, (error) => keepUnwritten(encoded, at, position, error));
  };

  const renew = (): void => {
    if (owned.size === 0 || client.status !== 'ready') return;
    const keys: string[] = [];
    const members: string[] = [];
    for (const [lease, fingerprint] of owned) {
      keys.push(K.leasePrefix + fingerprint);
      members.push(lease);
    }
    redis.simRenew(keys.length, ...keys, num(leaseTtlMs), ...members).catch(() => undefined);
  };
  const renewTimer = setInterval(() => {
    renew();
    checkEpoch();
  }, Math.max(1, Math.floor(leaseTtlMs / 3)));
  renewTimer.unref();

  const toCommands = (flat: readonly (number | string)[], from: number): LoggedCommand[] => {
    const out: LoggedCommand[] = [];
    for (let i = from; i + 1 < flat.length; i += 2) out.push({ position: parseInt(String(flat[i]), 10), body: String(flat[i + 1]) });
    return out;
  };

  /** A window check's arguments, as the `consume` operation takes them (the batch derives the keys). */
  const consumeArgs = (id: string, now: number, limit: number, windowMs: number): string[] => [id, num(now), num(limit), num(windowMs)];
  /** What the `consume` operation answered, as a decision. */
  const decisionOf = ([allowed, remaining, reset, order, at]: ConsumeAnswer, limit: number): SharedWindowDecision => ({
    allowed: allowed === 1,
    limit,
    remaining: Number(remaining),
    reset: Number(reset),
    order: Number(order),
    at: Number(at),
  });

  const windows: SharedWindows = {
    consume: (id, now, limit, windowMs) => batched('consume', consumeArgs(id, now, limit, windowMs), (answer: ConsumeAnswer) => decisionOf(answer, limit)),
    peek: (id, now, limit, windowMs) =>
      ordered(() => redis.simPeek(K.winPrefix + id, num(now), num(limit), num(windowMs))).then(([count, reset]): WindowUsage => {
        const heldNow = Number(count);
        return { limit, held: heldNow, remaining: Math.max(0, limit - heldNow), reset: reset === '' ? null : Number(reset) };
      }),
  };

  /** A slot the `acquire` operation answered for `lease`: taken (and owned by this process, renewed) or not. */
  const slotOf = ([acquired, before]: [number, number], lease: string, fingerprint: string): SharedSlot => {
    if (acquired !== 1) return { acquired: false, held: Number(before), lease: null };
    owned.set(lease, fingerprint);
    return { acquired: true, held: Number(before), lease };
  };

  /** What the `begin` operation answered: the request's numbers and the commands logged after the position asked. */
  const beginOf = (flat: (number | string)[]): Begin => ({
    index: Number(flat[0]),
    seq: Number(flat[1]),
    last: Number(flat[2]),
    commands: toCommands(flat, 3),
  });

  /**
   * What the gate's ask took with a begin: the slot (owned by this process when taken), the
   * window's decision when one was asked and the slot taken, and the next window's when it was
   * asked and reached (the script answers false for a window not checked).
   */
  const admissionOf = (
    [slot, consumed, second]: [[number, number], (ConsumeAnswer | false)?, (ConsumeAnswer | false)?],
    lease: string,
    fingerprint: string,
    window: WindowAsk | null,
    next: WindowAsk | null,
  ): SharedAdmission => ({
    slot: slotOf(slot, lease, fingerprint),
    decision: !Array.isArray(consumed) || window === null ? null : decisionOf(consumed, window.limit),
    nextDecision: !Array.isArray(second) || next === null ? null : decisionOf(second, next.limit),
  });

  const leases: SharedLeases = {
    acquire: (fingerprint, cap) => {
      const lease = `${processId}:${++leaseCount}`;
      return batched('acquire', [fingerprint, num(cap), lease, num(leaseTtlMs)], (answer: [number, number]) => slotOf(answer, lease, fingerprint), (error) => forgetLater(lease, fingerprint, error));
    },
    acquireThenConsume: (fingerprint, cap, { id, now, limit, windowMs }) => {
      const lease = `${processId}:${++leaseCount}`;
      return batched(
        'acquireThenConsume',
        [fingerprint, num(cap), lease, num(leaseTtlMs), ...consumeArgs(id, now, limit, windowMs)],
        ([slot, consumed]: [[number, number], ConsumeAnswer?]) => ({
          slot: slotOf(slot, lease, fingerprint),
          decision: consumed === undefined ? null : decisionOf(consumed, limit),
        }),
        (error) => forgetLater(lease, fingerprint, error),
      );
    },
    release: (fingerprint, lease) => {
      // Forget it first: unrenewed, a lease Redis cannot hear the release of expires (and is given back when Redis answers again).
      owned.delete(lease);
      // A release that failed, sent or not, leaves the lease held: kept to give back whatever the error.
      return batched('release', [fingerprint, lease], nothing, () => forgetLater(lease, fingerprint));
    },
    total: () => ordered(() => redis.simTotal(K.leases, K.leasePrefix)).then(Number),
    held: (fingerprint) => ordered(() => redis.simHeld(K.leasePrefix + fingerprint)).then(Number),
  };

  const journal: SharedJournal = {
    append: appendEntry,
    list: async () => {
      // Page by page: the whole journal in one reply (100,000 entries, about 20 MB) can take
      // longer than the command timeout on a busy machine.
      const kept: JournalEntry[] = [];
      let from = '-';
      for (;;) {
        const [count, last, joined] = await ordered(() => redis.simJournalPage(K.journal, from, num(JOURNAL_PAGE)));
        for (const entry of decodeJournalPage(joined)) kept.push(entry);
        if (Number(count) < JOURNAL_PAGE || last === '') break;
        from = nextStreamId(last);
      }
      return kept.sort((a, b) => a.seq - b.seq);
    },
    info: () =>
      ordered(() => redis.simJournalInfo(K.journal, K.journalInfo)).then(([size, since, appended, cleared, first, lost]): JournalInfo => {
        const kept = Number(size);
        const total = Number(appended);
        const dropped = Math.max(0, total - kept);
        const from = first === '' ? Number(since) : journalEntryAt(first);
        // Entries refused while this read was in flight (another call's slow answer opened the
        // guard) are kept here, and missing until they are appended.
        const missing = Number(lost) + lostEntries + unwritten.length;
        return { complete: dropped === 0 && cleared !== '1' && missing === 0, since: from, capacity: journalCapacity, size: kept, dropped: dropped + missing };
      }),
    clear: (now) =>
      ordered(() => redis.simJournalClear(K.journal, K.journalInfo, num(now))).then((): JournalInfo => {
        forgetUnwritten();
        return { complete: false, since: now, capacity: journalCapacity, size: 0, dropped: 0 };
      }),
  };

  const store: RedisStore = {
    kind: 'shared',
    location,
    prefix,
    processId,
    get errors() {
      return errors;
    },
    get lastError() {
      return lastError;
    },
    get roundTrips() {
      return roundTrips;
    },
    get operations() {
      return batchOperations + roundTrips - batchTrips;
    },
    get dataLoss() {
      return dataLoss;
    },
    async open(settings: SharedSettings) {
      const fields: [string, string][] = [
        ['layout', LAYOUT],
        ['seed', settings.seed],
        ['profile', settings.profile],
        ['limits', settings.limits],
        ['journalCapacity', num(settings.journalCapacity)],
        ['fingerprint', settings.fingerprint],
      ];
      const differing = await call(() => redis.simOpen(K.meta, ...fields.flat()));
      if (differing.length === 0) {
        journalCapacity = settings.journalCapacity;
        openedWith = fields.flat();
        epoch ??= await call(() => redis.simEpoch(K.epoch, randomBytes(8).toString('hex')));
        return;
      }
      const theirs: string[] = [];
      const ours: string[] = [];
      for (let i = 0; i + 1 < differing.length; i += 2) {
        const field = differing[i]!;
        theirs.push(describeSetting(field, differing[i + 1]!));
        ours.push(describeSetting(field, fields.find(([name]) => name === field)?.[1] ?? ''));
      }
      throw new Error(
        `the store at ${location} (prefix ${prefix}) holds a simulator with ${listed(theirs)}; this process has ${listed(ours)}: use another --store-prefix or the same settings`,
      );
    },
    begin: (service, after) => batched('begin', [service ? '1' : '0', num(after), num(BEGIN_COMMANDS)], beginOf),
    beginThenAdmit: (after, { fingerprint, cap, window, next }) => {
      const lease = `${processId}:${++leaseCount}`;
      const askOf = (asked: WindowAsk | null): string[] => (asked === null ? ['0', '', '', '', ''] : ['1', ...consumeArgs(asked.id, asked.now, asked.limit, asked.windowMs)]);
      return batched(
        'beginThenAdmit',
        [num(after), num(BEGIN_COMMANDS), fingerprint, num(cap), lease, num(leaseTtlMs), ...askOf(window), ...askOf(next)],
        ([begun, ok, admitted]: [(number | string)[], (0 | 1)?, unknown?]) => ({
          begin: beginOf(begun),
          admission:
            ok === undefined
              ? null
              : ok === 1
                ? admissionOf(admitted as [[number, number], (ConsumeAnswer | false)?, (ConsumeAnswer | false)?], lease, fingerprint, window, next)
                : { failure: refusedOperation(String(admitted)) },
        }),
        (error) => forgetLater(lease, fingerprint, error),
      );
    },
    append: (command) => batched('append', [command], Number),
    read: (after, count) =>
      ordered(() => client.xrange(K.log, num(after + 1), '+', 'COUNT', count)).then((entries) =>
        entries.map(([id, fields]) => ({ position: parseInt(id, 10), body: fields[1] as string })),
      ),
    reset: (command, now) =>
      ordered(() =>
        redis.simReset(
          K.req,
          K.seq,
          K.checks,
          K.high,
          K.log,
          K.journal,
          K.journalInfo,
          K.ordinal,
          K.windows,
          K.logn,
          K.winPrefix,
          command,
          num(now),
        ),
      ).then((position) => {
        forgetUnwritten();
        return Number(position);
      }),
    windows,
    leases,
    journal,
    ordinal: (name) => batched('ordinal', [name], Number),
    async close() {
      if (closed) return;
      clearInterval(renewTimer);
      const mine = [...owned];
      owned.clear();
      if (client.status === 'ready') {
        // What is owed goes with the releases (refused at once while the guard is open: then it
        // is gone with the process): the unheard leases, the late entries, the count of those lost.
        await Promise.allSettled([...mine.map(([lease, fingerprint]) => batched('release', [fingerprint, lease])), ...giveBackUnheard(), ...drainUnwritten()]);
      }
      unheard.clear();
      closed = true;
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
  return store;
}
