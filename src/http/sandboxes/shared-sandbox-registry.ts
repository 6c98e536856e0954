import { DEFAULT_MAX_SANDBOXES, DEFAULT_SANDBOX_IDLE_SECONDS, SANDBOX_PATH_PREFIX, type CreateSandboxRequest, type SandboxCreated, type SandboxListing } from '../../contract/sandboxes.js';
import { conflict, validationError, type SimError } from '../../sim/errors.js';
import type { Simulator } from '../../sim/simulator.js';
import type { SandboxDirectory, SandboxRecord } from './sandbox-directory.js';
import { capReached, overridesOf, unknownSandbox, type SandboxFactory, type SandboxOverrides, type SandboxRegistry } from './sandbox-registry.js';

/** Options of {@link createSharedSandboxRegistry}. */
export interface SharedSandboxRegistryOptions {
  /** Builds a sandbox's simulator from its overrides (their `storePrefix` is the sandbox's store). */
  readonly create: SandboxFactory;
  /** Where every process of the store finds the live sandboxes. */
  readonly directory: SandboxDirectory;
  /** Draws the store prefix of a new sandbox (`sandboxStorePrefix`). */
  readonly storePrefixOf: (id: string) => string;
  readonly maxSandboxes?: number;
  readonly idleMs?: number;
  /** The server's wall clock, epoch ms (default `Date.now`). */
  readonly now?: () => number;
  /** The server's seed and profile: a sandbox's unless it names its own (for listings). */
  readonly defaults: { readonly seed: string; readonly profile: 'spec' | 'live' };
}

/** A simulator this process built for a sandbox (a cache: the sandbox's state is its store's). */
interface Built {
  readonly simulator: Simulator;
  /** The store prefix it was built on: another one means the id was deleted and made again. */
  readonly storePrefix: string | undefined;
}

const unavailable = (hint: string): SimError => ({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The sandbox store did not answer', hint: hint.slice(0, 300), headers: { 'Retry-After': '5' } });

/**
 * The sandboxes of a server that several processes serve through a shared store (`--workers N`,
 * or separate `serve` processes on one store and prefix): the directory holds what each sandbox
 * is built from (and its last use, its request count, the cap), so any process answers any
 * sandbox's request. Each process builds its own simulator of a sandbox the first time one of its
 * requests arrives there; the simulators share the sandbox's store prefix, so they answer as one.
 * A request costs one more round trip (the directory's `use`: is it live, count it). Deleting a
 * sandbox on one process is seen by every other at its next request (404). This process keeps at
 * most `maxSandboxes` built simulators, dropping the least recently used (a cache only).
 */
export function createSharedSandboxRegistry(options: SharedSandboxRegistryOptions): SandboxRegistry {
  const max = options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES;
  const idleMs = options.idleMs ?? DEFAULT_SANDBOX_IDLE_SECONDS * 1000;
  const now = options.now ?? Date.now;
  const { directory } = options;
  /** Built simulators by id, the least recently used first. */
  const built = new Map<string, Built>();
  const building = new Map<string, Promise<Simulator | SimError>>();
  let drawn = 0;

  const forget = (id: string, reset: boolean): void => {
    const entry = built.get(id);
    if (!entry) return;
    built.delete(id);
    const { simulator } = entry;
    (reset ? simulator.reset() : Promise.resolve())
      .catch(() => undefined)
      .then(() => simulator.close())
      .catch(() => undefined);
  };
  const keep = (id: string, entry: Built): void => {
    built.delete(id);
    built.set(id, entry);
    while (built.size > max) forget(built.keys().next().value as string, false);
  };
  const build = (record: SandboxRecord): Promise<Simulator | SimError> => {
    const pending = building.get(record.id);
    if (pending) return pending;
    const made = (async (): Promise<Simulator | SimError> => {
      let simulator: Simulator;
      try {
        simulator = options.create(record.overrides);
      } catch (error) {
        return validationError([{ field: record.overrides.world !== undefined ? 'world' : 'body', message: (error as Error).message.slice(0, 2000) }]);
      }
      try {
        await simulator.ready();
      } catch (error) {
        void simulator.close().catch(() => undefined);
        return unavailable((error as Error).message);
      }
      keep(record.id, { simulator, storePrefix: record.overrides.storePrefix });
      return simulator;
    })().finally(() => building.delete(record.id));
    building.set(record.id, made);
    return made;
  };

  return {
    async create(request: CreateSandboxRequest, serverUrl: string): Promise<SandboxCreated | SimError> {
      const overridesFor = (id: string): SandboxOverrides => ({ ...overridesOf(id, request), storePrefix: options.storePrefixOf(id) });
      let record: SandboxRecord | undefined;
      // A drawn id another process took is passed over (bounded: one try per live sandbox and one more).
      for (let attempt = 0; attempt <= max; attempt++) {
        const id = request.id ?? `sbx-${++drawn}`;
        const candidate: SandboxRecord = { id, overrides: overridesFor(id), createdAt: now() };
        let claimed: 'claimed' | 'taken' | 'full';
        try {
          claimed = await directory.claim(candidate, max, idleMs, candidate.createdAt);
        } catch (error) {
          return unavailable((error as Error).message);
        }
        if (claimed === 'full') return capReached(max);
        if (claimed === 'claimed') {
          record = candidate;
          break;
        }
        if (request.id !== undefined) return conflict(`A sandbox with id ${id} is live`, 'Pick another id, leave id out for a fresh one, or DELETE /__sim/sandboxes/<id> first.');
      }
      if (!record) return capReached(max);
      forget(record.id, false);
      const simulator = await build(record);
      if ('status' in simulator) {
        await directory.release(record.id).catch(() => undefined);
        return simulator;
      }
      return { id: record.id, baseUrl: `${serverUrl}${SANDBOX_PATH_PREFIX}${record.id}`, seed: simulator.seed, profile: simulator.profile, clock: simulator.clock.snapshot() };
    },
    async list(): Promise<SandboxListing> {
      const at = now();
      const entries = await directory.list(idleMs, at);
      return {
        sandboxes: entries.map(({ record, lastUsed, requests }) => ({
          id: record.id,
          seed: built.get(record.id)?.simulator.seed ?? record.overrides.seed ?? options.defaults.seed,
          profile: built.get(record.id)?.simulator.profile ?? record.overrides.profile ?? options.defaults.profile,
          createdAt: new Date(record.createdAt).toISOString(),
          idleMs: Math.max(0, Math.round(at - lastUsed)),
          requests,
        })),
        max,
        idleSeconds: idleMs / 1000,
      };
    },
    async remove(id) {
      let released: boolean;
      try {
        released = await directory.release(id);
      } catch (error) {
        return unavailable((error as Error).message);
      }
      forget(id, released);
      return released ? true : unknownSandbox(id, idleMs / 1000);
    },
    async take(id) {
      let record: SandboxRecord | null;
      try {
        record = await directory.use(id, now(), idleMs);
      } catch (error) {
        return unavailable((error as Error).message);
      }
      if (record === null) {
        forget(id, false);
        return unknownSandbox(id, idleMs / 1000);
      }
      const entry = built.get(id);
      if (entry && entry.storePrefix === record.overrides.storePrefix) {
        keep(id, entry);
        return entry.simulator;
      }
      forget(id, false);
      return build(record);
    },
    size: () => built.size,
    async closeAll() {
      const all = [...built.values()];
      built.clear();
      await Promise.all(all.map((entry) => entry.simulator.close().catch(() => undefined)));
      await directory.close();
    },
  };
}
