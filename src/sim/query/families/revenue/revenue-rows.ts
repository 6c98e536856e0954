import type { Row, RunContext } from '../../engine/definition.js';
import type { PassSteps } from '../../engine/pass-steps.js';
import { createBucketer, formatDateTime } from '../../engine/dates.js';
import {
  addTransaction,
  amountOf,
  anonymousIdOfTransaction,
  attributionMethodOf,
  compareText,
  currencyOf,
  emptyTotals,
  firstTouchLabel,
  isAttributedTransaction,
  isRefundTransaction,
  money,
  ownField,
  providerOf,
  scanTransactions,
  timeOf,
  transactionIdOfTransaction,
  unmatchedReasonOf,
  type RevenueTotals,
  type Transaction,
} from './revenue-scan.js';

/**
 * revenue_time_series: one row per (bucket of `created` in the request time zone, currency) that
 * has transactions, ORDER BY date ASC (ties by currency), no gap filling. In pieces ({@link PassSteps}).
 */
export function* revenueSeriesRows(ctx: RunContext): PassSteps<Row[]> {
  const bucketOf = createBucketer(ctx.unit, ctx.timezone);
  const groups = new Map<string, { date: string; currency: string; totals: RevenueTotals }>();
  yield* scanTransactions(ctx, (tx) => {
    const date = bucketOf(timeOf(tx));
    const currency = currencyOf(tx);
    const key = `${date}\u0000${currency}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { date, currency, totals: emptyTotals() }));
    addTransaction(ctx, group.totals, tx);
  });
  return [...groups.values()]
    .sort((a, b) => compareText(a.date, b.date) || compareText(a.currency, b.currency))
    .map(({ date, currency, totals }) => ({
      date,
      currency,
      revenue: money(totals.revenueCents),
      transactions: totals.transactions,
      customers: totals.customers,
      refund_amount: money(totals.refundCents),
      refund_count: totals.refunds,
      attributed_revenue: money(totals.attributedCents),
      attributed_transactions: totals.attributedTransactions,
    }));
}

/**
 * recent_transactions: the latest non-refund transactions (one row per transaction sample),
 * ORDER BY created DESC (ties by transaction id), LIMIT `limit`, with their first touch. In
 * pieces ({@link PassSteps}).
 */
export function* recentTransactionRows(ctx: RunContext, limit: number): PassSteps<Row[]> {
  const picked: { tx: Transaction; id: string; time: number }[] = [];
  yield* scanTransactions(ctx, (tx) => {
    if (isRefundTransaction(tx)) return;
    picked.push({ tx, id: transactionIdOfTransaction(tx), time: timeOf(tx) });
  });
  picked.sort((a, b) => b.time - a.time || compareText(a.id, b.id));
  return picked.slice(0, Math.max(0, limit)).map(({ tx, id, time }) => ({
    transaction_id: id,
    provider: providerOf(tx),
    type: ownField(tx, 'type'),
    amount: amountOf(tx),
    currency: currencyOf(tx),
    anonymous_id: anonymousIdOfTransaction(tx),
    product_name: ownField(tx, 'product_name') || null,
    created: formatDateTime(time),
    is_attributed: isAttributedTransaction(tx) ? 1 : 0,
    attribution_method: attributionMethodOf(tx),
    unmatched_reason: unmatchedReasonOf(tx),
    country: firstTouchLabel(ctx, tx, 'country', 'Unknown'),
    browser_name: firstTouchLabel(ctx, tx, 'browser_name', 'Unknown'),
    device_type: firstTouchLabel(ctx, tx, 'device_type', 'Unknown'),
    referrer: firstTouchLabel(ctx, tx, 'referrer', 'Direct'),
    utm_source: firstTouchLabel(ctx, tx, 'utm_source', 'None'),
    utm_campaign: firstTouchLabel(ctx, tx, 'utm_campaign', 'None'),
  }));
}
