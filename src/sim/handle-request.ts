import type { ErrorDetail } from '../contract/errors.js';
import { settleLease } from './admission/in-flight-lease.js';
import { internalError, serviceUnavailable, type Drop, type SimError } from './errors.js';
import { journalEntryOf } from './journal/record-exchange.js';
import { reasonOf } from './journal/refusal-reason.js';
import type { HandleOptions, RefusalReason, SimRequest, SimResponse } from './messages.js';
import { CONTROL_PIPELINE } from './pipeline/control-pipeline.js';
import { admissionAskAtBegin } from './admission/admission-stages.js';
import { checkedOf, windowAsk } from './admission/limiter.js';
import { beginExchange, startExchange, type Admitted, type Answer, type Exchange, type Stage } from './pipeline/exchange.js';
import { PUBLIC_PIPELINE, PUBLIC_SPLIT } from './pipeline/public-pipeline.js';
import { NoAnswer, runStages, runStagesNow, runTimedStages, type ChainOutcome } from './pipeline/run-stages.js';
import type { Begin } from './store/shared-store.js';
import type { RequestIdSource } from './request-id.js';
import { errorResponse, replyResponse } from './respond.js';
import { isError, type Reply } from './routing/route.js';
import { describeFinding } from './text.js';
import type { Matcher } from './routing/router.js';
import type { SimulatorCore } from './simulator-core.js';
import { readTraceParent, spanIdOf, startedTrace, traceHeaders, type ExchangeTrace, type StageTiming, type TraceReading } from './trace/trace-context.js';

const CONTROL_PREFIX = '/__sim';

/** Whether a path belongs to the harness control plane. */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

/** What {@link createRequestHandler} needs: the core, the two route tables' matchers and the request ids. */
export interface RequestHandlerParts {
  readonly core: SimulatorCore;
  readonly matchPublic: Matcher;
  readonly matchControl: Matcher;
  /** The service's request ids, by journal position: the n-th service request gets the n-th id. */
  readonly requestIds: () => RequestIdSource;
  /** The control plane's request ids, a sequence of their own: `/__sim` requests draw none of the service's. */
  readonly controlIds: () => RequestIdSource;
  /** Numbers a request among all requests of this process (without a shared store, which numbers them itself). */
  readonly numberRequest: () => number;
  /** Ids for answers given before a request could be numbered (the shared store was unreachable). */
  readonly unnumberedIds: () => RequestIdSource;
}

/**
 * The run loop of a simulator: picks the chain (the control plane for `/__sim`, the service
 * otherwise), matches the route once (again, with the stages, when a shared store's log moved
 * under a request begun late), runs the stages, turns the answer into bytes, journals the
 * service's decisions in arrival order and settles the in-flight lease. Never rejects: a bug is
 * answered with a 500 body that carries no cause (the journal's reason names its class).
 */
export function createRequestHandler(parts: RequestHandlerParts): (request: SimRequest, options?: HandleOptions) => Promise<SimResponse> {
  const { core } = parts;
  const { journal, exchanges } = core.admission;

  /**
   * A fresh exchange at the clock's instant (records the ingestion delay held are visible from
   * their due instant on), warned of a malformed `traceparent` before any stage runs.
   */
  const open = (request: SimRequest, requestId: string, control: boolean, trace: TraceReading): Exchange => {
    const now = core.clock.now();
    const state = core.state();
    state.intake.release(now);
    const x = startExchange({ request, requestId, now, sim: core, state, match: (control ? parts.matchControl : parts.matchPublic)(request.method, request.path) });
    if (trace.kind === 'malformed') x.warnings.push(trace.warning);
    return x;
  };

  /**
   * With a shared store, the request begins first (numbered, the log caught up), then runs its
   * chain; `begun` is a begin already made (by {@link beginLate}, which found the log moved).
   */
  const beginFirst = async (shared: SharedParts, request: SimRequest, control: boolean, trace: TraceReading, run: RunChain, begun?: Begin): Promise<Started> => {
    let begin: Begin;
    // Awaited as they are, with no promise between: a replica applies catch-ups in the order they
    // are asked, so a begin's is asked in the turn its answer is handled, as every other path's
    // (a catch-up asked later with an older answer costs the replica a read of the log to tell
    // it from a store that lost data).
    try {
      begin = begun ?? (await shared.store.begin(!control, shared.replica.applied));
      await shared.replica.catchUp(begin);
    } catch (failure) {
      throw new StoreFailure(failure);
    }
    // The store numbers service requests (seq) and all requests (index), across processes.
    const x = open(request, control ? parts.controlIds().at(begin.index) : parts.requestIds().at(begin.seq), control, trace);
    return { seq: begin.seq, x, outcome: await run(control ? CONTROL_PIPELINE : PUBLIC_PIPELINE, x), position: begin.last };
  };

  /**
   * A service request on a shared store, begun late: the stages that read only the request and
   * the replica run first (authentication, CORS, faults), then the begin goes with the in-flight
   * gate's ask (its slot, the per-key quota with it, and the route's per-endpoint window when the
   * request is sure to reach it) as one operation, so an admitted request costs one round trip
   * before its handler instead of two. The store takes the slot
   * only if the log has not moved since the replica read: else nothing was taken, the replica
   * catches up and the request runs again from the start, as one begun first.
   */
  const beginLate = async (shared: SharedParts, request: SimRequest, trace: TraceReading, run: RunChain): Promise<Started> => {
    const after = shared.replica.applied;
    const x = open(request, '', false, trace);
    const ran = runHead(x);
    const head = ran instanceof Promise ? await ran : ran;
    const answered = head.answer !== null;
    const ask = answered ? null : admissionAskAtBegin(x);
    let begin: Begin;
    let admitted: Admitted | null = null;
    if (ask === null) {
      try {
        begin = await shared.store.begin(true, after);
      } catch (failure) {
        throw new StoreFailure(failure);
      }
    } else {
      const window = ask.quota === null ? null : windowAsk(ask.quota, x.now);
      const ahead = ask.endpoint === null ? null : windowAsk(ask.endpoint, x.now);
      let both;
      try {
        both = await shared.store.beginThenAdmit(after, { fingerprint: ask.fingerprint, cap: ask.cap, window, next: ahead });
      } catch (failure) {
        throw new StoreFailure(failure);
      }
      begin = both.begin;
      const { admission } = both;
      if (admission !== null) {
        admitted =
          'failure' in admission
            ? { ask, failure: admission.failure }
            : {
                ask,
                slot: admission.slot,
                checked: admission.decision === null ? undefined : checkedOf(admission.decision, x.now),
                endpointChecked: admission.nextDecision === null ? undefined : checkedOf(admission.nextDecision, x.now),
              };
      }
    }
    // Whether the log moved is the store's verdict when it was asked to admit (it took nothing then).
    const moved = ask === null ? begin.last !== after : admitted === null;
    if (moved) return beginFirst(shared, request, false, trace, run, begin);
    beginExchange(x, parts.requestIds().at(begin.seq), admitted);
    return { seq: begin.seq, x, outcome: answered ? head : await run(PUBLIC_SPLIT.tail, x), position: begin.last };
  };

  return async (request, options = {}) => {
    const control = isControlPath(request.path);
    const shared = core.shared;
    const timings: StageTiming[] | null = options.trace === true && options.timer !== undefined && !control ? [] : null;
    const run: RunChain = (stages, x) => runChain(stages, x, timings, options.timer);
    // W3C Trace Context: the service's requests continue the caller's trace (the control plane is the harness, not the service).
    const trace: TraceReading = control ? NO_TRACE : readTraceParent(request.headers.traceparent);
    let started: Started;
    if (shared) {
      try {
        // Scenarios may draw ordinals from the store in the faults stage, and timed stages are
        // timed from the begin: those requests begin first.
        started = !control && timings === null && core.scenarios.idle() ? await beginLate(shared, request, trace, run) : await beginFirst(shared, request, control, trace, run);
      } catch (failure) {
        // No journal position without the store: only the adapter's request log hears why. A
        // failure that is not the store's is a bug, answered 500 (its class in the log's reason).
        const refusal = failure instanceof StoreFailure ? serviceUnavailable(failure.cause) : internalError(failure);
        return { ...errorResponse(refusal, parts.unnumberedIds().next()), reason: reasonOf(refusal) };
      }
    } else {
      const index = parts.numberRequest();
      const seq = control ? 0 : journal.reserve();
      const x = open(request, control ? parts.controlIds().at(index) : parts.requestIds().at(seq), control, trace);
      started = { seq, x, outcome: await run(control ? CONTROL_PIPELINE : PUBLIC_PIPELINE, x), position: 0 };
    }
    const { seq, x, outcome, position } = started;
    let refusedBy = outcome.refusedBy;
    /** The refusal the client got, as the journal explains it. */
    let refusal: SimError | Drop | null;
    let response: SimResponse;
    try {
      refusal = refusalOf(outcome.answer, x);
      response = toResponse(outcome.answer, refusal, x);
    } catch (failure) {
      // Making the answer failed too (a bug on a broken exchange): the plainest 500, which cannot.
      refusedBy = null;
      refusal = internalError(failure);
      response = errorResponse(refusal, x.requestId);
    }
    if (control) return response.status >= 500 && refusal !== null ? { ...response, reason: reasonOf(refusal) } : response;
    if (trace.kind === 'continue' && response.abort !== true) response = { ...response, headers: { ...response.headers, ...traceHeaders(trace.parent, spanIdOf(x.requestId)) } };
    const entry = journalEntryOf(x, seq, refusedBy, response, refusal);
    // The adapter's request log says why, as the journal does (a fresh object: the core made it for this request).
    if (entry.reason !== null) (response as { reason?: RefusalReason }).reason = entry.reason;
    if (options.trace === true) (response as { trace?: ExchangeTrace }).trace = exchangeTrace(x, trace, entry.outcome, entry.reason?.code ?? null, response.status, timings ?? []);
    journal.record(entry);
    exchanges.record(seq, request, response);
    core.metrics.record(entry);
    // The journal lives where the limits do: a shared store's journal is every process's. Its
    // entry and the slot's release (without `holdSlot`: the adapters release after the last
    // byte) are asked in the same turn, so they go to the store in one call, the entry first;
    // the answer waits for both (`settled` cannot reject: `Limiter.release` never fails).
    const appended = shared ? shared.store.journal.append(entry, position).catch(() => undefined) : null;
    const settled = settleLease(core.limiter, x.lease, x.leaseId, response, options.holdSlot === true);
    if (appended !== null) await appended;
    return settled;
  };
}

/** What the shared store rejected with, told from a bug in the code around the call. */
class StoreFailure extends Error {
  constructor(failure: unknown) {
    super('the shared store failed', { cause: failure });
  }
}

/** The shared store and this process's replica of the state. */
type SharedParts = NonNullable<SimulatorCore['shared']>;

/** Runs stages over an exchange: how the chain ended (a stage that threw, a bug, ends it with a 500 naming the failure's class). */
type RunChain = (stages: readonly Stage[], x: Exchange) => Promise<ChainOutcome>;

/** A request that began: its journal position, its exchange and how its chain ended. */
interface Started {
  readonly seq: number;
  readonly x: Exchange;
  readonly outcome: ChainOutcome;
  /** The shared log's position the request began at (0 without a shared store): which history it belongs to. */
  readonly position: number;
}

/** The stages a request runs before it begins (synchronous on the hot path: no promise then). */
function runHead(x: Exchange): ChainOutcome | Promise<ChainOutcome> {
  try {
    const outcome = runStagesNow(PUBLIC_SPLIT.head, x);
    return outcome instanceof Promise ? outcome.catch(failedChain) : outcome;
  } catch (failure) {
    return failedChain(failure);
  }
}

/** How a chain ends when a stage throws (a bug): 500, the failure's class in the journal's reason. */
function failedChain(failure: unknown): ChainOutcome {
  return { answer: internalError(failure), refusedBy: null };
}

/** Runs `stages`, timed into `timings` when the adapter exports spans; a stage that throws ends the chain with a 500 naming the failure's class. */
async function runChain(stages: readonly Stage[], x: Exchange, timings: StageTiming[] | null, timer: (() => number) | undefined): Promise<ChainOutcome> {
  try {
    return timings !== null && timer !== undefined ? await runTimedStages(stages, x, timer, timings) : await runStages(stages, x);
  } catch (failure) {
    return failedChain(failure);
  }
}

const NO_TRACE: TraceReading = { kind: 'none' };

/** The request as one span, for an adapter that exports spans. */
function exchangeTrace(x: Exchange, reading: TraceReading, outcome: string, errorCode: string | null, status: number, stages: readonly StageTiming[]): ExchangeTrace {
  const parent = reading.kind === 'continue' ? reading.parent : startedTrace(x.requestId);
  return {
    traceId: parent.traceId,
    spanId: spanIdOf(x.requestId),
    parentSpanId: parent.parentSpanId,
    sampled: (Number.parseInt(parent.flags, 16) & 1) === 1,
    requestId: x.requestId,
    method: x.request.method,
    path: x.request.path,
    route: x.match.kind === 'found' ? x.match.route.path : null,
    status,
    outcome,
    errorCode,
    stages,
  };
}

/** The refusal an answer is, in the body shape the client gets (null for a reply). */
function refusalOf(answer: Answer | null, x: Exchange): SimError | Drop | null {
  if (answer === null) return internalError(new NoAnswer());
  if ('drop' in answer) return answer;
  return isError(answer) ? shapedRefusal(answer, x) : null;
}

/** The bytes of an answer (`refusal`: the answer as the client gets it when it refuses), with the exchange's headers and any injected latency. */
function toResponse(answer: Answer | null, refusal: SimError | Drop | null, x: Exchange): SimResponse {
  const response: SimResponse =
    refusal === null
      ? replyResponse(answer as Reply, x.requestId, x.headers)
      : 'drop' in refusal
        ? { status: 0, headers: {}, body: '', abort: true }
        : errorResponse(withHeaders(refusal, x.headers), x.requestId);
  const warned = x.warnings.length > 0 && !('abort' in response) ? { ...response, headers: { ...response.headers, Warning: warningHeader(x.warnings) } } : response;
  const delayMs = x.faults.latencyMs;
  return delayMs > 0 ? { ...warned, delayMs } : warned;
}

/** A refusal in the body shape of the matched route, when it declares one (`shapeRefusal`). */
function shapedRefusal(error: SimError, x: Exchange): SimError {
  return x.match.kind === 'found' && x.match.route.shapeRefusal ? x.match.route.shapeRefusal(error, x.sim.profile) : error;
}

/** Warnings shown in one header at most; the journal keeps them all. */
const MAX_HEADER_WARNINGS = 10;
/** The longest text of one finding in the `Warning` header. */
const MAX_WARNING_CHARS = 300;

/**
 * The `Warning` header (RFC 9111's 199 "miscellaneous warning"): one `199 analytics-sim "…"`
 * value per finding, comma-separated, quotes, control characters and non-ASCII made header-safe (`headerSafe`).
 */
function warningHeader(warnings: readonly ErrorDetail[]): string {
  return warnings
    .slice(0, MAX_HEADER_WARNINGS)
    .map((w) => `199 analytics-sim "${headerSafe(describeFinding(w))}"`)
    .join(', ');
}

/**
 * A finding as header text: quotes, backslashes and control characters become `'`, anything
 * beyond ASCII becomes `U+XXXX` (a finding may echo a parameter name the client sent in any script, and a
 * header value is bytes), and it is cut at MAX_WARNING_CHARS.
 */
function headerSafe(text: string): string {
  const safe = text
    .replace(/["\\\x00-\x1f\x7f]/g, "'")
    .replace(/[^\x20-\x7e]/gu, (c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);
  return safe.length > MAX_WARNING_CHARS ? `${safe.slice(0, MAX_WARNING_CHARS - 3)}...` : safe;
}

function withHeaders(error: SimError, headers: Record<string, string>): SimError {
  return Object.keys(headers).length === 0 ? error : { ...error, headers: { ...headers, ...error.headers } };
}
