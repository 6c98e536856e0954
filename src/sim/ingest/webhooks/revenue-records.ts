import { defineIngestKind, type IngestRecord } from '../ingest-ledger.js';

/**
 * What the payment webhooks write: one row of the live `analytics.revenue` table per payment,
 * refund or failed attempt, kept in the ingest ledger on its website and the UTC day of its
 * `created`. The revenue query types read the money rows beside the generated revenue of the
 * same website-day, and revenue_overview reads the attempts for its Stripe diagnostics.
 */

/** The payment providers that post webhooks. */
export type RevenueProvider = 'stripe' | 'paddle';

/**
 * A row's type, as live: `sale`, `subscription` and `refund` are money; `subscription_event`
 * is a payment attempt that failed or was canceled (the newer Stripe normaliser's shape), which
 * the revenue readers leave out of every sum.
 */
export type RevenueRecordType = 'sale' | 'subscription' | 'refund' | 'subscription_event';

/** A row's status: completed payments, refunded refunds, failed or canceled attempts. */
export type RevenueRecordStatus = 'completed' | 'refunded' | 'failed' | 'canceled';

/** One ingested revenue row. */
export interface RevenueRecord extends IngestRecord {
  /** `created`, epoch ms (whole seconds): picks the row's day and time bucket. */
  readonly timestamp: number;
  readonly provider: RevenueProvider;
  readonly type: RevenueRecordType;
  readonly status: RevenueRecordStatus;
  /** The provider's id: `pi_…`, `in_…`, `re_…`, `txn_…`; an attempt's is its event id (`evt_…`). */
  readonly transactionId: string;
  /** The amount in cents of the currency's major unit, negative for a refund, as live stores it. */
  readonly cents: number;
  /** Upper case for Stripe; as sent for Paddle. */
  readonly currency: string;
  readonly customerId: string | null;
  readonly productId: string | null;
  readonly productName: string | null;
  /** Browser identity sent in the payment's metadata, which attribution would join on. */
  readonly anonymousId: string | null;
  readonly sessionId: string | null;
  readonly profileId: string | null;
  /** The provider event that wrote the row (`payment_intent.succeeded`, `transaction.completed` …). */
  readonly eventType: string;
  /** Stripe's PaymentIntent behind the row, when known: a failed attempt is recovered when it later succeeds. */
  readonly paymentIntentId: string | null;
  /** An attempt's decline code, error code or type (failed), or cancellation reason (canceled); '' when none was sent. */
  readonly reason: string;
}

const length = (text: string | null): number => (text === null ? 0 : text.length);

/** The ledger kind of webhook revenue rows. */
export const REVENUE_RECORDS = defineIngestKind<RevenueRecord>(
  'revenue',
  (r) =>
    r.transactionId.length +
    r.currency.length +
    length(r.customerId) +
    length(r.productId) +
    length(r.productName) +
    length(r.anonymousId) +
    length(r.sessionId) +
    length(r.profileId) +
    r.eventType.length +
    length(r.paymentIntentId) +
    r.reason.length,
);

/** Whether a row is money the revenue readers sum: not an attempt, completed (or refunded for a refund). */
export function isMoneyRecord(record: RevenueRecord): boolean {
  if (record.type === 'subscription_event') return false;
  return record.type === 'refund' ? record.status === 'refunded' : record.status === 'completed';
}

/** Whether a row is a failed or canceled payment attempt. */
export function isAttemptRecord(record: RevenueRecord): boolean {
  return record.type === 'subscription_event' && (record.status === 'failed' || record.status === 'canceled');
}
