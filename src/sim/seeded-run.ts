import type { Scenario } from '../contract/scenario.js';
import type { SimClock } from './clock.js';
import { createScenarioRunner, type OrdinalSource, type ScenarioRunner } from './faults/scenario-runner.js';
import type { WorldFactory } from './model/world.js';
import { createRequestIds, type RequestIdSource } from './request-id.js';
import { createState, type SimState, type StateOptions } from './state.js';

/** What a reset rebuilds from the seed: the state, the request ids and the scenario runner. */
export interface SeededRun {
  readonly seed: string;
  readonly state: SimState;
  /** The ids of the service's requests: the n-th is the n-th service request's, whatever control requests came between. */
  readonly requestIds: RequestIdSource;
  /**
   * The ids of control-plane requests (`/__sim`): a sequence of their own, so a health probe
   * changes no service id. A control request gets the id at its number among all requests
   * ({@link SeededRun.numberRequest}), as with a shared store, which numbers them so.
   */
  readonly controlIds: RequestIdSource;
  /** Numbers a request among every request of the run, service and control, from 1. */
  numberRequest(): number;
  readonly scenarios: ScenarioRunner;
  /** Rebuilds everything from `seed` (default: the current one) and restarts the startup scenarios at the clock's now. */
  restart(seed?: string): void;
}

/** Options of {@link createSeededRun}. */
export interface SeededRunOptions {
  readonly seed: string;
  readonly createWorld: WorldFactory;
  readonly stateOptions: StateOptions;
  /** Scenarios running from the start, restarted on every reset. */
  readonly startup: readonly Scenario[];
  readonly clock: SimClock;
  /** With a shared store: where scenario draws are numbered. */
  readonly ordinals?: OrdinalSource;
}

/** The seeded part of a simulator, built now and on every reset. */
export function createSeededRun(options: SeededRunOptions): SeededRun {
  const build = (seed: string) => {
    const scenarios = createScenarioRunner(seed, options.ordinals);
    for (const scenario of options.startup) scenarios.start(scenario, options.clock.now());
    return { seed, state: createState(options.createWorld(seed), options.stateOptions), requestIds: createRequestIds(seed), controlIds: createRequestIds(`${seed}/control`), requests: 0, scenarios };
  };
  let current = build(options.seed);
  return {
    get seed() {
      return current.seed;
    },
    get state() {
      return current.state;
    },
    get requestIds() {
      return current.requestIds;
    },
    get controlIds() {
      return current.controlIds;
    },
    numberRequest: () => ++current.requests,
    get scenarios() {
      return current.scenarios;
    },
    restart(seed) {
      current = build(seed ?? current.seed);
    },
  };
}
