import type { ScenarioEffect } from '../../contract/scenario.js';
import { injectedError, rateLimited, serviceUnavailable, type Drop, type SimError } from '../errors.js';
import type { Random } from '../random.js';
import type { FaultPlan, RefusalEffect, RequestFacts, StepRef } from './fault-plan.js';

/**
 * What every scenario effect means, in one place. An effect's shape is declared in the
 * contract's `scenarioEffectSchema`; both switches below are exhaustive, so a new effect does
 * not compile until it is given a meaning here: how it changes a request's fault plan, and,
 * for effects that answer instead of the service, what the answer is.
 */

/** A fault plan being folded from the steps that apply to one request. */
export type PlanDraft = { -readonly [K in Exclude<keyof FaultPlan, 'touched'>]: FaultPlan[K] };

/** A latency in ms drawn from the step's distribution with `u`, `v` uniform in [0, 1). */
function latencyOf(effect: Extract<ScenarioEffect, { type: 'latency' }>, u: number, v: number): number {
  const d = effect.delay;
  switch (d.distribution) {
    case 'fixed':
      return d.ms;
    case 'uniform':
      return Math.round(d.minMs + u * (d.maxMs - d.minMs));
    case 'lognormal': {
      const normal = Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
      return Math.min(d.maxMs, Math.round(d.medianMs * Math.exp(d.sigma * normal)));
    }
  }
}

/**
 * Folds one applying step into the plan. False when the effect does not concern this request
 * (a concurrency cap without a presented key, a quota without an API key): it is then not
 * counted as touching it. The first refusal in scenario order wins; caps take the lowest;
 * latencies add up.
 */
export function applyEffect(plan: PlanDraft, effect: ScenarioEffect, by: StepRef, facts: RequestFacts, draws: Random): boolean {
  switch (effect.type) {
    case 'latency':
      plan.latencyMs += latencyOf(effect, draws.next(), draws.next());
      return true;
    case 'concurrency':
      if (!facts.presentsKey) return false;
      if (!plan.concurrencyCap || effect.cap < plan.concurrencyCap.cap) plan.concurrencyCap = { cap: effect.cap, by };
      return true;
    case 'quota':
      if (facts.keyId === null) return false;
      plan.quota ??= { limit: effect.limit, windowMs: effect.window, by };
      return true;
    case 'rate_limit':
    case 'outage':
    case 'error':
    case 'reset':
      plan.refusal ??= { effect, by };
      return true;
  }
}

/**
 * The answer of a refusing effect at `now`: its 429 (with the SPEC 8.4 body; `limit` is what it
 * reports when the step names none), a 503, an error of its choosing, or a dropped connection.
 */
export function refusalAnswer(effect: RefusalEffect, now: number, limit: number): SimError | Drop {
  switch (effect.type) {
    case 'rate_limit':
      return rateLimited('Rate limit exceeded', {
        limit: effect.limit ?? limit,
        remaining: 0,
        reset: now + effect.retryAfterSeconds * 1000,
        retryAfter: effect.retryAfterSeconds,
      });
    case 'outage':
      return serviceUnavailable();
    case 'error':
      return injectedError(effect.status, effect.code, effect.message, effect.retryAfterSeconds);
    case 'reset':
      return { drop: true };
  }
}
