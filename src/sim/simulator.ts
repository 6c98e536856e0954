import type { FixturesListing } from '../contract/fixtures.js';
import type { Scenario, ScenarioInput } from '../contract/scenario.js';
import { ingestDelayMsSchema } from '../contract/control.js';
import type { Route } from './routing/route.js';
import { createAdminApi, type KeyAdmin, type SessionAdmin } from './admin/admin-api.js';
import type { Admission } from './admission/admission.js';
import { createMemoryLimiter, createSharedLimiter } from './admission/limiter.js';
import { createInFlightGate } from './admission/in-flight-gate.js';
import { createMemoryStore, type AdmissionStore } from './admission/store.js';
import { serviceUnavailable } from './errors.js';
import { CONTROL_REPLAY } from './pipeline/control-pipeline.js';
import { PUBLIC_REPLAY } from './pipeline/public-pipeline.js';
import { createRequestIds } from './request-id.js';
import { errorResponse } from './respond.js';
import { createReplica, type Replica } from './store/replica.js';
import { isSharedStore, type SharedSettings, type SharedStore } from './store/shared-store.js';
import { createSimClock, type ClockMode, type SimClock } from './clock.js';
import { createControlBackend, type ControlBackend } from './control/control-backend.js';
import { CONTROL_ROUTES } from './control/control-table.js';
import { createOriginPolicy } from './cors/origins.js';
import { isError } from './routing/route.js';
import { resolveScenario } from './faults/resolve-scenario.js';
import type { ActiveScenario } from './faults/scenario-runner.js';
import { createRequestHandler } from './handle-request.js';
import { createJournal, DEFAULT_JOURNAL_CAPACITY, type Journal } from './journal/journal.js';
import { createExchangeLog, DEFAULT_EXCHANGES_KEPT, MAX_EXCHANGES_KEPT, MAX_HAR_BODY_CHARS } from './journal/exchange-log.js';
import type { HandleOptions, SimRequest, SimResponse } from './messages.js';
import type { MetricsRenderer, MetricsSnapshot } from './metrics/request-counters.js';
import { createSimMetrics } from './metrics/sim-metrics.js';
import type { Profile } from './profile.js';
import type { WorldFactory } from './model/world.js';
import { PUBLIC_ROUTES } from './routing/public-routes.js';
import { createRouter } from './routing/router.js';
import { createSeededRun } from './seeded-run.js';
import { createReplayIndex } from './query/engine/replay-index.js';
import type { SimulatorCore } from './simulator-core.js';

/** Options of {@link createSimulator}. Everything with an effect on answers is injected. */
export interface SimulatorOptions {
  /** Seed of the world, the request ids and every random draw. Default `42`. */
  readonly seed?: string | number;
  /** Builds the world for a seed (the seeded fixtures, or a test's own). */
  readonly createWorld: WorldFactory;
  /** `virtual` (default): time moves only when told. `real`: follows `realNow`. */
  readonly clock?: ClockMode;
  /** Start of virtual time, epoch ms. */
  readonly startMs?: number;
  /** The real time source (e.g. `Date.now`); required for the real clock. */
  readonly realNow?: () => number;
  /**
   * Where admission state lives. Default: in memory. An {@link AdmissionStore} keeps only the
   * rate windows elsewhere (a failing one yields 503s, not crashes). A {@link SharedStore}
   * (`createRedisStore`) lets several processes serve one simulator: windows, leases, the
   * journal, request numbers and the log of state changes live there, every process keeps a
   * replica of the state, and answers are the same whichever process serves a request. Await
   * `ready()` before serving. With a shared store, change state through requests
   * (`sim.handle` on `/__sim/*`, or HTTP): the direct mutators of `clock`, `keys`, `sessions`,
   * `scenarios` and `setProfile` would change this process only, so they throw.
   */
  readonly store?: AdmissionStore | SharedStore;
  /** Journal entries kept (default 100,000; the oldest are dropped first). */
  readonly journalCapacity?: number;
  /** Scenarios that can be started by name (the built-ins, injected by the library entry). */
  readonly catalog?: readonly Scenario[];
  /** Scenarios to run from the start, names from the catalog or definitions; restarted on reset. */
  readonly scenarios?: readonly (string | ScenarioInput)[];
  /**
   * Refuse `/__sim` requests whose Host header is not a loopback name (a defence against DNS
   * rebinding for a server bound to loopback). Default false; the CLI turns it on.
   */
  readonly guardControlHost?: boolean;
  /**
   * Require `Authorization: Bearer <controlToken>` on every `/__sim` request (401 without it):
   * for a server reachable from the network (the CLI sets it on a non-loopback `--host`).
   * Default: none, the control plane is open (loopback and in-process use).
   */
  readonly controlToken?: string;
  /**
   * `off` skips the per-endpoint limits, the per-key quota and the concurrency cap (scenario
   * faults still apply), like the live service's end-to-end mode: for runs where limits are
   * not what is under test, such as throughput benchmarks. Default `enforce`.
   */
  readonly limits?: 'enforce' | 'off';
  /**
   * Bounds of the events `POST /track` keeps (default 1,000,000 events and 256 Mi characters
   * of event text). When a batch does not fit, the request is refused with 503
   * EVENT_STORAGE_FULL and nothing already accepted is dropped. Reset empties the store.
   */
  readonly eventStorage?: { readonly maxEvents?: number; readonly maxChars?: number };
  /**
   * Page origins that may call the API from a browser with credentials (CORS) and whose
   * session cookie counts (SPEC 5.5): origins, `scheme://host:*` for any port, or `*`. The
   * simulator's own origin is always allowed. Default: any port of http://localhost,
   * http://127.0.0.1 and http://[::1]. An entry that is not an origin throws.
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Refuse with 400 VALIDATION_ERROR what the simulator would otherwise ignore or reinterpret
   * (an unknown or misspelt field, a value it falls back from, a dropped filter, an
   * organization-wide fallback), naming each finding. Default false: such requests are answered
   * as the live service answers them, with a `Warning` header per finding.
   */
  readonly strict?: boolean;
  /**
   * `spec` (default) follows SPEC.md where it is explicit; `live` follows the live service on
   * every named switch of `PROFILE_SWITCHES`. Switch at run time with `setProfile` or
   * `PUT /__sim/profile`; a reset keeps it.
   */
  readonly profile?: Profile;
  /**
   * Estimated bytes of generated traffic kept between requests (default 128 MiB): a bound on
   * resident memory whatever ranges are asked. A smaller cache costs time, never changes an answer.
   */
  readonly trafficCacheBytes?: number;
  /**
   * Milliseconds from an ingestion route accepting a record to queries seeing it (default 0:
   * visible at once, in every answer asked at or after its instant). A delay tests a client that
   * must cope with the live pipeline's lag; change it at run time with `PUT /__sim/ingest-delay`.
   * Whole milliseconds from 0 to 86,400,000; anything else throws.
   */
  readonly ingestDelayMs?: number;
  /**
   * Characters of each request and answer body `GET /__sim/journal.har` keeps, 0 (default) to
   * 65,536: the HAR of the latest exchanges (`harEntries`) then carries their bodies (Playwright's
   * `routeFromHAR` replays them). Off by default: headers and statuses only.
   */
  readonly harBodies?: number;
  /**
   * How many of the latest service exchanges `GET /__sim/journal.har` holds: 0 (none) to
   * 100,000; default 100.
   */
  readonly harEntries?: number;
  /**
   * Lets other work run; awaited between the queries of a batch so a long batch does not hold
   * the process. The core never schedules anything itself: whoever serves the simulator passes
   * one (the CLI server passes `setImmediate`; a program serving it itself, with
   * `analytics-sim/express` for instance, passes its own). Default: resolves at once (nothing else runs in between).
   */
  readonly yieldToEventLoop?: () => Promise<void>;
  /**
   * A recording (the parsed JSON of a file `analytics-sim record` wrote; `contract/recording.ts`):
   * a query parameter asked exactly as a recorded one (type, scope, range, time zone, filters,
   * paging) is answered with the recorded rows, with a `Warning` naming it; every other one from
   * the generated world. Auth, scopes, limits, scenarios and the journal apply as always. A
   * recording with an unknown version, a malformed entry or a secret in it throws
   * `RecordingRefused` here, naming the entry (index and path).
   */
  readonly replay?: unknown;
}

/** The metrics of a simulator, as `GET /__sim/metrics` exposes them. */
export interface SimulatorMetrics {
  /** The counters, in-flight counts, journal size and clock at this instant. */
  snapshot(): Promise<MetricsSnapshot>;
  /** Installs how `GET /__sim/metrics` renders (the HTTP adapters install the Prometheus text format). */
  useRenderer(render: MetricsRenderer): void;
}

/** Starts, stops and lists fault scenarios of a simulator. */
export interface ScenarioControl {
  /** Starts a catalog scenario by name or a definition (validated); throws on an invalid one. */
  start(scenario: string | ScenarioInput): ActiveScenario;
  /** Stops one scenario, or all; returns the names stopped. */
  stop(name?: string): string[];
  /** The running scenarios with the state of each step at the current instant. */
  list(): ActiveScenario[];
}

/**
 * A simulator: a function from request to response over seeded state. Two simulators with
 * the same options answer the same request sequence with the same bytes.
 */
export interface Simulator {
  readonly seed: string;
  readonly clock: SimClock;
  /** Every admission decision, bounded; see `GET /__sim/journal`. */
  readonly journal: Journal;
  /** Fault scenarios; see `GET /__sim/scenarios`. */
  readonly scenarios: ScenarioControl;
  /** Answers one request. Never rejects: failures are answered with a 500 body. */
  handle(request: SimRequest, options?: HandleOptions): Promise<SimResponse>;
  /** The seeded world with its secrets, as `GET /__sim/fixtures` lists it. */
  fixtures(): FixturesListing;
  /** Back to the seeded state, optionally with a new seed; restarts the clock, clears limits and journal. */
  reset(seed?: string | number): Promise<void>;
  /** API key administration and the audit log, as `/__sim/keys` and `/__sim/audit` do it. */
  readonly keys: KeyAdmin;
  /** Dashboard sessions, as `/__sim/sessions` does it. */
  readonly sessions: SessionAdmin;
  /** The harness operations behind `/__sim` (health, fixtures, clock, journal, scenarios), as values. */
  readonly control: ControlBackend;
  /**
   * `GET /__sim/metrics`: this process's decision counters with the in-flight counts, the
   * journal's size and the clock, as data (`snapshot`); the HTTP adapters install the
   * Prometheus renderer (`useRenderer`).
   */
  readonly metrics: SimulatorMetrics;
  /** The profile answers follow now. */
  readonly profile: Profile;
  /** Switches the profile for every later request (as `PUT /__sim/profile`). */
  setProfile(profile: Profile): void;
  /**
   * Resolves once the simulator can serve: at once in memory; with a shared store, once the
   * store is reachable, holds this simulator's settings (or none yet) and this process has
   * applied the shared log. Rejects with a readable message otherwise; it may be called again.
   */
  ready(): Promise<void>;
  /** Releases what the simulator holds outside the process (a shared store's connection). */
  close(): Promise<void>;
}

const matchPublic = createRouter(PUBLIC_ROUTES);
const matchControl = createRouter(CONTROL_ROUTES);
const ALL_ROUTES: readonly Route[] = [...PUBLIC_ROUTES, ...CONTROL_ROUTES];

/** The default {@link SimulatorOptions.yieldToEventLoop}: nothing runs in between. */
const resolvedAtOnce = (): Promise<void> => Promise.resolve();

/**
 * Creates a simulator: wires the clock, the admission machinery, the seeded run (state, request
 * ids, scenarios: rebuilt on reset), the control backend and the request handler together.
 */
export function createSimulator(options: SimulatorOptions): Simulator {
  // Checked before anything is built: a refused recording starts nothing.
  const replay = options.replay === undefined ? null : createReplayIndex(options.replay);
  const clock = createSimClock({ mode: options.clock ?? 'virtual', startMs: options.startMs, realNow: options.realNow });
  const sharedStore = isSharedStore(options.store) ? options.store : null;
  const admission: Admission = {
    store: options.store && !isSharedStore(options.store) ? options.store : createMemoryStore(),
    gate: createInFlightGate(),
    journal: createJournal(clock.now(), options.journalCapacity ?? DEFAULT_JOURNAL_CAPACITY),
    exchanges: createExchangeLog(checkedHarEntries(options.harEntries), checkedHarBodies(options.harBodies)),
  };
  const catalog = new Map((options.catalog ?? []).map((scenario) => [scenario.name, scenario]));
  let ingestDelayMs = checkedIngestDelay(options.ingestDelayMs);
  const run = createSeededRun({
    seed: String(options.seed ?? 42),
    createWorld: options.createWorld,
    stateOptions: {
      eventStorage: options.eventStorage ?? {},
      ...(options.trafficCacheBytes !== undefined ? { trafficCacheBytes: options.trafficCacheBytes } : {}),
      intake: { now: () => clock.now(), delayMs: () => ingestDelayMs },
      replay,
    },
    startup: (options.scenarios ?? []).map((entry) => resolveScenario(entry, catalog)),
    clock,
    ...(sharedStore ? { ordinals: (name: string) => sharedStore.ordinal(name) } : {}),
  });
  let shared: { readonly store: SharedStore; readonly replica: Replica } | null = null;
  /** Back to the seeded state in this process (what every replica applies for a reset). */
  const metrics = createSimMetrics();
  const restartHere = (seed?: string): void => {
    clock.restart();
    run.restart(seed);
    admission.journal.restart(clock.now());
    admission.exchanges.clear();
    metrics.restart();
  };
  let profile: Profile = options.profile ?? 'spec';
  const control = createControlBackend({
    profile: {
      get: () => profile,
      set: (next) => {
        profile = next;
      },
    },
    metrics,
    ingestDelay: {
      get: () => ingestDelayMs,
      set: (ms) => {
        ingestDelayMs = ms;
      },
    },
    seed: () => run.seed,
    clock,
    admission,
    scenarios: () => run.scenarios,
    catalog,
    state: () => run.state,
    shared: () => sharedStore,
    async reset(seed) {
      if (shared) return shared.replica.reset(seed, clock.now());
      restartHere(seed);
      await admission.store.clear();
    },
  });
  const core: SimulatorCore = {
    get seed() {
      return run.seed;
    },
    clock,
    admission,
    limiter: sharedStore ? createSharedLimiter(sharedStore) : createMemoryLimiter(admission),
    get scenarios() {
      return run.scenarios;
    },
    catalog,
    guardHost: options.guardControlHost ?? false,
    controlToken: options.controlToken,
    strict: options.strict ?? false,
    get profile() {
      return profile;
    },
    enforceLimits: options.limits !== 'off',
    yieldToEventLoop: options.yieldToEventLoop ?? resolvedAtOnce,
    routes: ALL_ROUTES,
    origins: createOriginPolicy(options.allowedOrigins),
    control,
    metrics,
    get shared() {
      return shared;
    },
    state: () => run.state,
  };
  if (sharedStore) {
    shared = {
      store: sharedStore,
      replica: createReplica({
        store: sharedStore,
        core,
        matchPublic,
        matchControl,
        publicStages: PUBLIC_REPLAY,
        controlStages: CONTROL_REPLAY,
        restart: restartHere,
        origin: sharedStore.processId,
      }),
    };
  }
  const settings = (): SharedSettings => ({
    seed: String(options.seed ?? 42),
    profile: options.profile ?? 'spec',
    limits: options.limits ?? 'enforce',
    journalCapacity: options.journalCapacity ?? DEFAULT_JOURNAL_CAPACITY,
    fingerprint: JSON.stringify({
      clock: options.clock ?? 'virtual',
      startMs: options.startMs ?? null,
      strict: options.strict ?? false,
      ingestDelayMs: options.ingestDelayMs ?? 0,
      scenarios: options.scenarios ?? [],
      eventStorage: options.eventStorage ?? {},
      allowedOrigins: options.allowedOrigins ?? null,
      replay: replay?.fingerprint ?? null,
      // The world's keys (a config file adds keys to the world): processes must agree on them.
      keys: run.state.world.apiKeys.map((key) => `${key.id}:${key.keyHash}`),
    }),
  });
  /** The first successful opening of the shared store; retried after a failure. */
  let opened: Promise<void> | null = null;
  const ready = (): Promise<void> => {
    if (!shared) return Promise.resolve();
    const { store, replica } = shared;
    opened ??= store.open(settings()).then(
      () => replica.catchUpAll(),
      (error: unknown) => {
        opened = null;
        throw error;
      },
    );
    return opened;
  };
  const handle = createRequestHandler({ core, matchPublic, matchControl, requestIds: () => run.requestIds, controlIds: () => run.controlIds, numberRequest: () => run.numberRequest(), unnumberedIds: () => unnumbered });
  const unnumbered = createRequestIds(`${String(options.seed ?? 42)}/unnumbered`);
  const admin = createAdminApi(core);
  return {
    get seed() {
      return run.seed;
    },
    clock: sharedStore ? guardClock(clock) : clock,
    journal: admission.journal,
    scenarios: sharedStore ? guardMutators(scenarioControl(control, catalog), ['start', 'stop'], 'POST or DELETE /__sim/scenarios') : scenarioControl(control, catalog),
    handle: sharedStore
      ? async (request, handleOptions) => {
          try {
            await ready();
          } catch {
            return errorResponse(serviceUnavailable(), unnumbered.next());
          }
          return handle(request, handleOptions);
        }
      : handle,
    fixtures: () => control.fixtures(),
    keys: sharedStore ? guardMutators(admin.keys, ['create', 'update', 'rotate', 'revoke', 'delete'], '/__sim/keys') : admin.keys,
    sessions: sharedStore ? guardMutators(admin.sessions, ['signIn', 'signOut'], '/__sim/sessions') : admin.sessions,
    reset: async (seed) => {
      await ready();
      await control.reset(seed);
    },
    control,
    metrics: {
      snapshot: () => control.metrics.snapshot(),
      useRenderer: (render) => metrics.useRenderer(render),
    },
    get profile() {
      return profile;
    },
    setProfile(next) {
      if (sharedStore) throw sharedMutation('setProfile', 'PUT /__sim/profile');
      profile = next;
    },
    ready,
    close: async () => {
      await sharedStore?.close();
    },
  };
}

/** The ingestion delay option, checked: whole milliseconds from 0 to a day. */
function checkedIngestDelay(ms: number | undefined): number {
  if (ms === undefined) return 0;
  const parsed = ingestDelayMsSchema.safeParse(ms);
  if (!parsed.success) throw new Error(`ingestDelayMs: ${parsed.error.issues[0]?.message ?? 'invalid'} (got ${String(ms)})`);
  return parsed.data;
}

/** Why a direct mutator is refused with a shared store. */
function sharedMutation(name: string, route: string): Error {
  return new Error(`${name} would change this process only; with a shared store, send ${route} (over HTTP or with sim.handle) so that every process applies it`);
}

/** The same object, with the named methods throwing {@link sharedMutation}. */
function guardMutators<T extends object>(target: T, names: readonly (keyof T & string)[], route: string): T {
  const guarded = { ...target };
  for (const name of names) {
    (guarded as Record<string, unknown>)[name] = () => {
      throw sharedMutation(name, route);
    };
  }
  return guarded;
}

/** The clock as a shared simulator exposes it: read freely, changed only through `POST /__sim/clock`. */
function guardClock(clock: SimClock): SimClock {
  return guardMutators(
    {
      now: () => clock.now(),
      mode: () => clock.mode(),
      snapshot: () => clock.snapshot(),
      useVirtual: clock.useVirtual,
      useReal: clock.useReal,
      advance: clock.advance,
      set: clock.set,
      restart: clock.restart,
    },
    ['useVirtual', 'useReal', 'advance', 'set', 'restart'],
    'POST /__sim/clock',
  );
}

/** The library's scenario control: the backend's operations, throwing what HTTP answers. */
function scenarioControl(control: ControlBackend, catalog: ReadonlyMap<string, Scenario>): ScenarioControl {
  return {
    start(entry) {
      const started = control.scenarios.start(resolveScenario(entry, catalog));
      if (isError(started)) throw new Error(started.hint ?? started.message);
      return started;
    },
    stop: (name) => control.scenarios.stop(name),
    list: () => control.scenarios.list(),
  };
}

/** `harEntries` as given (default {@link DEFAULT_EXCHANGES_KEPT}), or the error saying what it takes. */
function checkedHarEntries(entries: number | undefined): number {
  if (entries === undefined) return DEFAULT_EXCHANGES_KEPT;
  if (!Number.isInteger(entries) || entries < 0 || entries > MAX_EXCHANGES_KEPT) throw new Error(`harEntries: whole exchanges from 0 to ${MAX_EXCHANGES_KEPT} (got ${String(entries)})`);
  return entries;
}

/** `harBodies` as given, or the error saying what it takes. */
function checkedHarBodies(chars: number | undefined): number {
  if (chars === undefined) return 0;
  if (!Number.isInteger(chars) || chars < 0 || chars > MAX_HAR_BODY_CHARS) throw new Error(`harBodies: whole characters from 0 to ${MAX_HAR_BODY_CHARS} (got ${String(chars)})`);
  return chars;
}
