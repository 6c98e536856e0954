import { DAY_MS } from '../../../model/world.js';
import {
  ATTEMPT_EVENTS,
  PAYMENT_CANCELLATION_REASONS,
  PAYMENT_FAILURE_REASONS,
  REQUIRED_FAILURE_EVENT_TYPES,
  REVENUE_CURRENCIES,
  revenueDerivation,
} from '../../../model/derived/revenue.js';
import { isAttemptRecord, REVENUE_RECORDS, type RevenueRecord } from '../../../ingest/webhooks/revenue-records.js';
import type { Row, RunContext } from '../../engine/definition.js';
import { passesFilters } from '../../engine/filters.js';
import { round2 } from '../../readers/aggregate.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';
import { addTransaction, compareText, currencyOf, emptyTotals, isRefundTransaction, money, providerOf, scanTransactions, TRANSACTION_WORK, type RevenueTotals } from './revenue-scan.js';

/**
 * revenue_overview: the revenue summary per currency, FULL OUTER JOINed with the Stripe payment
 * attempts of the range. Attempt diagnostics are reported only when every filter is a currency
 * filter or a provider filter that keeps 'stripe'; otherwise they are null and attempts add no row.
 * The attempts are the generated ones and the failed or canceled attempts Stripe's webhook
 * recorded; a recorded attempt is recovered when its PaymentIntent later succeeded (a recorded
 * payment with the same intent on the same website).
 */

/** Stripe diagnostics of one currency; money in cents, counts weighted. */
interface AttemptTotals {
  failed: number;
  canceled: number;
  failedCents: number;
  recovered: number;
  readonly failureReasons: Map<string, number>;
  readonly cancellationReasons: Map<string, number>;
}

function emptyAttempts(): AttemptTotals {
  return { failed: 0, canceled: 0, failedCents: 0, recovered: 0, failureReasons: new Map(), cancellationReasons: new Map() };
}

/** Whether the live SQL computes payment diagnostics under these filters. */
function diagnosticsInScope(ctx: RunContext): boolean {
  return ctx.filters.tests.every(
    (t) => t.field === 'currency' || (t.field === 'provider' && passesFilters({ ...ctx.filters, tests: [t] }, () => 'stripe')),
  );
}

/** The most frequent key of `counts` (ties by name); '' when empty, as topK of nothing reads. */
function topOf(counts: ReadonlyMap<string, number>): string {
  let best = '';
  let most = 0;
  for (const [key, n] of counts) {
    if (n > most || (n === most && compareText(key, best) < 0)) {
      best = key;
      most = n;
    }
  }
  return best;
}

/** Adds one attempt Stripe's webhook recorded (weight 1): its reason when it named one, recovered when its intent succeeded. */
function addRecordedAttempt(totals: AttemptTotals, record: RevenueRecord, recovered: boolean): void {
  if (record.status === 'failed') {
    totals.failed += 1;
    totals.failedCents += record.cents;
    if (record.reason !== '') totals.failureReasons.set(record.reason, (totals.failureReasons.get(record.reason) ?? 0) + 1);
    if (recovered) totals.recovered += 1;
  } else {
    totals.canceled += 1;
    if (record.reason !== '') totals.cancellationReasons.set(record.reason, (totals.cancellationReasons.get(record.reason) ?? 0) + 1);
  }
}

/**
 * The attempts of the range per currency (only the currency filter applies to them), and the
 * failure event types seen per currency. `successful` holds the generated successful
 * transactions (`website:day:index`) and the recorded successful PaymentIntents (`website pi`).
 * In pieces: yields the attempts read, a few website-days at a time ({@link PassSteps}).
 */
function* scanAttempts(ctx: RunContext, successful: ReadonlySet<string>): PassSteps<{ byCurrency: Map<string, AttemptTotals>; eventTypes: Map<string, Set<number>> }> {
  const byCurrency = new Map<string, AttemptTotals>();
  const eventTypes = new Map<string, Set<number>>();
  if (ctx.scope.kind !== 'websites' || ctx.toMs < ctx.fromMs) return { byCurrency, eventTypes };
  const currencyTests = ctx.filters.tests.filter((t) => t.field === 'currency');
  const currencyPlan = { ...ctx.filters, tests: currencyTests };
  const firstDay = Math.floor(ctx.fromMs / DAY_MS);
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  let unreported = 0;
  for (const website of ctx.scope.websites) {
    const ingested = ctx.ingested.holds(REVENUE_RECORDS, website.id);
    for (let day = firstDay; day <= lastDay; day++) {
      const generated = ctx.traffic.generatedWork();
      const batch = ctx.traffic.derived(revenueDerivation, website, day);
      const a = batch.attempts;
      unreported += (ctx.traffic.generatedWork() - generated) * GENERATED_RECORD_WORK + a.count * TRANSACTION_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
      for (let k = 0; k < a.count; k++) {
        const t = a.timeMs[k] as number;
        if (t < ctx.fromMs || t > ctx.toMs) continue;
        const currency = REVENUE_CURRENCIES[a.currency[k] as number] as string;
        const failed = a.outcome[k] === 0;
        if (failed && (a.event[k] as number) < 2) {
          let seen = eventTypes.get(currency);
          if (!seen) eventTypes.set(currency, (seen = new Set()));
          seen.add(a.event[k] as number);
        }
        if (!passesFilters(currencyPlan, () => currency)) continue;
        let totals = byCurrency.get(currency);
        if (!totals) byCurrency.set(currency, (totals = emptyAttempts()));
        const w = batch.weight;
        if (failed) {
          totals.failed += w;
          totals.failedCents += Math.round((a.amount[k] as number) * 100) * w;
          const reason = PAYMENT_FAILURE_REASONS[a.reason[k] as number] as string;
          totals.failureReasons.set(reason, (totals.failureReasons.get(reason) ?? 0) + w);
          const by = a.recoveredBy[k] as number;
          if (by >= 0 && successful.has(`${website.id}:${day}:${by}`)) totals.recovered += w;
        } else {
          totals.canceled += w;
          const reason = PAYMENT_CANCELLATION_REASONS[a.reason[k] as number] as string;
          totals.cancellationReasons.set(reason, (totals.cancellationReasons.get(reason) ?? 0) + w);
        }
      }
      if (!ingested) continue;
      for (const record of ctx.ingested.onDay(REVENUE_RECORDS, website.id, day)) {
        if (!isAttemptRecord(record) || record.provider !== 'stripe' || record.timestamp < ctx.fromMs || record.timestamp > ctx.toMs) continue;
        const { currency } = record;
        const event = ATTEMPT_EVENTS.indexOf(record.eventType as (typeof ATTEMPT_EVENTS)[number]);
        if (record.status === 'failed' && event >= 0 && event < FAILURE_EVENT_COUNT) {
          let seen = eventTypes.get(currency);
          if (!seen) eventTypes.set(currency, (seen = new Set()));
          seen.add(event);
        }
        if (!passesFilters(currencyPlan, () => currency)) continue;
        let totals = byCurrency.get(currency);
        if (!totals) byCurrency.set(currency, (totals = emptyAttempts()));
        const recovered = record.paymentIntentId !== null && successful.has(`${website.id} ${record.paymentIntentId}`);
        addRecordedAttempt(totals, record, recovered);
      }
    }
  }
  if (unreported > 0) yield unreported;
  return { byCurrency, eventTypes };
}

/** The failure webhook events of {@link ATTEMPT_EVENTS} (the first two). */
const FAILURE_EVENT_COUNT = ATTEMPT_EVENTS.indexOf('payment_intent.canceled');

/** The rows of revenue_overview: one per currency with revenue or (diagnostics in scope) attempts, in currency order. */
export function* revenueOverviewRows(ctx: RunContext): PassSteps<Row[]> {
  const summaries = new Map<string, RevenueTotals>();
  const stripeSuccesses = new Map<string, number>();
  const successful = new Set<string>();
  yield* scanTransactions(ctx, (tx) => {
    const currency = currencyOf(tx);
    let totals = summaries.get(currency);
    if (!totals) summaries.set(currency, (totals = emptyTotals()));
    addTransaction(ctx, totals, tx);
    if (tx.kind === 'generated') {
      if (tx.batch.provider[tx.index] === 0 && tx.batch.type[tx.index] !== 2) {
        stripeSuccesses.set(currency, (stripeSuccesses.get(currency) ?? 0) + tx.batch.weight);
        successful.add(`${tx.website.id}:${tx.batch.day}:${tx.index}`);
      }
    } else if (providerOf(tx) === 'stripe' && !isRefundTransaction(tx)) {
      stripeSuccesses.set(currency, (stripeSuccesses.get(currency) ?? 0) + 1);
      if (tx.record.paymentIntentId !== null) successful.add(`${tx.website.id} ${tx.record.paymentIntentId}`);
    }
  });
  const inScope = diagnosticsInScope(ctx);
  const { byCurrency, eventTypes } = inScope ? yield* scanAttempts(ctx, successful) : { byCurrency: new Map<string, AttemptTotals>(), eventTypes: new Map<string, Set<number>>() };
  const currencies = [...new Set([...summaries.keys(), ...byCurrency.keys()])].sort(compareText);
  return currencies.map((currency) => {
    const s = summaries.get(currency);
    const a = byCurrency.get(currency) ?? emptyAttempts();
    const successes = stripeSuccesses.get(currency) ?? 0;
    const diag = <T>(value: T): T | null => (inScope ? value : null);
    return {
      currency,
      total_revenue: s ? money(s.revenueCents) : null,
      total_transactions: s ? s.transactions : null,
      refund_amount: s ? money(s.refundCents) : null,
      refund_count: s ? s.refunds : null,
      subscription_revenue: s ? money(s.subscriptionCents) : null,
      subscription_count: s ? s.subscriptions : null,
      sale_revenue: s ? money(s.saleCents) : null,
      sale_count: s ? s.sales : null,
      unique_customers: s ? s.customers : null,
      attributed_transactions: s ? s.attributedTransactions : null,
      attributed_revenue: s ? money(s.attributedCents) : null,
      payment_diagnostics_available: inScope ? 1 : 0,
      failed_payment_attempts: diag(a.failed),
      canceled_payment_attempts: diag(a.canceled),
      failed_payment_amount: diag(money(a.failedCents)),
      recovered_payment_attempts: diag(a.recovered),
      successful_payment_attempts: diag(successes),
      observed_failure_event_types: diag(Math.min(FAILURE_EVENT_COUNT, eventTypes.get(currency)?.size ?? 0)),
      required_failure_event_types: diag(REQUIRED_FAILURE_EVENT_TYPES),
      top_payment_failure_reason: diag(topOf(a.failureReasons)),
      top_payment_cancellation_reason: diag(topOf(a.cancellationReasons)),
      payment_failure_rate: diag(a.failed + successes === 0 ? null : round2((100 * a.failed) / (a.failed + successes))),
    };
  });
}
