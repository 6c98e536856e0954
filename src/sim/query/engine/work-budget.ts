import type { ErrorDetail } from '../../../contract/errors.js';
import type { Website } from '../../model/entities.js';
import { daysOf, type ParameterPlan, type QueryPlan } from './plan.js';
import { TYPE_DAY_WEIGHTS } from './type-weights.js';

/**
 * Most work one request may ask for, in website-days (days of range × websites in scope,
 * summed over parameters and queries, each website weighed by {@link weighWebsites}): a few
 * seconds of generation on a cold cache, done in pieces that yield to other requests (see
 * `prefetch-traffic.ts`).
 */
export const MAX_SITE_DAYS = 4000;

/**
 * Most work one parameter may ask for, in units of {@link UNIT_MS}: website-days, each
 * weighing its type's {@link dayWeightOf}. A parameter's rows are computed in one synchronous
 * pass over days already generated (`prefetch-traffic.ts` makes them in pieces first), so this
 * is what bounds the longest time a request holds the event loop: 1,500 units of 1/6 ms,
 * 250 ms on the machine the weights were measured on (docs/query-types.md lists each type's
 * weight and the longest range it allows).
 */
export const MAX_PARAMETER_WORK = 1500;

/**
 * The cost, in milliseconds of the synchronous pass, that one unit of the parameter budget
 * stands for: about what a day of the cheapest types (breakdowns by one session field) costs on
 * a large website, so those keep the whole budget. `npm run measure:costs` measures each type
 * in these units.
 */
export const UNIT_MS = 1 / 6;

/**
 * What one day of a website counts in the budgets, in tenths, by its traffic size: a day is at
 * most about 1,500 session samples, which medium and larger websites reach; a small website's
 * day is at most a few hundred (counted as half), a tiny one's a handful (a tenth).
 */
const DAY_TENTHS: Readonly<Record<Website['size'], number>> = { tiny: 1, small: 5, medium: 10, large: 10, huge: 10 };

/** What the budgets say of a request's website-days. */
const WEIGHING = "a small website's day counts half, a tiny one's a tenth";

/**
 * The websites of a scope as the budgets count them, in tenths of a website (see
 * {@link DAY_TENTHS}): `sampled`, the days whose pass a type's day weight scales (small and
 * larger websites), and `flat`, the tiny websites' days, whose handful of sessions costs what
 * visiting the day costs whatever the type.
 */
export interface ScopeWeight {
  readonly sampled: number;
  readonly flat: number;
}

/** A link's or a monitor's scope: one day counts as one website-day. */
export const SINGLE_SCOPE: ScopeWeight = { sampled: 10, flat: 0 };

/**
 * Weighs the websites of a scope ({@link ScopeWeight}). One pass, no allocation: an
 * organization of 10,000 tiny websites counts as 1,000 websites, so its organization-wide
 * queries of a day fit the budgets.
 */
export function weighWebsites(websites: readonly Pick<Website, 'size'>[]): ScopeWeight {
  let sampled = 0;
  let flat = 0;
  for (const website of websites) {
    if (website.size === 'tiny') flat += DAY_TENTHS.tiny;
    else sampled += DAY_TENTHS[website.size];
  }
  return { sampled, flat };
}

/**
 * What a website-day of `type` weighs in the parameter budget: its measured cost of a day in
 * {@link UNIT_MS} units, to a tenth (src/sim/query/engine/type-weights.ts), 1 for the types not listed
 * there.
 */
export function dayWeightOf(type: string): number {
  return Object.hasOwn(TYPE_DAY_WEIGHTS, type) ? (TYPE_DAY_WEIGHTS[type] as number) : 1;
}

/**
 * Website-days of a parameter, in tenths, `weight` scaling the sampled part (1: the
 * request-wide measure; the type's {@link dayWeightOf}: the parameter's).
 */
export function costOf(parameter: ParameterPlan, scope: ScopeWeight, weight = 1): number {
  const tenths = parameter.type.target === 'website' ? scope.sampled * weight + scope.flat : 10 * weight;
  return parameter.type.skipDateRange ? tenths : daysOf(parameter) * tenths;
}

/**
 * The work budgets of a request ({@link MAX_PARAMETER_WORK} per parameter, its website-days
 * weighed by its type; then {@link MAX_SITE_DAYS} website-days in all): the first one it
 * exceeds, as a 400 detail naming the cap and what was asked, or null. `batch`: whether the
 * details name `batch[i].` per query.
 */
export function checkWorkBudget(plans: readonly QueryPlan[], scope: ScopeWeight, batch: boolean): ErrorDetail | null {
  let total = 0;
  for (let q = 0; q < plans.length; q++) {
    const parameters = (plans[q] as QueryPlan).parameters;
    for (let i = 0; i < parameters.length; i++) {
      const parameter = parameters[i] as ParameterPlan;
      const cost = costOf(parameter, scope);
      total += cost;
      const weight = dayWeightOf(parameter.type.name);
      const work = weight === 1 ? cost : costOf(parameter, scope, weight);
      // Weights have one decimal: a range the weight admits exactly must not fail on a rounding error.
      if (work > MAX_PARAMETER_WORK * 10 + 1e-6) {
        const siteDays = Math.ceil(cost / 10);
        const asked = work === cost ? `${siteDays} website-days of data` : `${siteDays} website-days of data, which weigh ${Math.ceil(work / 10)} (a day of ${parameter.type.name} weighs ${weight})`;
        return {
          field: `${batch ? `batch[${q}].` : ''}parameters[${i}]`,
          message: `${parameter.type.name} asks for ${asked}; one parameter may ask for at most ${MAX_PARAMETER_WORK} (${WEIGHING}; docs/query-types.md lists each type's weight). Shorten its range or name one website`,
        };
      }
    }
  }
  if (total <= MAX_SITE_DAYS * 10) return null;
  return {
    field: batch ? 'batch' : 'parameters',
    message: `This request asks for ${Math.ceil(total / 10)} website-days of data; at most ${MAX_SITE_DAYS} per request (${WEIGHING}). Split it, shorten the ranges, or name one website`,
  };
}
