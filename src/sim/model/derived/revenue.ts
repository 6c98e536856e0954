import type { Website } from '../entities.js';
import type { Derivation, DeriveInput } from '../../traffic-cache.js';
import { mix, pickWeighted, unit } from '../hash.js';
import { profileIdOf, websiteHash } from '../identity.js';

/**
 * Revenue of a website's day, derived from that day's session samples: a small share of sessions
 * buys (more on store-like sites), through Stripe or Paddle, in the customer's currency. Every
 * transaction belongs to a session sample and happens during it, so its first-touch dimensions
 * (country, region, city, browser, device, OS, referrer, UTM, entry page) are that session's.
 * Some completed transactions are refunded later the same day (a separate `refund` row), and
 * Stripe checkouts leave failed and canceled payment attempts for the diagnostics.
 */

/** Payment providers, indexed by {@link RevenueBatch.provider}. */
export const REVENUE_PROVIDERS = ['stripe', 'paddle'] as const;

/** Transaction types, indexed by {@link RevenueBatch.type}. */
export const REVENUE_TYPES = ['sale', 'subscription', 'refund'] as const;

/** Index of the `refund` type in {@link REVENUE_TYPES}. */
export const REFUND_TYPE = 2;

/** Currencies, indexed by {@link RevenueBatch.currency}. */
export const REVENUE_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;

/** How a transaction was matched to its first touch, indexed by {@link RevenueBatch.attribution}. */
export const ATTRIBUTION_METHODS = ['session', 'profile', 'anonymous', 'customer', 'unmatched'] as const;

/** Index of `unmatched` in {@link ATTRIBUTION_METHODS}: the transaction is not attributed. */
export const UNMATCHED = 4;

/** Why an unattributed transaction found no first touch, indexed by {@link RevenueBatch.unmatchedReason} ('' when attributed). */
export const UNMATCHED_REASONS = ['', 'missing_website', 'missing_browser_identity', 'no_verified_prior_match'] as const;

/** One product of a site's catalogue. */
export interface RevenueProduct {
  readonly id: string;
  readonly name: string;
  /** Index into {@link REVENUE_TYPES}: 0 sale, 1 subscription. */
  readonly type: 0 | 1;
  /** Price in USD (EUR the same figure, GBP 80% of it, rounded to .99). */
  readonly price: number;
  /** Relative frequency among the site's purchases. */
  readonly weight: number;
}

/** A product sold once. */
function sale(id: string, name: string, price: number, weight: number): RevenueProduct {
  return { id, name, type: 0, price, weight };
}

/** A product paid by subscription. */
function subscription(id: string, name: string, price: number, weight: number): RevenueProduct {
  return { id, name, type: 1, price, weight };
}

/** Products of store-like sites (merchandise plus a membership). */
const STORE_PRODUCTS: readonly RevenueProduct[] = [
  sale('prod_R7kHoodie01', 'Heavyweight Hoodie', 68, 14),
  sale('prod_R7kTee0002', 'Pocket T-Shirt', 28, 20),
  sale('prod_R7kMug0003', 'Ceramic Mug', 18, 14),
  sale('prod_R7kPack004', 'Classic Backpack', 95, 8),
  sale('prod_R7kShoe005', 'Canvas Sneakers', 79, 9),
  sale('prod_R7kRain006', 'Packable Rain Jacket', 120, 5),
  sale('prod_R7kBott007', 'Insulated Water Bottle', 32, 12),
  sale('prod_R7kHead008', 'Wireless Headphones', 149, 4),
  subscription('prod_R7kClub009', 'Members Club (monthly)', 9, 8),
];

/** Products of other sites (plans of a software product). */
const PLAN_PRODUCTS: readonly RevenueProduct[] = [
  subscription('prod_P2mStarter1', 'Starter (monthly)', 19, 30),
  subscription('prod_P2mPro00002', 'Pro (monthly)', 49, 22),
  subscription('prod_P2mPro00003', 'Pro (yearly)', 490, 6),
  subscription('prod_P2mTeam0004', 'Team (monthly)', 149, 7),
  sale('prod_P2mSeats005', 'Extra Seats', 12, 10),
  sale('prod_P2mCredit06', 'Usage Credits', 25, 9),
];

/** Decline codes of failed Stripe attempts, with their relative frequency. */
export const PAYMENT_FAILURE_REASONS = ['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'authentication_required', 'do_not_honor'] as const;
const FAILURE_REASON_WEIGHTS = [34, 24, 12, 10, 12, 8];

/** Cancellation reasons of canceled Stripe payment intents. */
export const PAYMENT_CANCELLATION_REASONS = ['abandoned', 'requested_by_customer', 'duplicate', 'automatic'] as const;
const CANCELLATION_REASON_WEIGHTS = [55, 20, 10, 15];

/** Stripe webhook event of an attempt, indexed by {@link PaymentAttempts.event}. */
export const ATTEMPT_EVENTS = ['payment_intent.payment_failed', 'invoice.payment_failed', 'payment_intent.canceled'] as const;

/** The number of Stripe failure webhook events the diagnostics require (live STRIPE_FAILURE_WEBHOOK_EVENTS). */
export const REQUIRED_FAILURE_EVENT_TYPES = 2;

/** Stripe payment attempts that did not succeed, one per attempt sample, in time order per session. */
export interface PaymentAttempts {
  readonly count: number;
  /** Session sample index. */
  readonly sample: Uint32Array;
  /** Attempt time, epoch ms (whole seconds). */
  readonly timeMs: Float64Array;
  /** 0 failed, 1 canceled. */
  readonly outcome: Uint8Array;
  /** Index into {@link ATTEMPT_EVENTS}. */
  readonly event: Uint8Array;
  /** Index into {@link PAYMENT_FAILURE_REASONS} (failed) or {@link PAYMENT_CANCELLATION_REASONS} (canceled). */
  readonly reason: Uint8Array;
  /** Index into {@link REVENUE_CURRENCIES}. */
  readonly currency: Uint8Array;
  readonly amount: Float64Array;
  /** Transaction index of the successful payment that followed (recovered), or -1. */
  readonly recoveredBy: Int32Array;
}

/** The revenue transactions of one website's day, grouped by session sample, in time order within it. */
export interface RevenueBatch {
  readonly websiteId: string;
  readonly day: number;
  /** Number of transaction samples. */
  readonly count: number;
  /** Real transactions each sample stands for (the session batch's weight). */
  readonly weight: number;
  /** Session sample index in the day's session batch. */
  readonly sample: Uint32Array;
  /** Visitor id of that session (the customer). */
  readonly visitor: Uint32Array;
  /** `created`, epoch ms (whole seconds), within the session's UTC day. */
  readonly timeMs: Float64Array;
  /** Index into {@link REVENUE_PROVIDERS}. */
  readonly provider: Uint8Array;
  /** Index into {@link REVENUE_TYPES}; status is 'refunded' for refunds, else 'completed' ({@link statusOf}). */
  readonly type: Uint8Array;
  /** Amount in the currency's major unit with cents (Decimal(18,4) live); a refund carries the refunded amount. */
  readonly amount: Float64Array;
  /** Index into {@link REVENUE_CURRENCIES}. */
  readonly currency: Uint8Array;
  /** Index into {@link productsOf}(website). */
  readonly product: Uint8Array;
  /** Index into {@link ATTRIBUTION_METHODS}. */
  readonly attribution: Uint8Array;
  /** Index into {@link UNMATCHED_REASONS}; 0 when attributed. */
  readonly unmatchedReason: Uint8Array;
  /** For a refund, the index of the refunded transaction; else -1. */
  readonly refundOf: Int32Array;
  /** Transactions of session sample i are at [sessionOffsets[i], sessionOffsets[i+1]). Length sessions + 1. */
  readonly sessionOffsets: Uint32Array;
  /** Stripe attempts that failed or were canceled. */
  readonly attempts: PaymentAttempts;
}

/** Whether a site sells goods (a store or shop) rather than plans. */
export function isStoreSite(website: Pick<Website, 'name' | 'domain'>): boolean {
  return /store|shop|merch/i.test(`${website.domain} ${website.name}`);
}

/** The product catalogue of a website, indexed by {@link RevenueBatch.product}. */
export function productsOf(website: Pick<Website, 'name' | 'domain'>): readonly RevenueProduct[] {
  return isStoreSite(website) ? STORE_PRODUCTS : PLAN_PRODUCTS;
}

/** Share of sessions that buy, before the engagement factor. */
function purchaseRate(website: Website): number {
  if (isStoreSite(website)) return 0.02;
  if (/^(app|dashboard)\./.test(website.domain)) return 0.012;
  if (/docs|blog|news|labs|intranet|developers/.test(website.domain)) return 0.002;
  return 0.006;
}

/** The price of `product` in `currency` (an index into {@link REVENUE_CURRENCIES}). */
function priceIn(product: RevenueProduct, currency: number): number {
  if (currency === 2) return Math.max(1, Math.round(product.price * 0.8)) - 0.01;
  return product.price - 0.01;
}

/** Countries (ISO 3166-1 alpha-2) whose customers pay in euros; GB pays in pounds; the rest in dollars. */
const EURO_COUNTRIES = new Set(['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK']);

/** The currency index a customer from `country` pays in. */
function currencyOf(country: string): number {
  return country === 'GB' ? 2 : EURO_COUNTRIES.has(country) ? 1 : 0;
}
const ATTRIBUTION_WEIGHTS = [70, 12, 6, 4, 8];
// No 'missing_website': such rows belong to no website, so a website's queries never see them.
const UNMATCHED_REASON_WEIGHTS = [0, 0, 5, 3];

function deriveRevenue({ seedHash, website, day, sessions, dictionaries }: DeriveInput): RevenueBatch {
  const countries = dictionaries.values.country;
  const site = mix(seedHash, websiteHash(website.id), 0x7e7);
  const products = productsOf(website);
  const productWeights = products.map((p) => p.weight);
  const rate = purchaseRate(website);
  const stripeShare = 0.65 + 0.3 * unit(site, 0x51);
  const dayEndMs = (day + 1) * 86_400_000 - 1000;
  const cols = {
    sample: [] as number[], visitor: [] as number[], timeMs: [] as number[], provider: [] as number[],
    type: [] as number[], amount: [] as number[], currency: [] as number[], product: [] as number[],
    attribution: [] as number[], unmatchedReason: [] as number[], refundOf: [] as number[],
  };
  const att = {
    sample: [] as number[], timeMs: [] as number[], outcome: [] as number[], event: [] as number[],
    reason: [] as number[], currency: [] as number[], amount: [] as number[], recoveredBy: [] as number[],
  };
  const sessionOffsets = new Uint32Array(sessions.count + 1);
  for (let i = 0; i < sessions.count; i++) {
    sessionOffsets[i] = cols.sample.length;
    const visitor = sessions.visitor[i] as number;
    const pages = (sessions.pageOffsets[i + 1] as number) - (sessions.pageOffsets[i] as number);
    const startMs = sessions.startMs[i] as number;
    const durationMs = (sessions.durationS[i] as number) * 1000;
    const words = mix(site, day, i);
    const engaged = pages > 1 ? Math.min(2.5, 0.8 + 0.35 * pages) : 0.25;
    const buys = unit(words, 1) < rate * engaged;
    const currency = currencyOf(countries[sessions.dims.country[i] as number] ?? '');
    const provider = unit(words, 2) < stripeShare ? 0 : 1;
    const at = (share: number): number => Math.min(dayEndMs, Math.floor((startMs + share * durationMs) / 1000) * 1000);
    if (buys) {
      const n = unit(words, 3) < 0.1 ? 2 : 1;
      const identified = profileIdOf(seedHash, website.id, visitor) !== '';
      let attribution = pickWeighted(ATTRIBUTION_WEIGHTS, unit(words, 4));
      if (attribution === 1 && !identified) attribution = 0;
      const reason = attribution === UNMATCHED ? pickWeighted(UNMATCHED_REASON_WEIGHTS, unit(words, 5)) : 0;
      const first = cols.sample.length;
      if (provider === 0 && unit(words, 6) < 0.09) {
        // A declined card before the payment that went through: a recovered attempt.
        att.sample.push(i);
        att.timeMs.push(at(0.55));
        att.outcome.push(0);
        att.event.push(unit(words, 7) < 0.3 ? 1 : 0);
        att.reason.push(pickWeighted(FAILURE_REASON_WEIGHTS, unit(words, 8)));
        att.currency.push(currency);
        att.amount.push(priceIn(products[pickWeighted(productWeights, unit(words, 0x20))] as RevenueProduct, currency));
        att.recoveredBy.push(first);
      }
      for (let k = 0; k < n; k++) {
        const product = pickWeighted(productWeights, unit(words, 0x20 + k));
        const item = products[product] as RevenueProduct;
        cols.sample.push(i);
        cols.visitor.push(visitor);
        cols.timeMs.push(at(0.7 + 0.25 * unit(words, 0x30 + k)));
        cols.provider.push(provider);
        cols.type.push(item.type);
        cols.amount.push(priceIn(item, currency));
        cols.currency.push(currency);
        cols.product.push(product);
        cols.attribution.push(attribution);
        cols.unmatchedReason.push(reason);
        cols.refundOf.push(-1);
      }
      for (let k = 0; k < n; k++) {
        if (unit(words, 0x40 + k) >= 0.05) continue;
        const of = first + k;
        const saleMs = cols.timeMs[of] as number;
        cols.sample.push(i);
        cols.visitor.push(visitor);
        cols.timeMs.push(Math.floor((saleMs + unit(words, 0x48 + k) * (dayEndMs - saleMs)) / 1000) * 1000);
        cols.provider.push(provider);
        cols.type.push(REFUND_TYPE);
        cols.amount.push(cols.amount[of] as number);
        cols.currency.push(currency);
        cols.product.push(cols.product[of] as number);
        cols.attribution.push(attribution);
        cols.unmatchedReason.push(reason);
        cols.refundOf.push(of);
      }
    } else if (provider === 0 && pages > 1 && unit(words, 9) < rate * 0.25) {
      // A checkout that did not go through: a failed card or an abandoned payment intent.
      const canceled = unit(words, 10) < 0.3;
      att.sample.push(i);
      att.timeMs.push(at(0.8));
      att.outcome.push(canceled ? 1 : 0);
      att.event.push(canceled ? 2 : unit(words, 7) < 0.3 ? 1 : 0);
      att.reason.push(canceled ? pickWeighted(CANCELLATION_REASON_WEIGHTS, unit(words, 11)) : pickWeighted(FAILURE_REASON_WEIGHTS, unit(words, 8)));
      att.currency.push(currency);
      att.amount.push(priceIn(products[pickWeighted(productWeights, unit(words, 0x20))] as RevenueProduct, currency));
      att.recoveredBy.push(-1);
    }
  }
  sessionOffsets[sessions.count] = cols.sample.length;
  return {
    websiteId: website.id,
    day,
    count: cols.sample.length,
    weight: sessions.weight,
    sample: Uint32Array.from(cols.sample),
    visitor: Uint32Array.from(cols.visitor),
    timeMs: Float64Array.from(cols.timeMs),
    provider: Uint8Array.from(cols.provider),
    type: Uint8Array.from(cols.type),
    amount: Float64Array.from(cols.amount),
    currency: Uint8Array.from(cols.currency),
    product: Uint8Array.from(cols.product),
    attribution: Uint8Array.from(cols.attribution),
    unmatchedReason: Uint8Array.from(cols.unmatchedReason),
    refundOf: Int32Array.from(cols.refundOf),
    sessionOffsets,
    attempts: {
      count: att.sample.length,
      sample: Uint32Array.from(att.sample),
      timeMs: Float64Array.from(att.timeMs),
      outcome: Uint8Array.from(att.outcome),
      event: Uint8Array.from(att.event),
      reason: Uint8Array.from(att.reason),
      currency: Uint8Array.from(att.currency),
      amount: Float64Array.from(att.amount),
      recoveredBy: Int32Array.from(att.recoveredBy),
    },
  };
}

/** The revenue of a website's day: `ctx.traffic.derived(revenueDerivation, website, day)`. */
export const revenueDerivation: Derivation<RevenueBatch> = { name: 'revenue', derive: deriveRevenue };

/** The transactions (refunds included) of session sample `index`: indexes [from, to) of the batch's columns. */
export function transactionsOfSession(batch: RevenueBatch, index: number): { from: number; to: number } {
  return { from: batch.sessionOffsets[index] as number, to: batch.sessionOffsets[index + 1] as number };
}

/** Whether transaction `j` is a refund row (type 'refund', status 'refunded'). */
export function isRefund(batch: RevenueBatch, j: number): boolean {
  return batch.type[j] === REFUND_TYPE;
}

/** The live `status` of transaction `j`: 'refunded' for a refund row, else 'completed'. */
export function statusOf(batch: RevenueBatch, j: number): 'completed' | 'refunded' {
  return isRefund(batch, j) ? 'refunded' : 'completed';
}

/** Whether transaction `j` is attributed to a first touch (is_attributed = 1). */
export function isAttributed(batch: RevenueBatch, j: number): boolean {
  return batch.attribution[j] !== UNMATCHED;
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function token(length: number, ...words: number[]): string {
  let out = '';
  for (let k = 0; k < length; k++) out += ALPHABET[mix(...words, k) % ALPHABET.length];
  return out;
}

/** The provider's id of transaction `j` (Stripe `pi_…`/`re_…`, Paddle `txn_…`/`adj_…`). */
export function transactionIdOf(batch: RevenueBatch, j: number): string {
  const h = mix(websiteHash(batch.websiteId), batch.day, batch.sample[j] as number, j);
  const stripe = batch.provider[j] === 0;
  const refund = isRefund(batch, j);
  if (stripe) return `${refund ? 're' : 'pi'}_${token(24, h, 1)}`;
  return `${refund ? 'adj' : 'txn'}_${token(26, h, 2).toLowerCase()}`;
}

/**
 * The customer id of transaction `j`: the profile id when the visitor is identified, else the
 * provider's customer id of the visitor (Stripe `cus_…`, Paddle `ctm_…`), the same on every day.
 */
export function customerIdOf(seedHash: number, batch: RevenueBatch, j: number): string {
  const visitor = batch.visitor[j] as number;
  const profile = profileIdOf(seedHash, batch.websiteId, visitor);
  if (profile !== '') return profile;
  const h = mix(seedHash, websiteHash(batch.websiteId), visitor, 0xc5);
  return batch.provider[j] === 0 ? `cus_${token(14, h)}` : `ctm_${token(26, h).toLowerCase()}`;
}
