import type { Admission } from './admission/admission-stages.js';
import { createInFlightGate } from './admission/in-flight-gate.js';
import { createMemoryStore, type AdmissionStore } from './admission/store.js';
import { createSimClock, type ClockMode, type SimClock } from './clock.js';
import { listFixtures } from './control/fixtures-listing.js';
import { internalError, type SimError } from './errors.js';
import type { HandleOptions, SimRequest, SimResponse } from './messages.js';
import { identityOf } from './auth/principal.js';
import { createJournal, DEFAULT_JOURNAL_CAPACITY, type Journal } from './journal/journal.js';
import type { WorldFactory } from './model/world.js';
import { PIPELINE, type Exchange, type StageResult } from './pipeline.js';
import { createRequestIds, type RequestIdSource } from './request-id.js';
import { errorResponse, replyResponse } from './respond.js';
import { isError, type SimulatorCore } from './route.js';
import { createRouter } from './router.js';
import { ROUTES } from './routes.js';
import { createState, type SimState } from './state.js';
import { scenarioSchema, type Scenario, type ScenarioInput } from '../contract/scenario.js';
import { issueDetails } from './decode-body.js';
import { createScenarioRunner, type ActiveScenario, type ScenarioRunner } from './faults/scenario-runner.js';
import { NO_FAULTS } from './faults/scenario-runner.js';
import { fingerprintOf } from './journal/fingerprint.js';
import { suggest } from './query/suggest.js';
import { createOriginPolicy } from './cors/origins.js';
import { createAdminApi, type KeyAdmin, type SessionAdmin } from './admin/admin-api.js';

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
  /** Where rate windows live (default: in memory). A failing store yields 503s, not crashes. */
  readonly store?: AdmissionStore;
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
  fixtures(): Record<string, unknown>;
  /** Back to the seeded state, optionally with a new seed; restarts the clock, clears limits and journal. */
  reset(seed?: string | number): Promise<void>;
  /** API key administration and the audit log, as `/__sim/keys` and `/__sim/audit` do it. */
  readonly keys: KeyAdmin;
  /** Dashboard sessions, as `/__sim/sessions` does it. */
  readonly sessions: SessionAdmin;
}

const CONTROL_PREFIX = '/__sim';

/** Creates a simulator. */
export function createSimulator(options: SimulatorOptions): Simulator {
  const clock = createSimClock({ mode: options.clock ?? 'virtual', startMs: options.startMs, realNow: options.realNow });
  const match = createRouter(ROUTES);
  const admission: Admission = {
    store: options.store ?? createMemoryStore(),
    gate: createInFlightGate(),
    journal: createJournal(clock.now(), options.journalCapacity ?? DEFAULT_JOURNAL_CAPACITY),
  };
  let seed = String(options.seed ?? 42);
  const stateOptions = { eventStorage: options.eventStorage ?? {} };
  let state: SimState = createState(options.createWorld(seed), stateOptions);
  let requestIds: RequestIdSource = createRequestIds(seed);
  let scenarios: ScenarioRunner = createScenarioRunner(seed);
  const catalog = new Map((options.catalog ?? []).map((scenario) => [scenario.name, scenario]));
  const startup = (options.scenarios ?? []).map((entry) => resolveScenario(entry, catalog));
  const startStartup = (): void => {
    for (const scenario of startup) scenarios.start(scenario, clock.now());
  };
  startStartup();

  const core: SimulatorCore = {
    get seed() {
      return seed;
    },
    clock,
    admission,
    get scenarios() {
      return scenarios;
    },
    catalog,
    guardHost: options.guardControlHost ?? false,
    enforceLimits: options.limits !== 'off',
    routes: ROUTES,
    origins: createOriginPolicy(options.allowedOrigins),
    state: () => state,
    async reset(next) {
      if (next !== undefined) seed = String(next);
      state = createState(options.createWorld(seed), stateOptions);
      requestIds = createRequestIds(seed);
      clock.restart();
      scenarios = createScenarioRunner(seed);
      startStartup();
      await admission.store.clear();
      admission.journal.restart(clock.now());
    },
  };

  async function run(x: Exchange): Promise<SimResponse> {
    let outcome: StageResult;
    for (const stage of PIPELINE) {
      const result = stage(x);
      outcome = result instanceof Promise ? await result : result;
      if (outcome !== undefined) break;
    }
    const response: SimResponse =
      outcome === undefined
        ? errorResponse(internalError(), x.requestId)
        : 'drop' in outcome
          ? { status: 0, headers: {}, body: '', abort: true }
          : isError(outcome)
            ? errorResponse(withHeaders(outcome, x.headers), x.requestId)
            : replyResponse(outcome, x.requestId, x.headers);
    const delayMs = x.faults.latencyMs;
    return delayMs > 0 ? { ...response, delayMs } : response;
  }

  function record(x: Exchange, seq: number, response: SimResponse): void {
    const principal = x.principal;
    admission.journal.record({
      seq,
      at: x.now,
      requestId: x.requestId,
      method: x.request.method,
      path: x.request.path.slice(0, 200),
      route: x.route?.path ?? routeOf(x.request),
      identity: principal ? identityOf(principal) : 'unknown',
      keyId: principal?.kind === 'apikey' ? principal.key.id : null,
      outcome: x.refusedBy ?? 'admitted',
      status: response.status,
      checks: x.checks,
      inFlight: x.inFlight,
      inFlightCap: x.inFlightCap,
      faults: x.faults.touched,
      fingerprint: fingerprintOf(x.request),
      retryAfter: retryAfterOf(response),
    });
  }

  /** The route pattern a request names, for requests answered before routing (scenario refusals). */
  function routeOf(request: SimRequest): string | null {
    const found = match(request.method, request.path);
    return found.kind === 'found' ? found.route.path : null;
  }

  const control: ScenarioControl = {
    start(entry) {
      const scenario = resolveScenario(entry, catalog);
      const started = scenarios.start(scenario, clock.now());
      if (!started.ok) throw new Error(started.reason);
      return scenarios.list(clock.now()).find((s) => s.name === scenario.name) as ActiveScenario;
    },
    stop: (name) => scenarios.stop(name),
    list: () => scenarios.list(clock.now()),
  };

  return {
    get seed() {
      return seed;
    },
    clock,
    journal: admission.journal,
    scenarios: control,
    async handle(request, handleOptions = {}) {
      const requestId = requestIds.next();
      const x: Exchange = {
        request,
        requestId,
        now: clock.now(),
        sim: core,
        state,
        match,
        control: request.path === CONTROL_PREFIX || request.path.startsWith(`${CONTROL_PREFIX}/`),
        headers: {},
        checks: [],
        lease: null,
        inFlight: null,
        inFlightCap: null,
        refusedBy: null,
        faults: NO_FAULTS,
      };
      const seq = x.control ? 0 : admission.journal.reserve();
      let response: SimResponse;
      try {
        response = await run(x);
      } catch {
        response = errorResponse(internalError(), requestId);
      }
      if (!x.control) record(x, seq, response);
      const lease = x.lease;
      if (lease === null) return response;
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        admission.gate.release(lease);
      };
      if (!handleOptions.holdSlot) {
        release();
        return response;
      }
      return { ...response, release };
    },
    fixtures: () => listFixtures(state),
    ...createAdminApi(core),
    reset: (next) => core.reset(next === undefined ? undefined : String(next)),
  };
}

/**
 * A scenario by catalog name, or a definition validated against the schema. Throws an Error
 * that names the field (or the unknown name) so that a server never starts half-way.
 */
function resolveScenario(entry: string | ScenarioInput, catalog: ReadonlyMap<string, Scenario>): Scenario {
  if (typeof entry === 'string') {
    const found = catalog.get(entry);
    if (!found) {
      const names = [...catalog.keys()];
      const near = suggest(entry, names);
      throw new Error(`Unknown scenario '${entry}'.${near ? ` Did you mean '${near}'?` : ''} Built-in scenarios: ${names.join(', ') || 'none'}.`);
    }
    return found;
  }
  const parsed = scenarioSchema.safeParse(entry);
  if (!parsed.success) {
    const problems = issueDetails(parsed.error.issues).map((d) => `${d.field.replace(/^body\.?/, '') || '(root)'}: ${d.message}`);
    throw new Error(`Invalid scenario: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** Seconds of the response's Retry-After header, or null. */
function retryAfterOf(response: SimResponse): number | null {
  const value = response.headers['Retry-After'];
  return value === undefined ? null : Number(value);
}

function withHeaders(error: SimError, headers: Record<string, string>): SimError {
  return Object.keys(headers).length === 0 ? error : { ...error, headers: { ...headers, ...error.headers } };
}
