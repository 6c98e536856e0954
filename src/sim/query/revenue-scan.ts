import type { Website } from '../model/entities.js';
import type { SessionBatch } from '../model/traffic.js';
import { DAY_MS } from '../model/world.js';
import { anonymousIdOf, profileIdOf } from '../model/identity.js';
import {
  isAttributed,
  isRefund,
  productsOf,
  REVENUE_CURRENCIES,
  REVENUE_PROVIDERS,
  REVENUE_TYPES,
  revenueDerivation,
  UNMATCHED_REASONS,
  type RevenueBatch,
} from '../model/derived/revenue.js';
import type { RunContext } from './definition.js';
import { passesFilters, type FieldTest, type FilterPlan } from './filters.js';
import { round2 } from './aggregate.js';
import { referrerDomain } from './referrer-domain.js';

/**
 * Reading the revenue table as the live revenue builders do: transactions whose `created` is in
 * the range, kept or dropped by the revenue filters (the transaction's own fields, and the
 * first-touch dimensions of the session that led to it), with the first-touch values the rows
 * name. Amounts are summed in whole cents so breakdowns add up to the overview exactly.
 */

/** First-touch dimensions a revenue filter or row can name, and the session column behind each. */
const FIRST_TOUCH_COLUMNS = ['country', 'region', 'city', 'browser_name', 'device_type', 'os_name', 'utm_source', 'utm_medium', 'utm_campaign'] as const;

/** One of the first-touch dimensions held in a session column, plus the referrer domain and the entry path. */
export type FirstTouchField = (typeof FIRST_TOUCH_COLUMNS)[number] | 'referrer' | 'path';

/** Fields a revenue filter reads from the transaction itself. */
const OWN_FIELDS = new Set(['currency', 'provider', 'type', 'product_id', 'product_name']);

/** One transaction, as a scan hands it out. */
export interface Transaction {
  readonly website: Website;
  /** Index of the website in the scope, for keys that must not collide across websites. */
  readonly siteIndex: number;
  readonly sessions: SessionBatch;
  readonly batch: RevenueBatch;
  /** Index into the batch's columns. */
  readonly index: number;
}

/** The raw first-touch value of `field` for a transaction: '' when it is unattributed. */
export function firstTouch(ctx: RunContext, tx: Transaction, field: FirstTouchField): string {
  const { batch, index, sessions } = tx;
  if (!isAttributed(batch, index)) return '';
  const sample = batch.sample[index] as number;
  if (field === 'path') return ctx.dictionaries.values.path[sessions.pagePaths[sessions.pageOffsets[sample] as number] as number] ?? '';
  if (field === 'referrer') return referrerDomain(ctx.dictionaries.values.referrer[sessions.dims.referrer[sample] as number] ?? '');
  return ctx.dictionaries.values[field][sessions.dims[field][sample] as number] ?? '';
}

/** A first-touch value as the rows name it: 'Unattributed', the value, or `fallback` when empty. */
export function firstTouchLabel(ctx: RunContext, tx: Transaction, field: FirstTouchField, fallback: string): string {
  if (!isAttributed(tx.batch, tx.index)) return 'Unattributed';
  return firstTouch(ctx, tx, field) || fallback;
}

/** The transaction's own filterable fields. */
export function ownField(tx: Transaction, field: string): string {
  const { batch, index, website } = tx;
  switch (field) {
    case 'currency':
      return currencyOf(tx);
    case 'provider':
      return providerOf(tx);
    case 'type':
      return REVENUE_TYPES[batch.type[index] as number] as string;
    case 'product_id':
      return productsOf(website)[batch.product[index] as number]?.id ?? '';
    case 'product_name':
      return productsOf(website)[batch.product[index] as number]?.name ?? '';
    default:
      return '';
  }
}

/** The ISO currency of a transaction. */
export function currencyOf(tx: Transaction): string {
  return REVENUE_CURRENCIES[tx.batch.currency[tx.index] as number] as string;
}

/** The provider name of a transaction ('stripe', 'paddle'). */
export function providerOf(tx: Transaction): string {
  return REVENUE_PROVIDERS[tx.batch.provider[tx.index] as number] as string;
}

/** The amount of a transaction in whole cents. */
export function centsOf(tx: Transaction): number {
  return Math.round((tx.batch.amount[tx.index] as number) * 100);
}

/** The resolved anonymous id of a transaction; null when the payment carried no browser identity. */
export function anonymousIdOfTransaction(tx: Transaction): string | null {
  if (UNMATCHED_REASONS[tx.batch.unmatchedReason[tx.index] as number] === 'missing_browser_identity') return null;
  return anonymousIdOf(tx.website.id, tx.batch.visitor[tx.index] as number);
}

/**
 * A number naming the transaction's customer across the scope: the visitor when identified (one
 * profile id whatever the provider), else the visitor at that provider.
 */
export function customerKey(ctx: RunContext, tx: Transaction): number {
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
  const ownTests: FieldTest[] = ctx.filters.tests.filter((t) => OWN_FIELDS.has(t.field));
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
  const attributed = isAttributed(tx.batch, tx.index);
  const sample = tx.batch.sample[tx.index] as number;
  const { sessions } = tx;
  for (const { field, mask, emptyPasses } of filter.dimensions) {
    if (!attributed) {
      if (!emptyPasses) return false;
      continue;
    }
    const code = field === 'path' ? (sessions.pagePaths[sessions.pageOffsets[sample] as number] as number) : (sessions.dims[field][sample] as number);
    if (mask[code] === 0) return false;
  }
  return true;
}

/**
 * Visits every transaction (refunds included) of the scope's websites created within the range
 * that passes the revenue filters, in a fixed order (website, day, session, transaction).
 * Filters on fields the revenue SQL does not read (timezone, language, query_string) are ignored.
 */
export function scanTransactions(ctx: RunContext, visit: (tx: Transaction) => void): void {
  if (ctx.scope.kind !== 'websites' || ctx.toMs < ctx.fromMs) return;
  const filter = compileRevenueFilter(ctx);
  const firstDay = Math.floor(ctx.fromMs / DAY_MS);
  const lastDay = Math.floor(ctx.toMs / DAY_MS);
  ctx.scope.websites.forEach((website, siteIndex) => {
    for (let day = firstDay; day <= lastDay; day++) {
      const batch = ctx.traffic.derived(revenueDerivation, website, day);
      if (batch.count === 0) continue;
      const sessions = ctx.traffic.sessions(website, day);
      for (let j = 0; j < batch.count; j++) {
        const t = batch.timeMs[j] as number;
        if (t < ctx.fromMs || t > ctx.toMs) continue;
        const tx: Transaction = { website, siteIndex, sessions, batch, index: j };
        if (passes(filter, tx)) visit(tx);
      }
    }
  });
}

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
  readonly seen: Set<number>;
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
  const w = tx.batch.weight;
  const cents = centsOf(tx) * w;
  const key = customerKey(ctx, tx);
  if (!totals.seen.has(key)) {
    totals.seen.add(key);
    totals.customers += w;
  }
  if (isRefund(tx.batch, tx.index)) {
    totals.refundCents += cents;
    totals.refunds += w;
    return;
  }
  totals.revenueCents += cents;
  totals.transactions += w;
  if (isAttributed(tx.batch, tx.index)) {
    totals.attributedCents += cents;
    totals.attributedTransactions += w;
  }
  if (tx.batch.type[tx.index] === 1) {
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
 */
export function revenueBreakdown(ctx: RunContext, options: BreakdownOptions): Record<string, string | number | null>[] {
  const groups = new Map<string, { head: Record<string, string | null>; name: string; currency: string; totals: RevenueTotals }>();
  scanTransactions(ctx, (tx) => {
    if (options.salesOnly && isRefund(tx.batch, tx.index)) return;
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
