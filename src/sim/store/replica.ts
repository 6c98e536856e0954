import type { Principal } from '../auth/principal.js';
import { authRequired, conflict, internalError, serviceUnavailable } from '../errors.js';
import type { SimRequest } from '../messages.js';
import { startExchange, type Stage } from '../pipeline/exchange.js';
import { NoAnswer, runStages } from '../pipeline/run-stages.js';
import type { Matcher } from '../routing/router.js';
import type { Applied, Replica, SimulatorCore } from '../simulator-core.js';

export type { Applied, Replica } from '../simulator-core.js';
import type { LoggedCommand, SharedStore } from './shared-store.js';

/** A principal as the log carries it: keys and users by id, never by secret. */
type PrincipalRef =
  | { readonly kind: 'anonymous'; readonly ip: string; readonly problem: string | null; readonly live?: Principal['live'] }
  | { readonly kind: 'apikey'; readonly ip: string; readonly keyId: string; readonly live?: Principal['live'] }
  | { readonly kind: 'user'; readonly ip: string; readonly userId: string; readonly live?: Principal['live'] };

/** A logged command: a request that changes state, or a reset. `o` and `t` name the process and ticket waiting for it. */
type Command =
  | {
      readonly k: 'request';
      readonly o: string;
      readonly t: number;
      readonly control: boolean;
      readonly request: SimRequest;
      readonly requestId: string;
      readonly now: number;
      readonly principal: PrincipalRef | null;
    }
  | { readonly k: 'reset'; readonly o: string; readonly t: number; readonly seed: string | null; readonly now: number };

/** Headers that carry credentials: never logged (the principal travels by id instead). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

/** Commands read per round trip while catching up. */
const READ_BATCH = 512;

/** What a replica needs from its simulator. */
export interface ReplicaParts {
  readonly store: SharedStore;
  readonly core: SimulatorCore;
  readonly matchPublic: Matcher;
  readonly matchControl: Matcher;
  /** The stages that apply a logged public or control request: the route's own steps, no admission. */
  readonly publicStages: readonly Stage[];
  readonly controlStages: readonly Stage[];
  /** Rebuilds this process's state from the seed (the reset every replica applies). */
  restart(seed: string | undefined): void;
  /** A name for this process, unique among the processes sharing the store (injected: the core draws no randomness of its own). */
  readonly origin: string;
}

/** A logged request whose stages dropped the connection as the log applied it (a bug: the replay runs no faults), answered 500 with this as its cause. */
class DroppedOnReplay extends Error {
  override readonly name = 'DroppedOnReplay';
  constructor() {
    super('a logged request dropped its connection as the log applied it');
  }
}

/** Creates the replica of one process. */
export function createReplica(parts: ReplicaParts): Replica {
  const { store, core } = parts;
  let applied = 0;
  /** Which command is at `applied` ('' before any): its process and ticket, which name one command ({@link tagOf}). */
  let appliedTag = '';
  let tickets = 0;
  const waiting = new Map<number, (applied: Applied) => void>();
  /** The tail of the apply queue: each catch-up runs after the one before it. */
  let queue: Promise<void> = Promise.resolve();

  const refOf = (principal: Principal | undefined): PrincipalRef | null => {
    if (!principal) return null;
    const live = principal.live ? { live: principal.live } : {};
    switch (principal.kind) {
      case 'apikey':
        return { kind: 'apikey', ip: principal.ip, keyId: principal.key.id, ...live };
      case 'user':
        return { kind: 'user', ip: principal.ip, userId: principal.user.id, ...live };
      case 'anonymous':
        return { kind: 'anonymous', ip: principal.ip, problem: principal.problem, ...live };
    }
  };

  const principalOf = (ref: PrincipalRef | null): Principal | null => {
    if (!ref) return null;
    const state = core.state();
    const live = ref.live ? { live: ref.live } : {};
    switch (ref.kind) {
      case 'apikey': {
        const key = state.keysById.get(ref.keyId);
        return key ? { kind: 'apikey', ip: ref.ip, key, ...live } : null;
      }
      case 'user': {
        const user = state.users.get(ref.userId);
        return user ? { kind: 'user', ip: ref.ip, user, ...live } : null;
      }
      case 'anonymous':
        return { kind: 'anonymous', ip: ref.ip, problem: ref.problem, ...live };
    }
  };

  /** Applies one logged request to this process's state: the route's steps, as the request would have run them here. */
  const applyRequest = async (command: Extract<Command, { k: 'request' }>): Promise<Applied> => {
    const principal = principalOf(command.principal);
    if (command.principal && !principal) {
      // The key or user was deleted between the request's admission and its turn in the log.
      return { answer: authRequired('The credential was deleted before the request could be applied'), warnings: [] };
    }
    const match = (command.control ? parts.matchControl : parts.matchPublic)(command.request.method, command.request.path);
    const x = startExchange({ request: command.request, requestId: command.requestId, now: command.now, sim: core, state: core.state(), match, principal: principal ?? undefined });
    const outcome = await runStages(command.control ? parts.controlStages : parts.publicStages, x);
    const answer = outcome.answer === null ? internalError(new NoAnswer()) : 'drop' in outcome.answer ? internalError(new DroppedOnReplay()) : outcome.answer;
    return { answer, warnings: x.warnings };
  };

  /** A command's process and ticket (a logged request may carry a body of a megabyte: the replica keeps only this); an unreadable one, its text. */
  const tagOf = (logged: LoggedCommand, command: Command | null): string => (command === null ? logged.body : `${command.o}\u0000${command.t}`);

  const parse = (logged: LoggedCommand): Command | null => {
    try {
      return JSON.parse(logged.body) as Command;
    } catch {
      return null;
    }
  };

  const apply = async (position: number, command: Command | null): Promise<void> => {
    if (command === null) {
      applied = position;
      return;
    }
    let result: Applied;
    if (command.k === 'reset') {
      parts.restart(command.seed ?? undefined);
      result = { answer: { reply: true, status: 200, body: undefined }, warnings: [] };
    } else {
      try {
        result = await applyRequest(command);
      } catch (failure) {
        // A bug in the route's handler: the journal names its class, as for a request run here.
        result = { answer: internalError(failure), warnings: [] };
      }
    }
    applied = position;
    if (command.o === parts.origin) {
      const resolve = waiting.get(command.t);
      waiting.delete(command.t);
      resolve?.(result);
    }
  };

  /**
   * Applies every command up to position `last`, starting with `first` (what a begin already
   * fetched). A gap before a reset is history the reset erased; a gap before anything else, or
   * a store that no longer holds the last command applied, means the store lost commands (it
   * was emptied): this replica then starts over from the seed, as every other replica does when
   * it sees the same.
   */
  const applyThrough = async (last: number, first: readonly LoggedCommand[]): Promise<void> => {
    let batch = first;
    if (last < applied) {
      // An answer older than what the replica applied since (answers handled in another order
      // than Redis gave them) says less than the replica knows. The store was emptied only if it
      // no longer holds the last command applied: not the same process and ticket at that position, and no
      // reset past it (a reset erases the log before it; a later catch-up applies the reset).
      const [next] = await store.read(applied - 1, 1);
      if (next !== undefined && (next.position > applied || tagOf(next, parse(next)) === appliedTag)) return;
      parts.restart(undefined);
      applied = 0;
      appliedTag = '';
      // What the answer carried is history of the store before it lost it.
      batch = [];
    }
    while (applied < last) {
      if (batch.length === 0 || batch[batch.length - 1]!.position <= applied) batch = await store.read(applied, READ_BATCH);
      if (batch.length === 0) return;
      for (const logged of batch) {
        if (logged.position <= applied) continue;
        const command = parse(logged);
        if (logged.position > applied + 1 && command?.k !== 'reset') parts.restart(undefined);
        await apply(logged.position, command);
        appliedTag = tagOf(logged, command);
        if (applied >= last) break;
      }
      batch = [];
    }
  };

  const enqueue = (work: () => Promise<void>): Promise<void> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };

  const waitFor = async (ticket: number, log: () => Promise<number>): Promise<Applied> => {
    const result = new Promise<Applied>((resolve) => waiting.set(ticket, resolve));
    let position: number;
    try {
      position = await log();
    } catch (error) {
      waiting.delete(ticket);
      throw error;
    }
    await enqueue(() => applyThrough(position, []));
    // Caught up past the command and it was never applied here: a reset another process logged
    // erased it first. Answered, rather than left waiting for a command that is gone.
    const unapplied = waiting.get(ticket);
    if (unapplied !== undefined) {
      waiting.delete(ticket);
      unapplied({ answer: conflict('The request was erased from the shared log (by a reset, or a store that lost its data) before it could be applied', 'Send it again'), warnings: [] });
    }
    return result;
  };

  return {
    get applied() {
      return applied;
    },
    catchUp(begin) {
      if (begin.last === applied && begin.commands.length === 0) return Promise.resolve();
      return enqueue(() => applyThrough(begin.last, begin.commands));
    },
    catchUpAll() {
      return enqueue(() => applyThrough(Number.MAX_SAFE_INTEGER, []));
    },
    async submit(x) {
      const ticket = ++tickets;
      const headers: Record<string, string | undefined> = {};
      for (const name in x.request.headers) if (!CREDENTIAL_HEADERS.has(name)) headers[name] = x.request.headers[name];
      const command: Command = {
        k: 'request',
        o: parts.origin,
        t: ticket,
        control: x.control,
        request: { ...x.request, headers },
        requestId: x.requestId,
        now: x.now,
        principal: refOf(x.principal),
      };
      try {
        return await waitFor(ticket, () => store.append(JSON.stringify(command)));
      } catch (failure) {
        return { answer: serviceUnavailable(failure), warnings: [] };
      }
    },
    async reset(seed, now) {
      const ticket = ++tickets;
      const command: Command = { k: 'reset', o: parts.origin, t: ticket, seed: seed ?? null, now };
      await waitFor(ticket, () => store.reset(JSON.stringify(command), now));
    },
  };
}
