import type { ScenarioEffect } from '../../contract/scenario.js';

/** The types of what running scenarios decide for one request. */

/** What a scenario needs to know about a request to decide whether it applies. */
export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  readonly keyId: string | null;
  /** Whether the request presents an API key at all (the in-flight cap counts any). */
  readonly presentsKey: boolean;
  readonly websiteId: string | null;
  readonly identity: string;
}

/** A step that touched a request, as the journal names it. */
export interface StepRef {
  readonly scenario: string;
  /** Index of the step in its scenario. */
  readonly step: number;
  readonly name: string | null;
  readonly effect: ScenarioEffect['type'];
}

/** Effects that answer instead of the simulator. */
export type RefusalEffect = Extract<ScenarioEffect, { type: 'rate_limit' | 'outage' | 'error' | 'reset' }>;

/** Everything the active scenarios decide for one request. */
export interface FaultPlan {
  /** The first refusal in scenario order, if any. */
  readonly refusal: { readonly effect: RefusalEffect; readonly by: StepRef } | null;
  /** The lowest in-flight cap of matching `concurrency` steps. */
  readonly concurrencyCap: { readonly cap: number; readonly by: StepRef } | null;
  /** The per-key quota of the first matching `quota` step. */
  readonly quota: { readonly limit: number; readonly windowMs: number; readonly by: StepRef } | null;
  /** Milliseconds of injected latency: the sum over matching `latency` steps. */
  readonly latencyMs: number;
  /** Every step that applied, in order. */
  readonly touched: readonly StepRef[];
}

/** The plan when no scenario applies. */
export const NO_FAULTS: FaultPlan = { refusal: null, concurrencyCap: null, quota: null, latencyMs: 0, touched: [] };
