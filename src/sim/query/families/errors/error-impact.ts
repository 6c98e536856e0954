import { isAttributed, isRefund, revenueDerivation } from '../../../model/derived/revenue.js';
import { profileIdOf } from '../../../model/identity.js';
import { DAY_MS } from '../../../model/world.js';
import { createDistinct } from '../../readers/aggregate.js';
import type { Row, RunContext } from '../../engine/definition.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { assertOneSelector, scanErrors } from './error-stats.js';

/**
 * error_customer_impact: who one exact error (a message or a route) reached, as privacy-safe
 * counts. In the world model a session has one visitor and a visitor at most one profile
 * ({@link profileIdOf}), so no session is ambiguous. Payments are looked up in the revenue of the
 * days the errors were read from (the range and the day before), so a payment match stays the
 * lower bound the row says it is. An error posted to `POST /errors` counts as an occurrence, its
 * session and visitor ids (when not empty) as affected ones, linked to no profile. In pieces
 * ({@link PassSteps}): the errors and the days' revenue it reads.
 */
export function* customerImpactRow(ctx: RunContext): PassSteps<Row> {
  assertOneSelector(ctx, 'error_customer_impact');
  const isNewSession = createDistinct();
  const isNewVisitor = createDistinct();
  /** First error time of each affected profile, by website and visitor. */
  const firstErrorOf = new Map<string, { atMs: number; weight: number }>();
  let occurrences = 0;
  let sessions = 0;
  let visitors = 0;
  let linked = 0;
  let identified = 0;
  yield* scanErrors(ctx, (e) => {
    const w = e.weight;
    occurrences += w;
    if (e.source.kind === 'ingested') {
      // A posted error's visitor is linked to no profile; empty ids count for nothing, as the builder's `!= ''`.
      if (e.source.span.sessionId !== '' && isNewSession(0, e.sessionKey)) sessions += w;
      if (e.source.span.anonymousId !== '' && isNewVisitor(0, e.visitorKey)) visitors += w;
      return;
    }
    if (isNewSession(0, e.sessionKey)) sessions += w;
    const visitor = e.source.sessions.visitor[e.source.sample] as number;
    const identifiedVisitor = profileIdOf(ctx.traffic.seedHash, e.website.id, visitor) !== '';
    if (isNewVisitor(0, e.visitorKey)) {
      visitors += w;
      if (identifiedVisitor) linked += w;
    }
    if (!identifiedVisitor) return;
    const key = `${e.website.id}\u0000${visitor}`;
    const first = firstErrorOf.get(key);
    if (!first) {
      firstErrorOf.set(key, { atMs: e.timeMs, weight: w });
      identified += w;
    } else if (e.timeMs < first.atMs) first.atMs = e.timeMs;
  });
  const firstPaymentOf = yield* firstPayments(ctx, firstErrorOf);
  let paidBefore = 0;
  for (const [key, first] of firstErrorOf) {
    const paidAt = firstPaymentOf.get(key);
    if (paidAt !== undefined && paidAt <= first.atMs) paidBefore += first.weight;
  }
  return {
    error_occurrences: occurrences,
    affected_sessions: sessions,
    affected_visitor_identifiers: visitors,
    linked_visitor_identifiers: linked,
    identified_profiles: identified,
    unlinked_visitor_identifiers: visitors - linked,
    ambiguous_profile_sessions: 0,
    identity_coverage_percent: visitors > 0 ? Math.round((linked / visitors) * 1000) / 10 : 0,
    identified_profiles_with_prior_attributed_completed_payment: paidBefore,
    qualifying_profile_payment_history_observed: firstPaymentOf.size > 0 ? 1 : 0,
    payment_match_is_lower_bound: 1,
  };
}

/**
 * The first completed payment (a sale or subscription with an amount, attributed, created by the
 * end of the range) of each of `profiles` (keyed by website id and visitor), in epoch ms. In
 * pieces: yields the payments read, a day's session samples many times over when its revenue
 * had to be derived again ({@link PassSteps}).
 */
function* firstPayments(ctx: RunContext, profiles: ReadonlyMap<string, unknown>): PassSteps<Map<string, number>> {
  const out = new Map<string, number>();
  if (ctx.scope.kind !== 'websites' || profiles.size === 0) return out;
  let unreported = 0;
  for (const website of ctx.scope.websites) {
    for (let day = Math.floor(ctx.fromMs / DAY_MS) - 1; day <= Math.floor(ctx.toMs / DAY_MS); day++) {
      // A day derived again here counts what the traffic cache generated for it, without reading its sessions again to weigh it.
      const before = ctx.traffic.generatedWork();
      const revenue = ctx.traffic.derived(revenueDerivation, website, day);
      unreported += revenue.count + (ctx.traffic.generatedWork() - before) * GENERATED_RECORD_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
      for (let j = 0; j < revenue.count; j++) {
        const at = revenue.timeMs[j] as number;
        if (at > ctx.toMs || isRefund(revenue, j) || !isAttributed(revenue, j) || (revenue.amount[j] as number) <= 0) continue;
        const key = `${website.id}\u0000${revenue.visitor[j] as number}`;
        if (!profiles.has(key)) continue;
        const known = out.get(key);
        if (known === undefined || at < known) out.set(key, at);
      }
    }
  }
  if (unreported > 0) yield unreported;
  return out;
}
