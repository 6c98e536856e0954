/**
 * The types of the request pipeline: the exchange a request carries through the stages, and
 * what a stage decides. Stages live beside what they decide (admission, CORS, faults, routing);
 * this module imports none of them, so no stage depends on the list that runs it.
 */
import type { ErrorDetail } from '../../contract/errors.js';
import type { CheckedWindow, InFlightSlot } from '../admission/limiter.js';
import type { AdmissionRule, WindowRule } from '../admission/rules.js';
import type { Principal } from '../auth/principal.js';
import type { Drop, SimError } from '../errors.js';
import { NO_FAULTS, type FaultPlan } from '../faults/fault-plan.js';
import type { WindowCheck } from '../journal/journal.js';
import type { SimRequest } from '../messages.js';
import type { LooseQuery, Reply, RouteContext } from '../routing/route.js';
import type { RouteMatch } from '../routing/router.js';
import type { SimulatorCore } from '../simulator-core.js';
import type { ControlServices } from '../control/control-route.js';
import type { DiscoveryServices } from '../discovery/discovery-routes.js';
import type { SimState } from '../state.js';

/**
 * One request in flight through a chain. It starts with the request, its id, the clock instant
 * and the route match; each stage that learns something returns it with {@link next}, and the
 * run loop adds it here. `headers`, `checks` and `warnings` are the only fields stages append to
 * directly.
 */
export interface Exchange {
  readonly request: SimRequest;
  /**
   * Empty while a request on a shared store runs the stages before it begins
   * ({@link PipelineStep.beforeBegin}); set when it begins ({@link beginExchange}).
   */
  readonly requestId: string;
  readonly now: number;
  readonly sim: SimulatorCore;
  readonly state: SimState;
  /** The request line matched once against the chain's route table, before any stage. */
  readonly match: RouteMatch;
  /** Headers every answer of this request carries (CORS, X-RateLimit-* of an admitted quota). */
  readonly headers: Record<string, string>;
  /** Window checks made, in order, for the journal. */
  readonly checks: WindowCheck[];
  /**
   * What the simulator ignored or reinterpreted in this request (an unknown field, a value it
   * fell back from): sent as `Warning` headers and journaled; `strict` refuses them with 400.
   */
  readonly warnings: ErrorDetail[];
  /** Who the request acts as (set by authentication). */
  readonly principal?: Principal;
  /** What the active scenarios do to this request. */
  readonly faults: FaultPlan;
  /** The in-flight slot held (the presented key's fingerprint), if any, with the count and cap. */
  readonly lease: string | null;
  /** With a shared store: the lease's own name, to give it back. */
  readonly leaseId: string | null;
  readonly inFlight: number | null;
  readonly inFlightCap: number | null;
  /**
   * The per-key quota's check, made with the slot when the limiter takes both in one step
   * (`Limiter.acquireThenCheck`: a shared store's one round trip); the quota stage judges it
   * instead of checking again. Null otherwise.
   */
  readonly quotaChecked: { readonly rule: WindowRule; readonly checked: CheckedWindow | null } | null;
  /**
   * The in-flight gate's answer when a shared store gave it with the request's begin (one round
   * trip for both, `handle-request.ts`): the gate judges it instead of asking, and the endpoint
   * stage judges the per-endpoint window's check when it was made there too. Null otherwise.
   */
  readonly admitted: Admitted | null;
  /** The decoded, schema-checked body. */
  readonly body?: unknown;
  /** The query string, validated field by field against the route's schema. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** Query-string fields that failed validation, answered 400 after authorization. */
  readonly queryProblems?: readonly ErrorDetail[];
  /** What the route's `authorize` found (the caller, the resource). */
  readonly access?: unknown;
  /** What the route's `validate` produced. */
  readonly input?: unknown;
  /** The route context, made once by the first route step that needs it (`contextOf`), with every harness service a group of routes may declare. */
  context?: RouteContext<LooseQuery> & HarnessServices;
}

/** Every harness service a group of routes may declare it uses (`defineRouteGroup`'s `services`). */
export type HarnessServices = ControlServices & DiscoveryServices;

/** What an exchange starts with. */
export type ExchangeStart = Pick<Exchange, 'request' | 'requestId' | 'now' | 'sim' | 'state' | 'match'> & { readonly principal?: Principal };

/** A fresh exchange: every field a stage may learn exists from the start, so the exchange keeps one shape. */
export function startExchange(start: ExchangeStart): Exchange {
  return {
    request: start.request,
    requestId: start.requestId,
    now: start.now,
    sim: start.sim,
    state: start.state,
    match: start.match,
    headers: {},
    checks: [],
    warnings: [],
    faults: NO_FAULTS,
    lease: null,
    leaseId: null,
    inFlight: null,
    inFlightCap: null,
    quotaChecked: null,
    admitted: null,
    principal: start.principal,
    body: undefined,
    query: undefined,
    queryProblems: undefined,
    access: undefined,
    input: undefined,
    context: undefined,
  };
}

/**
 * What the in-flight gate asks where limits live: the presented key's slot under `cap` and, with
 * it, the per-key quota (when the limiter takes both in one step and one applies), and the
 * route's per-endpoint window when the stages between would let the request reach it (asked
 * only with the request's begin on a shared store).
 */
export interface AdmissionAsk {
  readonly fingerprint: string;
  readonly cap: number;
  readonly quota: WindowRule | null;
  readonly endpoint: WindowRule | null;
}

/**
 * The gate's ask answered with the request's begin: the slot and the quota's check made with it
 * (undefined when the slot was refused or no quota was asked), the endpoint window's (undefined
 * when it was not asked or not reached: its stage checks it), or what failed in the store.
 */
export type Admitted =
  | { readonly ask: AdmissionAsk; readonly slot: InFlightSlot; readonly checked: CheckedWindow | null | undefined; readonly endpointChecked?: CheckedWindow | undefined }
  | { readonly ask: AdmissionAsk; readonly failure: unknown };

/**
 * A request on a shared store begins after the stages that only read this process's replica
 * ({@link PipelineStep.beforeBegin}): its id, and the gate's answer the store gave with the
 * begin, join the exchange those stages already ran on.
 */
export function beginExchange(x: Exchange, requestId: string, admitted: Admitted | null): void {
  const begun = x as { requestId: string; admitted: Admitted | null };
  begun.requestId = requestId;
  begun.admitted = admitted;
}

/** What a stage may add to the exchange. */
export type ExchangeFacts = Partial<
  Pick<Exchange, 'principal' | 'faults' | 'lease' | 'leaseId' | 'inFlight' | 'inFlightCap' | 'quotaChecked' | 'body' | 'query' | 'queryProblems' | 'access' | 'input'>
>;

/** How a request ends: a reply, a refusal or a dropped connection. */
export type Answer = Reply | SimError | Drop;

/** What refused a request, for the journal: an admission rule, or a scenario's injected fault. */
export type Refusal = AdmissionRule | 'scenario';

/** Go on to the next stage, with what this one learned. */
export interface Continue {
  readonly kind: 'continue';
  readonly with?: ExchangeFacts;
}

/** End the request with this answer. */
export interface Respond {
  readonly kind: 'respond';
  readonly answer: Answer;
  /** Set when an admission rule or a scenario refused the request. */
  readonly refusedBy?: Refusal;
  /** What the stage learned before it answered (the journal reads it). */
  readonly with?: ExchangeFacts;
}

export type { Drop } from '../errors.js';

/** What a stage decides. */
export type StageResult = Continue | Respond;

/** One step of a chain. Stages that touch the admission store may answer asynchronously. */
export type Stage = (exchange: Exchange) => StageResult | Promise<StageResult>;

/** Continue with nothing learned (shared, so the common case allocates nothing). */
export const CONTINUE: Continue = { kind: 'continue' };

/** Continue, adding `facts` to the exchange. */
export function next(facts: ExchangeFacts): Continue {
  return { kind: 'continue', with: facts };
}

/** End the request with `answer`; `refusedBy` names the rule or scenario that refused it. */
export function respond(answer: Answer, refusedBy?: Refusal): Respond {
  return refusedBy === undefined ? { kind: 'respond', answer } : { kind: 'respond', answer, refusedBy };
}

/**
 * One step of a chain, and what it becomes when every process applies a logged request (with a
 * shared store): the same stage (`'run'`: the route's own steps against the state as the log
 * made it), nothing (`'skip'`: the process the request arrived at already decided it:
 * authentication, CORS, faults, admission), or another stage in its place (the handler itself
 * instead of the step that logs the request). One list gives both chains, so they cannot drift.
 */
export interface PipelineStep {
  readonly stage: Stage;
  readonly replay: 'run' | 'skip' | Stage;
  /**
   * The step reads only the request and this process's replica (no store, no request id): with
   * a shared store, a request may run it before it begins, and runs it again if the log moved
   * meanwhile. Such steps come first.
   */
  readonly beforeBegin?: true;
}

/** The stages a request runs through where it arrives. */
export function servingStages(steps: readonly PipelineStep[]): readonly Stage[] {
  return steps.map((step) => step.stage);
}

/** The serving stages a request may run before it begins (the leading `beforeBegin` steps), and the rest. */
export function splitAtBegin(steps: readonly PipelineStep[]): { readonly head: readonly Stage[]; readonly tail: readonly Stage[] } {
  const at = steps.findIndex((step) => step.beforeBegin !== true);
  const cut = at < 0 ? steps.length : at;
  return { head: servingStages(steps.slice(0, cut)), tail: servingStages(steps.slice(cut)) };
}

/** The stages every process runs when it applies a logged request. */
export function replayStages(steps: readonly PipelineStep[]): readonly Stage[] {
  return steps.flatMap((step) => (step.replay === 'skip' ? [] : [step.replay === 'run' ? step.stage : step.replay]));
}
