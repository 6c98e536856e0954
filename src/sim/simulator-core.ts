import type { ErrorDetail } from '../contract/errors.js';
import type { Scenario } from '../contract/scenario.js';
import type { Admission } from './admission/admission.js';
import type { Limiter } from './admission/limiter.js';
import type { Principal } from './auth/principal.js';
import type { SimClock } from './clock.js';
import type { ControlBackend } from './control/control-backend.js';
import type { OriginPolicy } from './cors/origins.js';
import type { SimError } from './errors.js';
import type { ScenarioRunner } from './faults/scenario-runner.js';
import type { SimRequest } from './messages.js';
import type { SimMetrics } from './metrics/sim-metrics.js';
import type { Profile } from './profile.js';
import type { Reply, Route } from './routing/route.js';
import type { SimState } from './state.js';
import type { Begin, SharedStore } from './store/shared-store.js';

/**
 * A replica of the simulator's state kept by one process of a shared simulator. Requests that
 * change state are not applied where they arrive: they are logged in the shared store, and every
 * process applies the log in order, so all replicas pass through the same states. The process a
 * request arrived at answers it with what applying it, in log order, answered.
 *
 * Invariants: commands are applied one at a time, in position order, each exactly once; a
 * request's answer is never sent before its command is applied here.
 */
export interface Replica {
  /** The last log position applied to this process's state. */
  readonly applied: number;
  /** Applies the commands a request's `begin` returned, and any before them not yet applied. */
  catchUp(begin: Begin): Promise<void>;
  /** Applies every command logged so far (at start, before the first request). */
  catchUpAll(): Promise<void>;
  /** Logs a state-changing request, applies the log up to it and answers as applying it did. */
  submit(x: SubmittedRequest): Promise<Applied>;
  /** Logs a reset (the store forgets its windows, journal and counters) and applies it. */
  reset(seed: string | undefined, now: number): Promise<void>;
}

/** What applying a logged request answered, with the warnings it raised. */
export interface Applied {
  readonly answer: Reply | SimError;
  readonly warnings: readonly ErrorDetail[];
}

/** A request that changes state, as the process it arrived at submits it to the log. */
export interface SubmittedRequest {
  readonly request: SimRequest;
  readonly requestId: string;
  readonly now: number;
  readonly principal?: Principal;
  /** Whether it came through the control plane. */
  readonly control: boolean;
}

/**
 * The simulator as stages and routes see it: its state and the harness machinery. Built by
 * `createSimulator`; `state()` and `scenarios` change on reset, everything else is fixed.
 */
export interface SimulatorCore {
  readonly seed: string;
  readonly clock: SimClock;
  readonly admission: Admission;
  /** Where limits live, as the admission stages ask it (memory or a shared store: they never ask which). */
  readonly limiter: Limiter;
  readonly scenarios: ScenarioRunner;
  /** Built-in scenarios by name, for the control plane. */
  readonly catalog: ReadonlyMap<string, Scenario>;
  /** Whether `/__sim` requires a loopback Host header (a server bound to loopback). */
  readonly guardHost: boolean;
  /**
   * When set, every `/__sim` request must present it (`Authorization: Bearer <token>`): the
   * server is reachable from the network. Never written to the journal or any answer.
   */
  readonly controlToken: string | undefined;
  /** Whether what the simulator would ignore or reinterpret is refused with 400 instead of a `Warning`. */
  readonly strict: boolean;
  /** The profile answers follow now (`spec` or `live`); it may change between requests. */
  readonly profile: Profile;
  /** False when the SPEC 8 limits are switched off (end-to-end and benchmark runs). */
  readonly enforceLimits: boolean;
  /** Lets other work run between the pieces of a long request (an adapter's `setImmediate`, or a no-op). */
  yieldToEventLoop(): Promise<void>;
  /** Every route, public and control, for the generated OpenAPI document. */
  readonly routes: readonly Route[];
  /** Which page origins may call the API from a browser (CORS, and the session cookie of SPEC 5.5). */
  readonly origins: OriginPolicy;
  /** The harness operations behind `/__sim`, MSW's control plane and the library API. */
  readonly control: ControlBackend;
  /** This process's decision counters and the renderer of `GET /__sim/metrics`. */
  readonly metrics: SimMetrics;
  /** With a shared store (several processes): the store and this process's replica of the state; null in memory. */
  readonly shared: { readonly store: SharedStore; readonly replica: Replica } | null;
  state(): SimState;
}
