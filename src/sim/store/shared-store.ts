import type { JournalEntry, JournalInfo } from '../journal/journal.js';
import type { WindowDecision, WindowUsage } from '../admission/sliding-log.js';

/**
 * The store several simulator processes share (Redis, `src/store/redis-store.ts`). A simulator
 * given one keeps in it everything that must be one across processes; its own memory then holds
 * only a replica of the state, rebuilt by applying the shared command log in order.
 *
 * Contract of every method: it either resolves with an exact answer from the shared store or
 * rejects (the store is unreachable, a command timed out). It never guesses; the simulator
 * turns a rejection into 503 SERVICE_UNAVAILABLE with `Retry-After: 5`.
 */
export interface SharedStore {
  readonly kind: 'shared';
  /** Where the store is, for banners and errors, without credentials (e.g. `redis://127.0.0.1:6379/0`). */
  readonly location: string;
  /** The namespace of every key (`--store-prefix`). */
  readonly prefix: string;
  /**
   * A name for the process using this store object, unique among every process sharing the
   * store (the adapter draws it at random): it tags the leases and log commands it owns.
   */
  readonly processId: string;
  /**
   * Binds the store to a simulator's settings: the first process writes them; a later one with
   * different settings is refused (the rejection names each difference), since processes that
   * disagree on the seed or the profile cannot answer alike.
   */
  open(settings: SharedSettings): Promise<void>;
  /**
   * At the start of every request, one atomic step: numbers the request among all requests of all
   * processes (`index`, from 1 since the last reset), reserves its journal position (`seq`, from
   * 1, only when `service` is true, else 0), and returns the commands logged after position
   * `after` (at most {@link BEGIN_COMMANDS} of them; `read` fetches the rest) and the last
   * position logged.
   */
  begin(service: boolean, after: number): Promise<Begin>;
  /**
   * A service request's begin (as {@link begin}) and, only when the log holds no position but
   * `after` (the replica this process read the request against is the log's), the in-flight
   * gate's ask in the same atomic step: the slot, then the window when given (as
   * {@link SharedLeases.acquireThenConsume}), then the `next` window when given, only if the
   * slot was taken and the first window, if any, admitted (`nextDecision`). `admission` is
   * null when the log moved: nothing
   * was taken, the caller catches up and asks again. A failure of the ask alone leaves the
   * request begun (`failure`).
   */
  beginThenAdmit(after: number, ask: SharedAdmissionAsk): Promise<{ begin: Begin; admission: SharedAdmission | null }>;
  /** Appends one command to the log; resolves with its position (consecutive integers from 1). */
  append(command: string): Promise<number>;
  /** Commands logged after position `after`, oldest first, at most `count`. */
  read(after: number, count: number): Promise<LoggedCommand[]>;
  /**
   * Atomically: forgets every window, journal entry, counter and logged command, then logs
   * `command` (the reset itself) as the first command of the new history; resolves with its
   * position. In-flight leases survive (their requests are still running). The journal starts
   * over, complete, from `now`.
   */
  reset(command: string, now: number): Promise<number>;
  readonly windows: SharedWindows;
  readonly leases: SharedLeases;
  readonly journal: SharedJournal;
  /** Increments and returns a named counter (a scenario's draw ordinal per subject); from 1. */
  ordinal(name: string): Promise<number>;
  /**
   * Null while the store holds everything written to it; once it found that it lost what it
   * held (a Redis restarted without persistence, or flushed), what it lost and when. Optional:
   * a store that cannot lose data leaves it out.
   */
  readonly dataLoss?: StoreDataLoss | null;
  /** Closes the connection; leases this process holds are released first when possible. */
  close(): Promise<void>;
}

/** A shared store that lost the data it held, as `GET /__sim/health` reports it. */
export interface StoreDataLoss {
  /** How many times this process found the store emptied. */
  readonly count: number;
  /** When it last found it (wall clock, ms since the epoch). */
  readonly at: number;
  /** One line: what was lost and what the simulator did about it. */
  readonly message: string;
}

/** The settings every process of one shared simulator must agree on. */
export interface SharedSettings {
  readonly seed: string;
  readonly profile: string;
  readonly limits: 'enforce' | 'off';
  /** Journal entries kept (the oldest are dropped first). */
  readonly journalCapacity: number;
  /** Anything else that changes answers, already serialized (world options, startup scenarios). */
  readonly fingerprint: string;
}

/** Commands {@link SharedStore.begin} returns at most. */
export const BEGIN_COMMANDS = 256;

/** A command of the shared log: its position and its serialized body. */
export interface LoggedCommand {
  readonly position: number;
  readonly body: string;
}

/** What {@link SharedStore.begin} answers. */
export interface Begin {
  readonly index: number;
  readonly seq: number;
  /** The last position logged when the request began (0 when the log is empty). */
  readonly last: number;
  /** Commands after the `after` given, oldest first (possibly fewer than up to `last`). */
  readonly commands: readonly LoggedCommand[];
}

/** A window decision of the shared store, with where it stands in the order of all checks. */
export interface SharedWindowDecision extends WindowDecision {
  /** Position of this check among all window checks since the last reset, from 1: the order the store saw them. */
  readonly order: number;
  /**
   * The instant the check was judged at: the `now` asked for, or the latest instant any
   * earlier check was judged at when that is later (processes' clocks may be a millisecond
   * apart; a window's instants never run backwards).
   */
  readonly at: number;
}

/** Exact sliding-window logs (the SPEC 8 windows), one per identity. */
export interface SharedWindows {
  /** Checks and, when admitted, records one request in the window of `id` (atomic). */
  consume(id: string, now: number, limit: number, windowMs: number): Promise<SharedWindowDecision>;
  /** What the window of `id` holds at `now`, recording nothing. */
  peek(id: string, now: number, limit: number, windowMs: number): Promise<WindowUsage>;
}

/** One window check asked of the store: the window's id, the instant, its limit and length. */
export interface WindowAsk {
  readonly id: string;
  readonly now: number;
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The in-flight gate's ask sent with a request's begin: the fingerprint's slot under `cap`, then
 * the window when given, then the `next` window when given, checked only when the slot was taken
 * and the first window (if any) admitted the request.
 */
export interface SharedAdmissionAsk {
  readonly fingerprint: string;
  readonly cap: number;
  readonly window: WindowAsk | null;
  readonly next: WindowAsk | null;
}

/** A slot asked of the store: taken or not, how many were held before, and the lease when taken. */
export interface SharedSlot {
  readonly acquired: boolean;
  readonly held: number;
  readonly lease: string | null;
}

/**
 * What {@link SharedStore.beginThenAdmit} took: the slot and the window's decision (null when the
 * slot was refused or no window was asked) and the next window's (null when it was not asked,
 * not reached or could not be checked: the caller checks it alone), or what failed.
 */
export type SharedAdmission =
  | { readonly slot: SharedSlot; readonly decision: SharedWindowDecision | null; readonly nextDecision: SharedWindowDecision | null }
  | { readonly failure: Error };

/** The in-flight leases of the SPEC 8.2.2 concurrency cap, per presented-secret fingerprint. */
export interface SharedLeases {
  /**
   * Takes a slot unless `cap` are held (atomic); `held` is the count before. A lease lives a
   * few seconds unless renewed: the store renews the leases of this process until they are
   * released, so a dead process's leases free themselves.
   */
  acquire(fingerprint: string, cap: number): Promise<SharedSlot>;
  /**
   * Takes a slot as `acquire` does and, only when it is taken, checks and records one request in
   * a window as {@link SharedWindows.consume} does, in one atomic step (`decision` is null when
   * the slot was refused).
   */
  acquireThenConsume(fingerprint: string, cap: number, window: WindowAsk): Promise<{ slot: SharedSlot; decision: SharedWindowDecision | null }>;
  /** Gives a lease back; releasing one twice is harmless. */
  release(fingerprint: string, lease: string): Promise<void>;
  /** Slots held now by every fingerprint together. */
  total(): Promise<number>;
  /** Slots held now by one fingerprint. */
  held(fingerprint: string): Promise<number>;
}

/** The decision journal as one log across processes, listed in `seq` order. */
export interface SharedJournal {
  /**
   * Appends a request's entry. `position` is the log position the request began at (its
   * begin's `last`): it tells which history the entry belongs to, should the store have to
   * append it late, after a reset.
   */
  append(entry: JournalEntry, position: number): Promise<void>;
  /** Every kept entry, in `seq` order. */
  list(): Promise<JournalEntry[]>;
  info(): Promise<JournalInfo>;
  /** Drops the entries (the windows keep their state: the journal is then incomplete). */
  clear(now: number): Promise<JournalInfo>;
}

/** Tells a shared store from the in-memory admission store a simulator may also be given. */
export function isSharedStore(store: unknown): store is SharedStore {
  return typeof store === 'object' && store !== null && (store as { kind?: unknown }).kind === 'shared';
}
