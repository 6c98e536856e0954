import type { ErrorDetail } from '../../../contract/errors.js';
import type { Website } from '../../model/entities.js';
import { daysOf, type ParameterPlan, type QueryPlan } from './plan.js';
import { TYPE_DAY_WEIGHTS } from './type-weights.js';

/**
 * Most website-days one request may ask for (days of range × websites in scope, summed over
 * parameters and queries, each website weighed by {@link weighWebsites}): five parameters of
 * {@link MAX_PARAMETER_SITE_DAYS} each, an all-time dashboard of one website. The days are
 * generated in pieces that yield to other requests (see `prefetch-traffic.ts`).
 */
export const MAX_SITE_DAYS = 10_000;

/**
 * Most website-days one parameter may ask for, whatever its type: five years of one website
 * (1,827 days) and a little more, so an all-time range of any type answers on every website, as
 * the live service does; a decade, or years of an organization's many websites at once, is
 * refused. A parameter's rows are computed in one synchronous pass over days already generated
 * (`prefetch-traffic.ts` makes them in pieces first): for the types that fold per-day digests
 * without filters (`readers/digest-days.ts`) that pass follows the days (tens of milliseconds
 * at the cap); for the others it follows the sessions, about {@link dayWeightOf} ×
 * {@link UNIT_MS} a day of a large website (docs/query-types.md lists each type's weight).
 */
export const MAX_PARAMETER_SITE_DAYS = 2000;

/**
 * The cost, in milliseconds of the synchronous pass, of a unit of {@link dayWeightOf}: about what
 * a day of the cheapest types (breakdowns by one session field) costs on a large website read
 * session by session. `npm run measure:costs` measures each type in these units.
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
 * {@link DAY_TENTHS}): `sampled`, the small and larger websites, and `flat`, the tiny ones,
 * whose handful of sessions a day costs what visiting the day costs whatever the type.
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
 * What a website-day of `type` costs in the pass that computes its rows session by session, in
 * {@link UNIT_MS} units, as measured to a tenth (src/sim/query/engine/type-weights.ts); 1 for the
 * types not listed there. It refuses nothing: it says how long a long range of the type holds
 * the event loop.
 */
export function dayWeightOf(type: string): number {
  return Object.hasOwn(TYPE_DAY_WEIGHTS, type) ? (TYPE_DAY_WEIGHTS[type] as number) : 1;
}

/** Website-days of a parameter, in tenths of a website-day. */
function costOf(parameter: ParameterPlan, scope: ScopeWeight): number {
  const tenths = parameter.type.target === 'website' ? scope.sampled + scope.flat : 10;
  return parameter.type.skipDateRange ? tenths : daysOf(parameter) * tenths;
}

/**
 * The work budgets of a request ({@link MAX_PARAMETER_SITE_DAYS} per parameter, then
 * {@link MAX_SITE_DAYS} in all): the first one it exceeds, as a 400 detail naming the cap and
 * what was asked, or null. `batch`: whether the details name `batch[i].` per query.
 */
export function checkWorkBudget(plans: readonly QueryPlan[], scope: ScopeWeight, batch: boolean): ErrorDetail | null {
  let total = 0;
  for (let q = 0; q < plans.length; q++) {
    const parameters = (plans[q] as QueryPlan).parameters;
    for (let i = 0; i < parameters.length; i++) {
      const parameter = parameters[i] as ParameterPlan;
      const cost = costOf(parameter, scope);
      total += cost;
      if (cost > MAX_PARAMETER_SITE_DAYS * 10) {
        return {
          field: `${batch ? `batch[${q}].` : ''}parameters[${i}]`,
          message: `${parameter.type.name} asks for ${Math.ceil(cost / 10)} website-days of data; one parameter may ask for at most ${MAX_PARAMETER_SITE_DAYS}, five years of one website (${WEIGHING}). Shorten its range or name one website`,
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
