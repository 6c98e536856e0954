import { MAX_UNIX_SECONDS, paddleTransactionSchema, type PaddleEvent } from '../../../contract/webhooks.js';
import type { RevenueRecord } from './revenue-records.js';
import { issuesOf, metadataString, type WebhookOutcome } from './webhook-delivery.js';

/**
 * Paddle events as revenue rows, as the live handler (`apps/basket/src/routes/webhooks/paddle.ts`)
 * writes them: only `transaction.completed`, one completed row of `details.totals.total` ÷ 100
 * in `currency_code` (as sent, whatever the currency's decimals), a `subscription` when a line
 * item has a billing cycle, else a `sale`; product id and name from the first line item;
 * `created` is `billed_at`, else `created_at`. `custom_data` carries the attribution
 * (`anonymous_id`, `session_id`) and may name the website (`website_id`). Live stores no
 * customer id for Paddle rows, so they count no customer. Other events are acknowledged and
 * write nothing.
 */

/** The one event that writes a row. */
export const HANDLED_PADDLE_EVENTS = ['transaction.completed'] as const;

/** Characters of a product name kept. */
const PRODUCT_NAME_MAX = 1000;

/** Whole seconds, epoch ms, of a Paddle RFC 3339 instant; null when it is not one. */
function instantOf(text: string): number | null {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_UNIX_SECONDS * 1000) return null;
  return Math.floor(ms / 1000) * 1000;
}

/**
 * The rows a verified Paddle event writes and the website its custom data names; no rows for an
 * event the service does not handle; the issues when a `transaction.completed` lacks what a row
 * needs (the live handler then fails with 500).
 */
export function normalizePaddleEvent(event: PaddleEvent): WebhookOutcome {
  if (event.event_type !== 'transaction.completed') return { ok: true, records: [], website: null };
  const parsed = paddleTransactionSchema.safeParse(event.data);
  if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error.issues, 'data') };
  const tx = parsed.data;
  const createdText = tx.billed_at || tx.created_at;
  const created = instantOf(createdText);
  if (created === null) {
    return { ok: false, issues: [{ code: 'invalid_format', field: tx.billed_at ? 'data.billed_at' : 'data.created_at', message: 'An RFC 3339 date-time, e.g. 2025-06-02T11:00:00Z' }] };
  }
  const items = tx.details.line_items ?? [];
  const first = items[0];
  const name = first?.product?.name;
  const productId = first?.product?.id;
  const record: RevenueRecord = {
    timestamp: created,
    provider: 'paddle',
    type: items.some((item) => item.price?.billing_cycle !== null && item.price?.billing_cycle !== undefined) ? 'subscription' : 'sale',
    status: 'completed',
    transactionId: tx.id,
    cents: Number(tx.details.totals.total),
    currency: tx.currency_code,
    customerId: null,
    productId: productId ? productId : null,
    productName: name ? name.slice(0, PRODUCT_NAME_MAX) : null,
    anonymousId: metadataString(tx.custom_data, 'anonymous_id'),
    sessionId: metadataString(tx.custom_data, 'session_id', 128),
    profileId: null,
    eventType: event.event_type,
    paymentIntentId: null,
    reason: '',
  };
  return { ok: true, records: [record], website: metadataString(tx.custom_data, 'website_id') };
}
