import type { TrafficReader } from '../traffic-cache.js';
import { DAY_MS } from '../model/world.js';
import type { QueryScope } from './definition.js';
import type { ParameterPlan, QueryPlan } from './plan.js';

/**
 * Website-days a query may cover and still be answered in one synchronous piece (the hot path:
 * no promise, no yield). Above it, each parameter's days are generated in pieces first.
 */
export const PREFETCH_THRESHOLD = 64;

/** Website-days generated between two yields: a few milliseconds of work (days already cached do not count). */
export const PREFETCH_PIECE = 16;

/** UTC days a website parameter's run reads from generated sessions, cut at the last whole minute before `now` as the run is; null for none. */
function dayRange(parameter: ParameterPlan, now: number): [number, number] | null {
  if (parameter.type.target !== 'website' || parameter.type.skipDateRange) return null;
  const toMs = Math.min(parameter.toMs, Math.floor(now / 60_000) * 60_000 - 1);
  if (toMs < parameter.fromMs) return null;
  return [Math.floor(parameter.fromMs / DAY_MS), Math.floor(toMs / DAY_MS)];
}

/** Website-days one parameter's run reads from generated sessions. */
export function prefetchSize(parameter: ParameterPlan, scope: QueryScope, now: number): number {
  if (scope.kind !== 'websites') return 0;
  const range = dayRange(parameter, now);
  return range ? (range[1] - range[0] + 1) * scope.websites.length : 0;
}

/** Whether any parameter of the plans is long enough to be answered in pieces. */
export function needsPieces(plans: readonly QueryPlan[], scope: QueryScope, now: number): boolean {
  return plans.some((plan) => plan.parameters.some((parameter) => prefetchSize(parameter, scope, now) >= PREFETCH_THRESHOLD));
}

/**
 * Generates the session days a parameter will read into the traffic cache, website by website
 * and day by day, awaiting `yieldToEventLoop` after every {@link PREFETCH_PIECE} days it had to
 * generate (a day already cached costs a lookup and neither counts nor yields), so a
 * long range is generated while other requests run and the parameter's synchronous pass then
 * reads cached days. Does nothing under {@link PREFETCH_THRESHOLD}. It changes no answer: a day
 * evicted meanwhile is generated again by the pass.
 *
 * Invariant: `traffic` is the reader the pass will use (a pinned one), so nothing generated
 * from a website read before a change fills the shared cache.
 */
export async function prefetchTraffic(
  parameter: ParameterPlan,
  scope: QueryScope,
  traffic: TrafficReader,
  now: number,
  yieldToEventLoop: () => Promise<void>,
): Promise<void> {
  if (scope.kind !== 'websites' || prefetchSize(parameter, scope, now) < PREFETCH_THRESHOLD) return;
  const [first, last] = dayRange(parameter, now) as [number, number];
  let piece = 0;
  for (const website of scope.websites) {
    for (let day = first; day <= last; day++) {
      // Only generating costs: days already kept neither count towards a piece nor yield.
      if (traffic.hasSessions(website, day)) continue;
      traffic.sessions(website, day);
      if (++piece === PREFETCH_PIECE) {
        piece = 0;
        await yieldToEventLoop();
      }
    }
  }
}
