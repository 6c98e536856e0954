import type { ErrorDetail } from '../../../contract/errors.js';
import type { QueryRequest } from '../../../contract/query-request.js';
import { DAY_MS } from '../../model/world.js';
import type { Profile } from '../../profile.js';
import { zoneOffset } from './dates.js';
import { planQuery, type PlanOptions, type QueryPlan } from './plan.js';

/** A plan kept for a decoded query, with what it was planned under. */
interface RememberedPlan {
  readonly prefix: string;
  readonly timezone: string;
  readonly profile: Profile;
  /** The local day (in `timezone`) it was planned on: presets name days relative to today. */
  readonly day: number;
  readonly plan: QueryPlan;
}

/** By the decoded query object: a body text the decoder remembers decodes to the same frozen object. */
const plans = new WeakMap<QueryRequest, RememberedPlan>();

/**
 * {@link planQuery}, remembered for a frozen query (a body text `decoded-bodies.ts` remembers)
 * planned under the same prefix, time zone, profile and local day: a dashboard that sends the
 * same body again skips resolving its dates and its types. Only a plan that raised nothing is
 * kept: no detail, no warning (so no parameter failing at execution, whose plan holds `now`),
 * so a remembered plan is exactly what planning again would give, and says nothing new.
 * Plans are never changed once made.
 */
export function planRemembered(
  query: QueryRequest,
  prefix: string,
  now: number,
  timezone: string,
  details: ErrorDetail[],
  options: PlanOptions,
): QueryPlan | null {
  const day = Math.floor((now + zoneOffset(timezone, now)) / DAY_MS);
  const known = plans.get(query);
  if (known !== undefined && known.day === day && known.prefix === prefix && known.timezone === timezone && known.profile === options.profile) return known.plan;
  let warned = false;
  const before = details.length;
  const plan = planQuery(query, prefix, now, timezone, details, {
    profile: options.profile,
    warn: (warning) => {
      warned = true;
      options.warn(warning);
    },
  });
  if (plan === null || warned || details.length !== before || !Object.isFrozen(query)) return plan;
  // Shared by every request that sends the body again: frozen, so a stage that changed it would throw.
  for (const parameter of plan.parameters) Object.freeze(parameter);
  Object.freeze(plan.parameters);
  plans.set(query, { prefix, timezone, profile: options.profile, day, plan: Object.freeze(plan) });
  return plan;
}
