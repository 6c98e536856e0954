import { randomBytes } from 'node:crypto';
import {
  DEFAULT_MAX_SANDBOXES,
  DEFAULT_SANDBOX_IDLE_SECONDS,
  SANDBOX_PATH_PREFIX,
  type CreateSandboxRequest,
  type SandboxCreated,
  type SandboxListing,
} from '../../contract/sandboxes.js';
import type { WorldConfig } from '../../contract/world.js';
import type { SandboxHost } from '../../sim/control/sandbox-host.js';
import { conflict, notFound, validationError, type SimError } from '../../sim/errors.js';
import type { Profile } from '../../sim/profile.js';
import type { Simulator } from '../../sim/simulator.js';

/** What a sandbox changes of the server's options; everything else is the server's. */
export interface SandboxOverrides {
  readonly id: string;
  readonly seed?: string;
  readonly profile?: Profile;
  readonly clock?: 'real' | 'virtual';
  /** Start of the virtual clock, epoch ms. */
  readonly startMs?: number;
  /** A world of the sandbox's own (`createSimulator({ world })`); default the server's. */
  readonly world?: WorldConfig;
  /** The key prefix of its shared store (a registry over a directory draws it at creation); default: drawn by the factory. */
  readonly storePrefix?: string;
}

/** Builds a sandbox's simulator: the server's options with the overrides (a shared store under the sandbox's own prefix). */
export type SandboxFactory = (overrides: SandboxOverrides) => Simulator;

/** Options of {@link createSandboxRegistry}. */
export interface SandboxRegistryOptions {
  readonly create: SandboxFactory;
  /** Live sandboxes at most (default {@link DEFAULT_MAX_SANDBOXES}); at the cap, creation is refused with 429. */
  readonly maxSandboxes?: number;
  /** Milliseconds without a request after which a sandbox is removed (default {@link DEFAULT_SANDBOX_IDLE_SECONDS} s; 0: never). */
  readonly idleMs?: number;
  /** The server's wall clock, epoch ms (default `Date.now`): creation instants and idle times only, never an answer of a simulator. */
  readonly now?: () => number;
}

/** A live sandbox. */
interface Sandbox {
  readonly id: string;
  readonly simulator: Simulator;
  readonly createdAt: number;
  lastUsed: number;
  requests: number;
}

/** The registry of one server's sandboxes: the {@link SandboxHost} of its `/__sim/sandboxes`, and the lookup of its dispatcher. */
export interface SandboxRegistry extends SandboxHost {
  /**
   * The simulator of a live sandbox, counted as one request and no longer idle; or the 404
   * naming the id (unknown, deleted, or idle past the timeout, which removes it now).
   */
  take(id: string): Simulator | SimError | Promise<Simulator | SimError>;
  /** Live sandboxes now. */
  size(): number;
  /** Removes every sandbox and releases what their simulators hold (a shared store's connection). */
  closeAll(): Promise<void>;
}

/**
 * What a creation request asks of the sandbox `id`: its seed, profile, clock (a `now` alone
 * means a virtual clock from that instant) and world, as the factory takes them.
 */
export function overridesOf(id: string, request: CreateSandboxRequest): SandboxOverrides {
  const startMs = request.now === undefined ? undefined : typeof request.now === 'number' ? request.now : Date.parse(request.now);
  return {
    id,
    ...(request.seed !== undefined ? { seed: String(request.seed) } : {}),
    ...(request.profile !== undefined ? { profile: request.profile } : {}),
    ...(request.clock !== undefined ? { clock: request.clock } : startMs !== undefined ? { clock: 'virtual' } : {}),
    ...(startMs !== undefined ? { startMs } : {}),
    ...(request.world !== undefined ? { world: request.world } : {}),
  };
}

/**
 * The key prefix of a sandbox's shared store: the server's prefix, `:sbx:`, the id and a
 * random incarnation (`analytics-sim:sbx:worker-1:9f3a0c1e`), so a sandbox deleted and made
 * again with the same id starts from its seeded state, whatever the last one left in the store.
 * Its keys carry the hash tag `{<that prefix>}`: on a cluster, a sandbox is a slot of its own.
 */
export function sandboxStorePrefix(serverPrefix: string, id: string): string {
  return `${serverPrefix}:sbx:${id}:${randomBytes(4).toString('hex')}`;
}

/** The 404 of a sandbox id no live sandbox has. */
export function unknownSandbox(id: string, idleSeconds: number): SimError {
  const idle = idleSeconds > 0 ? ` A sandbox idle for ${idleSeconds} s is removed.` : '';
  return notFound(
    { kind: 'Sandbox', id },
    { hint: `No live sandbox has id ${id}: create it with POST /__sim/sandboxes, or list the live ones with GET /__sim/sandboxes.${idle}` },
  );
}

/** The 429 at the cap: names the cap, how to raise it and how to free a place. */
export function capReached(max: number): SimError {
  return {
    status: 429,
    code: 'RATE_LIMITED',
    message: `Too many sandboxes: ${max} are live, the cap of this server (--max-sandboxes ${max})`,
    hint: `Delete one with DELETE /__sim/sandboxes/<id> (GET /__sim/sandboxes lists them), or start the server with a higher --max-sandboxes (config maxSandboxes). Idle sandboxes are removed after --sandbox-idle seconds.`,
  };
}

/**
 * Creates a registry of sandboxes in this process (a server in memory; a shared store's
 * processes use `createSharedSandboxRegistry`): isolated simulators beside a server's own, made by
 * `create` with the server's options but the overrides. Bounded: at most `maxSandboxes` live
 * (creation past it is refused with 429), and one idle for `idleMs` is removed when a request
 * for it, a creation or a listing finds it so (no timer). Ids not given are `sbx-1`, `sbx-2`, …
 * (the first free one), so a run names the same sandboxes each time.
 */
export function createSandboxRegistry(options: SandboxRegistryOptions): SandboxRegistry {
  const max = options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES;
  const idleMs = options.idleMs ?? DEFAULT_SANDBOX_IDLE_SECONDS * 1000;
  const now = options.now ?? Date.now;
  const live = new Map<string, Sandbox>();
  let drawn = 0;

  const expired = (sandbox: Sandbox, at: number): boolean => idleMs > 0 && at - sandbox.lastUsed >= idleMs;
  const drop = (sandbox: Sandbox): void => {
    live.delete(sandbox.id);
    // A reset leaves a shared store only the few keys of the sandbox's settings and counters;
    // then its connection is closed (in memory both are cheap and free nothing else).
    const { simulator } = sandbox;
    simulator
      .reset()
      .catch(() => undefined)
      .then(() => simulator.close())
      .catch(() => undefined);
  };
  const sweep = (): void => {
    const at = now();
    for (const sandbox of [...live.values()]) if (expired(sandbox, at)) drop(sandbox);
  };
  const nextId = (): string => {
    let id: string;
    do id = `sbx-${++drawn}`;
    while (live.has(id));
    return id;
  };

  return {
    async create(request: CreateSandboxRequest, serverUrl: string): Promise<SandboxCreated | SimError> {
      sweep();
      if (request.id !== undefined && live.has(request.id)) {
        return conflict(`A sandbox with id ${request.id} is live`, 'Pick another id, leave id out for a fresh one, or DELETE /__sim/sandboxes/<id> first.');
      }
      if (live.size >= max) return capReached(max);
      const id = request.id ?? nextId();
      let simulator: Simulator;
      try {
        simulator = options.create(overridesOf(id, request));
      } catch (error) {
        // What the simulator refuses to be built from: a world whose parts do not fit together.
        return validationError([{ field: request.world !== undefined ? 'world' : 'body', message: (error as Error).message.slice(0, 2000) }]);
      }
      try {
        await simulator.ready();
      } catch (error) {
        return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The sandbox could not be created', hint: (error as Error).message.slice(0, 300), headers: { 'Retry-After': '5' } };
      }
      // Another creation of the same id may have finished while this one waited for its store.
      if (live.has(id)) {
        void simulator.close().catch(() => undefined);
        return conflict(`A sandbox with id ${id} is live`, 'Pick another id, or leave id out for a fresh one.');
      }
      const at = now();
      live.set(id, { id, simulator, createdAt: at, lastUsed: at, requests: 0 });
      return { id, baseUrl: `${serverUrl}${SANDBOX_PATH_PREFIX}${id}`, seed: simulator.seed, profile: simulator.profile, clock: simulator.clock.snapshot() };
    },
    list(): SandboxListing {
      sweep();
      const at = now();
      return {
        sandboxes: [...live.values()].map((s) => ({
          id: s.id,
          seed: s.simulator.seed,
          profile: s.simulator.profile,
          createdAt: new Date(s.createdAt).toISOString(),
          idleMs: Math.max(0, Math.round(at - s.lastUsed)),
          requests: s.requests,
        })),
        max,
        idleSeconds: idleMs / 1000,
      };
    },
    remove(id) {
      const sandbox = live.get(id);
      if (!sandbox) return Promise.resolve(unknownSandbox(id, idleMs / 1000));
      drop(sandbox);
      return Promise.resolve(true);
    },
    take(id) {
      const sandbox = live.get(id);
      if (!sandbox) return unknownSandbox(id, idleMs / 1000);
      const at = now();
      if (expired(sandbox, at)) {
        drop(sandbox);
        return unknownSandbox(id, idleMs / 1000);
      }
      sandbox.lastUsed = at;
      sandbox.requests++;
      return sandbox.simulator;
    },
    size: () => live.size,
    async closeAll() {
      const all = [...live.values()];
      live.clear();
      await Promise.all(all.map((s) => s.simulator.close().catch(() => undefined)));
    },
  };
}
