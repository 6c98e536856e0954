import { createSimClock, type ClockMode, type SimClock } from './clock.js';
import { listFixtures } from './control/fixtures-listing.js';
import { internalError, type SimError } from './errors.js';
import type { SimRequest, SimResponse } from './exchange.js';
import type { WorldFactory } from './model/world.js';
import { PIPELINE, type Exchange } from './pipeline.js';
import { createRequestIds, type RequestIdSource } from './request-id.js';
import { errorResponse, replyResponse } from './respond.js';
import { isError, type Reply, type SimulatorCore } from './route.js';
import { createRouter } from './router.js';
import { ROUTES } from './routes.js';
import { createState, type SimState } from './state.js';

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
}

/**
 * A simulator: a function from request to response over seeded state. Two simulators with
 * the same options answer the same request sequence with the same bytes.
 */
export interface Simulator {
  readonly seed: string;
  readonly clock: SimClock;
  /** Answers one request. Never rejects: failures are answered with a 500 body. */
  handle(request: SimRequest): Promise<SimResponse>;
  /** The seeded world with its secrets, as `GET /__sim/fixtures` lists it. */
  fixtures(): Record<string, unknown>;
  /** Back to the seeded state, optionally with a new seed; restarts the clock. */
  reset(seed?: string | number): void;
}

/** Creates a simulator. */
export function createSimulator(options: SimulatorOptions): Simulator {
  const clock = createSimClock({ mode: options.clock ?? 'virtual', startMs: options.startMs, realNow: options.realNow });
  const match = createRouter(ROUTES);
  let seed = String(options.seed ?? 42);
  let state: SimState = createState(options.createWorld(seed));
  let requestIds: RequestIdSource = createRequestIds(seed);

  const core: SimulatorCore = {
    get seed() {
      return seed;
    },
    clock,
    state: () => state,
    reset(next) {
      if (next !== undefined) seed = String(next);
      state = createState(options.createWorld(seed));
      requestIds = createRequestIds(seed);
      clock.restart();
    },
  };

  function run(request: SimRequest, requestId: string): SimResponse {
    const exchange: Exchange = { request, requestId, now: clock.now(), sim: core, state, match };
    let outcome: Reply | SimError | undefined;
    for (const stage of PIPELINE) {
      outcome = stage(exchange);
      if (outcome !== undefined) break;
    }
    if (outcome === undefined) return errorResponse(internalError(), requestId);
    return isError(outcome) ? errorResponse(outcome, requestId) : replyResponse(outcome, requestId);
  }

  return {
    get seed() {
      return seed;
    },
    clock,
    async handle(request) {
      const requestId = requestIds.next();
      try {
        return run(request, requestId);
      } catch {
        return errorResponse(internalError(), requestId);
      }
    },
    fixtures: () => listFixtures(state),
    reset: (next) => core.reset(next === undefined ? undefined : String(next)),
  };
}
