import type { Website } from '../../../model/entities.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { DAY_MS } from '../../../model/world.js';
import { anonymousIdOf, profileIdOf } from '../../../model/identity.js';
import {
  ATTRIBUTION_METHODS,
  isAttributed,
  isRefund,
  productsOf,
  REVENUE_CURRENCIES,
  REVENUE_PROVIDERS,
  REVENUE_TYPES,
  revenueDerivation,
  transactionIdOf,
  UNMATCHED,
  UNMATCHED_REASONS,
  type RevenueBatch,
} from '../../../model/derived/revenue.js';
import { isMoneyRecord, REVENUE_RECORDS, type RevenueRecord } from '../../../ingest/webhooks/revenue-records.js';
import type { RunContext } from '../../engine/definition.js';
import { passesFilters, type FieldTest, type FilterPlan } from '../../engine/filters.js';
import { round2 } from '../../readers/aggregate.js';
import { createFieldReader, type FieldReaders } from '../../readers/record-filters.js';
import { referrerDomain } from '../../readers/referrer-domain.js';
import { GENERATED_RECORD_WORK, YIELD_RECORDS, type PassSteps } from '../../engine/pass-steps.js';

/**
 * Reading the revenue table as the live revenue builders do: transactions whose `created` is in
 * the range, kept or dropped by the revenue filters (the transaction's own fields, and the
 * first-touch dimensions of the session that led to it), with the first-touch values the rows
 * name. Amounts are summed in whole cents so breakdowns add up to the overview exactly.
 *
 * The table holds two kinds of rows, summed alike: generated transactions (weighted samples of
 * a day's revenue batch, each belonging to a session) and the money rows the payment webhooks
 * recorded in the ingest ledger (weight 1). A webhook row is unattributed: the simulator does
 * not join its metadata's browser ids to sessions, so it counts as 'Unattributed' in every
 * first-touch breakdown, with unmatched_reason 'missing_browser_identity' when it carried no
 * browser id and 'no_verified_prior_match' when it did. Refund amounts are summed as positive
 * figures, as the generated refunds are (live stores them negative).
 */

/** First-touch dimensions a revenue filter or row can name, and the session column behind each. */
const FIRST_TOUCH_COLUMNS = ['country', 'region', 'city', 'browser_name', 'device_type', 'os_name', 'utm_source', 'utm_medium', 'utm_campaign'] as const;

/** One of the first-touch dimensions held in a session column, plus the referrer domain and the entry path. */
export type FirstTouchField = (typeof FIRST_TOUCH_COLUMNS)[number] | 'referrer' | 'path';

/** The product a generated transaction sold, if its website lists it. */
function productOf(tx: GeneratedTransaction) {
  return productsOf(tx.website)[tx.batch.product[tx.index] as number];
}

/** Fields a revenue filter reads from the transaction itself. */
const OWN_FIELDS: FieldReaders<Transaction> = {
  currency: currencyOf,
  provider: providerOf,
  type: (tx) => (tx.kind === 'generated' ? (REVENUE_TYPES[tx.batch.type[tx.index] as number] as string) : tx.record.type),
  product_id: (tx) => (tx.kind === 'generated' ? (productOf(tx)?.id ?? '') : (tx.record.productId ?? '')),
  product_name: (tx) => (tx.kind === 'generated' ? (productOf(tx)?.name ?? '') : (tx.record.productName ?? '')),
};

/** The transaction's own filterable fields ('' for any other). */
export const ownField = createFieldReader(OWN_FIELDS);

/** A generated transaction: one sample of a website-day's revenue batch, standing for `batch.weight` transactions. */
export interface GeneratedTransaction {
  readonly kind: 'generated';
  readonly website: Website;
  /** Index of the website in the scope, for keys that must not collide across websites. */
  readonly siteIndex: number;
  readonly sessions: SessionBatch;
  readonly batch: RevenueBatch;
  /** Index into the batch's columns. */
  readonly index: number;
}

/** A transaction a payment webhook recorded: one row, weight 1, never attributed. */
export interface IngestedTransaction {
  readonly kind: 'ingested';
  readonly website: Website;
  readonly siteIndex: number;
  readonly record: RevenueRecord;
}

/** One transaction, as a scan hands it out. */
export type Transaction = GeneratedTransaction | IngestedTransaction;

/** `created` of a transaction, epoch ms. */
export function timeOf(tx: Transaction): number {
  return tx.kind === 'generated' ? (tx.batch.timeMs[tx.index] as number) : tx.record.timestamp;
}

/** How many transactions it stands for: the batch's weight, or 1 for a webhook's row. */
export function weightOf(tx: Transaction): number {
  return tx.kind === 'generated' ? tx.batch.weight : 1;
}

/** Whether it is a refund row (type 'refund', status 'refunded'). */
export function isRefundTransaction(tx: Transaction): boolean {
  return tx.kind === 'generated' ? isRefund(tx.batch, tx.index) : tx.record.type === 'refund';
}

/** Whether it is attributed to a first touch (is_attributed = 1); a webhook's row never is. */
export function isAttributedTransaction(tx: Transaction): boolean {
  return tx.kind === 'generated' && isAttributed(tx.batch, tx.index);
}

/** Whether it is a subscription payment. */
export function isSubscription(tx: Transaction): boolean {
  return tx.kind === 'generated' ? tx.batch.type[tx.index] === 1 : tx.record.type === 'subscription';
}

/** The provider's transaction id. */
export function transactionIdOfTransaction(tx: Transaction): string {
  return tx.kind === 'generated' ? transactionIdOf(tx.batch, tx.index) : tx.record.transactionId;
}

/** How it was matched to its first touch ('unmatched' for a webhook's row). */
export function attributionMethodOf(tx: Transaction): string {
  return ATTRIBUTION_METHODS[tx.kind === 'generated' ? (tx.batch.attribution[tx.index] as number) : UNMATCHED] as string;
}

/** Why an unattributed transaction found no first touch ('' when attributed). */
export function unmatchedReasonOf(tx: Transaction): string {
  if (tx.kind === 'generated') return UNMATCHED_REASONS[tx.batch.unmatchedReason[tx.index] as number] as string;
  const { record } = tx;
  return record.anonymousId === null && record.sessionId === null && record.profileId === null ? 'missing_browser_identity' : 'no_verified_prior_match';
}

/** The amount as the row carries it, in the currency's major unit (a refund's as positive, as generated refunds are). */
export function amountOf(tx: Transaction): number {
  return tx.kind === 'generated' ? (tx.batch.amount[tx.index] as number) : Math.abs(tx.record.cents) / 100;
}

/** The raw first-touch value of `field` for a transaction: '' when it is unattributed. */
export function firstTouch(ctx: RunContext, tx: Transaction, field: FirstTouchField): string {
  if (tx.kind === 'ingested' || !isAttributed(tx.batch, tx.index)) return '';
  const { batch, index, sessions } = tx;
  const sample = batch.sample[index] as number;
  if (field === 'path') return ctx.dictionaries.values.path[sessions.pagePaths[sessions.pageOffsets[sample] as number] as number] ?? '';
  if (field === 'referrer') return referrerDomain(ctx.dictionaries.values.referrer[sessions.dims.referrer[sample] as number] ?? '');
  return ctx.dictionaries.values[field][sessions.dims[field][sample] as number] ?? '';
}

/** A first-touch value as the rows name it: 'Unattributed', the value, or `fallback` when empty. */
export function firstTouchLabel(ctx: RunContext, tx: Transaction, field: FirstTouchField, fallback: string): string {
  if (!isAttributedTransaction(tx)) return 'Unattributed';
  return firstTouch(ctx, tx, field) || fallback;
}

/** The ISO currency of a transaction. */
export function currencyOf(tx: Transaction): string {
  return tx.kind === 'generated' ? (REVENUE_CURRENCIES[tx.batch.currency[tx.index] as number] as string) : tx.record.currency;
}

/** The provider name of a transaction ('stripe', 'paddle'). */
export function providerOf(tx: Transaction): string {
  return tx.kind === 'generated' ? (REVENUE_PROVIDERS[tx.batch.provider[tx.index] as number] as string) : tx.record.provider;
}

/** The amount of a transaction in whole cents (a refund's as a positive figure). */
export function centsOf(tx: Transaction): number {
  return tx.kind === 'generated' ? Math.round((tx.batch.amount[tx.index] as number) * 100) : Math.abs(tx.record.cents);
}

/** The resolved anonymous id of a transaction; null when the payment carried no browser identity. */
export function anonymousIdOfTransaction(tx: Transaction): string | null {
  if (tx.kind === 'ingested') return tx.record.anonymousId;
  if (UNMATCHED_REASONS[tx.batch.unmatchedReason[tx.index] as number] === 'missing_browser_identity') return null;
  return anonymousIdOf(tx.website.id, tx.batch.visitor[tx.index] as number);
}

/**
 * A value naming the transaction's customer across the scope: for a generated one, a number: the
 * visitor when identified (one profile id whatever the provider), else the visitor at that
 * provider; for a webhook's row, its customer id (a string, so it never meets a generated key),
 * or null when it has none (`uniq` skips it, as live skips a NULL customer_id).
 */
export function customerKey(ctx: RunContext, tx: Transaction): number | string | null {
  if (tx.kind === 'ingested') return tx.record.customerId;
  const visitor = tx.batch.visitor[tx.index] as number;
  const identified = profileIdOf(ctx.traffic.seedHash, tx.website.id, visitor) !== '';
  const slot = identified ? 0 : 1 + (tx.batch.provider[tx.index] as number);
  return (tx.siteIndex * 3 + slot) * 4_194_304 + visitor;
}

/** Whether transactions pass the revenue filters, and the masks they use. */
interface RevenueFilter {
  readonly own: FilterPlan | null;
  readonly dimensions: readonly { field: FirstTouchField; mask: Uint8Array; emptyPasses: boolean }[];
}

function compileRevenueFilter(ctx: RunContext): RevenueFilter {
  const ownTests: FieldTest[] = ctx.filters.tests.filter((t) => Object.hasOwn(OWN_FIELDS, t.field));
  const own = ownTests.length > 0 ? { ...ctx.filters, tests: ownTests } : null;
  const dimensions: { field: FirstTouchField; mask: Uint8Array; emptyPasses: boolean }[] = [];
  for (const field of [...FIRST_TOUCH_COLUMNS, 'referrer', 'path'] as const) {
    const mask = ctx.filters.masks.get(field);
    if (!mask) continue;
    const tests = ctx.filters.tests.filter((t) => t.field === field);
    dimensions.push({ field, mask, emptyPasses: passesFilters({ ...ctx.filters, tests }, () => '') });
  }
  return { own, dimensions };
}

function passes(filter: RevenueFilter, tx: Transaction): boolean {
  if (filter.own && !passesFilters(filter.own, (field) => ownField(tx, field))) return false;
  if (filter.dimensions.length === 0) return true;
  if (tx.kind === 'ingested' || !isAttributed(tx.batch, tx.index)) return filter.dimensions.every((d) => d.emptyPasses);
  const sample = tx.batch.sample[tx.index] as number;
  const { sessions } = tx;
  for (const { field, mask } of filter.dimensions) {
    const code = field === 'path' ? (sessions.pagePaths[sessions.pageOffsets[sample] as number] as number) : (sessions.dims[field][sample] as number);
    if (mask[code] === 0) return false;
  }
  return true;
}

/**
 * Visits every transaction (refunds included) of the scope's websites created within the range
 * that passes the revenue filters, in a fixed order (website, day, then the day's generated
 * transactions by session and the webhook rows in arrival order). Filters on fields the revenue
 * SQL does not read (timezone, language, query_string) are ignored. In pieces: yields the
 * transactions read, a few website-days at a time, and the session samples of a day it derived
 * or generated again ({@link PassSteps}).
 */
export function* scanTransactions(ctx: RunContext, visit: (tx: Transaction) => void): PassSteps<void> {
  if (ctx.scope.kind !== 'websites' || ctx.toMs < ctx.fromMs) return;
  const filter = compileRevenueFilter(ctx);
  const firstDay = Math.floor(ctx.fromMs / DAY_MS);
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  let unreported = 0;
  for (const [siteIndex, website] of ctx.scope.websites.entries()) {
    const ingested = ctx.ingested.holds(REVENUE_RECORDS, website.id);
    for (let day = firstDay; day <= lastDay; day++) {
      // The revenue of a day not kept is derived again, and its sessions generated again unless kept.
      const generated = ctx.traffic.generatedWork();
      const batch = ctx.traffic.derived(revenueDerivation, website, day);
      unreported += batch.count * TRANSACTION_WORK;
      if (batch.count > 0) {
        const sessions = ctx.traffic.sessions(website, day);
        for (let j = 0; j < batch.count; j++) {
          const t = batch.timeMs[j] as number;
          if (t < ctx.fromMs || t > ctx.toMs) continue;
          const tx: Transaction = { kind: 'generated', website, siteIndex, sessions, batch, index: j };
          if (passes(filter, tx)) visit(tx);
        }
      }
      if (ingested) {
        for (const record of ctx.ingested.onDay(REVENUE_RECORDS, website.id, day)) {
          unreported += TRANSACTION_WORK;
          if (!isMoneyRecord(record) || record.timestamp < ctx.fromMs || record.timestamp > ctx.toMs) continue;
          const tx: Transaction = { kind: 'ingested', website, siteIndex, record };
          if (passes(filter, tx)) visit(tx);
        }
      }
      unreported += (ctx.traffic.generatedWork() - generated) * GENERATED_RECORD_WORK;
      if (unreported >= YIELD_RECORDS) {
        yield unreported;
        unreported = 0;
      }
    }
  }
  if (unreported > 0) yield unreported;
}

/**
 * What a transaction read counts for, in records read: the types make a key, test filters and
 * count a customer for each.
 */
export const TRANSACTION_WORK = 2;

/** Sums of one group of transactions; money in cents, counts already weighted. */
export interface RevenueTotals {
  revenueCents: number;
  transactions: number;
  refundCents: number;
  refunds: number;
  customers: number;
  attributedCents: number;
  attributedTransactions: number;
  subscriptionCents: number;
  subscriptions: number;
  saleCents: number;
  sales: number;
  /** Customer keys seen, for distinct counts. */
  readonly seen: Set<number | string>;
}

/** Empty {@link RevenueTotals}. */
export function emptyTotals(): RevenueTotals {
  return {
    revenueCents: 0, transactions: 0, refundCents: 0, refunds: 0, customers: 0, attributedCents: 0,
    attributedTransactions: 0, subscriptionCents: 0, subscriptions: 0, saleCents: 0, sales: 0, seen: new Set(),
  };
}

/** Adds one transaction to `totals` (`uniq(customer)` counts refund rows' customers too, as live). */
export function addTransaction(ctx: RunContext, totals: RevenueTotals, tx: Transaction): void {
  const w = weightOf(tx);
  const cents = centsOf(tx) * w;
  const key = customerKey(ctx, tx);
  if (key !== null && !totals.seen.has(key)) {
    totals.seen.add(key);
    totals.customers += w;
  }
  if (isRefundTransaction(tx)) {
    totals.refundCents += cents;
    totals.refunds += w;
    return;
  }
  totals.revenueCents += cents;
  totals.transactions += w;
  if (isAttributedTransaction(tx)) {
    totals.attributedCents += cents;
    totals.attributedTransactions += w;
  }
  if (isSubscription(tx)) {
    totals.subscriptionCents += cents;
    totals.subscriptions += w;
  } else {
    totals.saleCents += cents;
    totals.sales += w;
  }
}

/** Cents as the Decimal amount rows carry. */
export function money(cents: number): number {
  return cents / 100;
}

/** A breakdown row of the live revenue builders: name (and extra columns), currency and the metrics. */
export interface BreakdownOptions {
  /** The group name of a transaction; null leaves it out. */
  readonly nameOf: (tx: Transaction) => string | null;
  /** Columns between name and currency (e.g. `country` of region rows), from the group's first transaction. */
  readonly extra?: (tx: Transaction) => Record<string, string | null>;
  /** Only non-refund rows (revenue_by_product). */
  readonly salesOnly?: boolean;
  /** The SQL LIMIT's default (`ctx.limit ?? limit`); undefined for no LIMIT. */
  readonly limit?: number;
}

/**
 * Rows `{ name, …extra, currency, revenue, transactions, customers, percentage }` grouped by
 * name, extra columns and currency, ORDER BY revenue DESC (ties by name, then currency), where
 * percentage is the group's share of its currency's revenue over every group (before the LIMIT).
 * In pieces ({@link PassSteps}).
 */
export function* revenueBreakdown(ctx: RunContext, options: BreakdownOptions): PassSteps<Record<string, string | number | null>[]> {
  const groups = new Map<string, { head: Record<string, string | null>; name: string; currency: string; totals: RevenueTotals }>();
  yield* scanTransactions(ctx, (tx) => {
    if (options.salesOnly && isRefundTransaction(tx)) return;
    const name = options.nameOf(tx);
    if (name === null) return;
    const extra = options.extra?.(tx) ?? {};
    const currency = currencyOf(tx);
    const key = `${name}\u0000${Object.values(extra).join('\u0000')}\u0000${currency}`;
    let group = groups.get(key);
    if (!group) {
      group = { head: extra, name, currency, totals: emptyTotals() };
      groups.set(key, group);
    }
    addTransaction(ctx, group.totals, tx);
  });
  const byCurrency = new Map<string, number>();
  for (const g of groups.values()) byCurrency.set(g.currency, (byCurrency.get(g.currency) ?? 0) + g.totals.revenueCents);
  const ordered = [...groups.values()].sort(
    (a, b) => b.totals.revenueCents - a.totals.revenueCents || compareText(a.name, b.name) || compareText(a.currency, b.currency) || compareText(Object.values(a.head).join(), Object.values(b.head).join()),
  );
  const limited = options.limit === undefined ? ordered : ordered.slice(0, ctx.limit ?? options.limit);
  return limited.map((g) => {
    const whole = byCurrency.get(g.currency) ?? 0;
    return {
      name: g.name,
      ...g.head,
      currency: g.currency,
      revenue: money(g.totals.revenueCents),
      transactions: g.totals.transactions,
      customers: g.totals.customers,
      percentage: whole === 0 ? null : round2((g.totals.revenueCents * 100) / whole),
    };
  });
}

/** Code-unit order, so sorts do not depend on the host's locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
