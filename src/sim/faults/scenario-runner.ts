import type { Scenario, ScenarioStep } from '../../contract/scenario.js';
import { createRandom } from '../random.js';
import { routeMatches } from './route-pattern.js';
import { NO_FAULTS, type FaultPlan, type RequestFacts, type StepRef } from './fault-plan.js';

export { NO_FAULTS } from './fault-plan.js';
import { applyEffect, type PlanDraft } from './scenario-effects.js';

export type { FaultPlan, RefusalEffect, RequestFacts, StepRef } from './fault-plan.js';

/** The state of one step at an instant. */
export type StepState = 'pending' | 'active' | 'done';

/** A running scenario as the control plane lists it. */
export interface ActiveScenario {
  readonly name: string;
  readonly description: string;
  readonly startedAt: number;
  readonly steps: readonly (ScenarioStep & { readonly from: number; readonly until: number | null; readonly state: StepState })[];
}

/** Runs scenarios on the simulator clock. Decisions are pure functions of seed, scenario, key and ordinal. */
export interface ScenarioRunner {
  /** Starts a scenario at `now`; refuses a name that is already running. */
  start(scenario: Scenario, now: number): { ok: true } | { ok: false; reason: string };
  /** Stops one scenario by name, or all; returns the names stopped. */
  stop(name?: string): string[];
  list(now: number): ActiveScenario[];
  /**
   * Evaluates every active step for a request, drawing probabilities once per request. Answers
   * at once unless the draws' ordinals come from a shared store.
   */
  plan(facts: RequestFacts, now: number): FaultPlan | Promise<FaultPlan>;
  /** True when no scenario runs: every `plan` would be `NO_FAULTS`, so a request need not state its facts. */
  idle(): boolean;
}

/**
 * Where a scenario's draw ordinals are counted: in the runner (one process), or in a shared
 * store, so that the n-th request of a subject draws the same whichever process serves it.
 */
export type OrdinalSource = (name: string) => Promise<number>;


function stepWindow(step: ScenarioStep, startedAt: number): [number, number | null] {
  const from = startedAt + step.start;
  return [from, step.duration === undefined ? null : from + step.duration];
}

function matches(step: ScenarioStep, facts: RequestFacts): boolean {
  const m = step.match;
  return (
    (m.route === undefined || routeMatches(m.route, facts.path)) &&
    (m.method === undefined || m.method.toUpperCase() === facts.method) &&
    (m.keyId === undefined || m.keyId === facts.keyId) &&
    (m.websiteId === undefined || m.websiteId === facts.websiteId) &&
    (m.identity === undefined || m.identity === facts.identity)
  );
}

/** Creates a runner whose draws derive from `seed`; with `shared`, ordinals are counted there. */
export function createScenarioRunner(seed: string, shared?: OrdinalSource): ScenarioRunner {
  const active = new Map<string, { scenario: Scenario; startedAt: number; start: number; ordinals: Map<string, number> }>();
  let starts = 0;

  type Live = { run: { scenario: Scenario; start: number; ordinals: Map<string, number> }; steps: { step: ScenarioStep; index: number }[] };
  const draw = (lives: readonly Live[], ordinals: readonly number[], facts: RequestFacts): FaultPlan => {
    const plan: PlanDraft = { refusal: null, concurrencyCap: null, quota: null, latencyMs: 0 };
    const touched: StepRef[] = [];
    const subject = facts.keyId ?? facts.identity;
    lives.forEach(({ run, steps }, i) => {
      const stream = createRandom(seed).fork(`scenario/${run.scenario.name}/${subject}/${ordinals[i]}`);
      for (const { step, index } of steps) {
        const draws = stream.fork(index);
        if (step.match.probability < 1 && draws.next() >= step.match.probability) continue;
        const by: StepRef = { scenario: run.scenario.name, step: index, name: step.name ?? null, effect: step.effect.type };
        if (!applyEffect(plan, step.effect, by, facts, draws)) continue;
        touched.push(by);
      }
    });
    return touched.length === 0 ? NO_FAULTS : { ...plan, touched };
  };

  return {
    start(scenario, now) {
      if (active.has(scenario.name)) {
        return { ok: false, reason: `Scenario ${scenario.name} is already running; stop it first (DELETE /__sim/scenarios/${scenario.name})` };
      }
      active.set(scenario.name, { scenario, startedAt: now, start: ++starts, ordinals: new Map() });
      return { ok: true };
    },
    stop(name) {
      const names = name === undefined ? [...active.keys()] : active.has(name) ? [name] : [];
      for (const n of names) active.delete(n);
      return names;
    },
    list(now) {
      return [...active.values()].map(({ scenario, startedAt }) => ({
        name: scenario.name,
        description: scenario.description,
        startedAt,
        steps: scenario.steps.map((step) => {
          const [from, until] = stepWindow(step, startedAt);
          const state: StepState = now < from ? 'pending' : until !== null && now >= until ? 'done' : 'active';
          return { ...step, from, until, state };
        }),
      }));
    },
    idle: () => active.size === 0,
    plan(facts, now) {
      if (active.size === 0) return NO_FAULTS;
      const lives: Live[] = [];
      for (const run of active.values()) {
        const steps = run.scenario.steps
          .map((step, index) => ({ step, index }))
          .filter(({ step }) => {
            const [from, until] = stepWindow(step, run.startedAt);
            return now >= from && (until === null || now < until) && matches(step, facts);
          });
        if (steps.length > 0) lives.push({ run, steps });
      }
      if (lives.length === 0) return NO_FAULTS;
      const subject = facts.keyId ?? facts.identity;
      if (shared) {
        return Promise.all(lives.map(({ run }) => shared(`${run.scenario.name}/${run.start}/${subject}`))).then((ordinals) => draw(lives, ordinals, facts));
      }
      const ordinals = lives.map(({ run }) => {
        const ordinal = (run.ordinals.get(subject) ?? 0) + 1;
        run.ordinals.set(subject, ordinal);
        return ordinal;
      });
      return draw(lives, ordinals, facts);
    },
  };
}
