import type { z } from 'zod';
import {
  stripeChargeSchema,
  stripeInvoiceSchema,
  stripePaymentIntentSchema,
  type StripeEvent,
  type StripeInvoice,
  type StripePaymentIntent,
} from '../../../contract/webhooks.js';
import type { BasketIssue } from '../../errors.js';
import type { RevenueRecord, RevenueRecordStatus } from './revenue-records.js';
import { issuesOf, metadataString, type WebhookOutcome } from './webhook-delivery.js';

/**
 * Stripe events as revenue rows, as the live handler (`apps/basket/src/routes/webhooks/stripe.ts`)
 * and its newer normaliser (`stripe-normalization.ts`) write them:
 *
 * - `payment_intent.succeeded`: a completed `sale` (a `subscription` when the intent belongs to
 *   an invoice or its description starts with "subscription"), `amount_received` (else `amount`).
 * - `invoice.paid`, `invoice.payment_succeeded`: a completed `subscription` of `amount_paid`
 *   (none when it is 0), its transaction the invoice's PaymentIntent, else the invoice.
 * - `payment_intent.payment_failed`, `payment_intent.canceled`, `invoice.payment_failed`: a
 *   failed or canceled attempt (`subscription_event`, transaction id = the event id, as the
 *   normaliser writes them), which only revenue_overview's diagnostics read.
 * - `charge.refunded`: one `refund` row per refund listed, refunded, negative amount.
 *
 * Amounts are minor units: ÷ 100, or as they are for zero-decimal currencies (JPY …); currencies
 * upper case. A row's `created` is its object's (the refund's for a refund), as the live handler
 * writes it. Attribution comes from the object's metadata (`databuddy_client_id` names the
 * website; `databuddy_anonymous_id`, `databuddy_session_id`, `databuddy_profile_id`; invoices
 * also read their subscription's metadata). Other events are acknowledged and write nothing.
 */

/** Currencies Stripe counts in whole units (https://docs.stripe.com/currencies#zero-decimal); UGX is sent with two decimals. */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** Cents (of the major unit) of an amount in `currency`'s minor unit. */
function centsOf(minorUnits: number, currency: string): number {
  return ZERO_DECIMAL.has(currency) ? minorUnits * 100 : minorUnits;
}

/** The events that write rows. */
export const HANDLED_STRIPE_EVENTS = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'charge.refunded',
] as const;

/** Characters of a product name kept. */
const PRODUCT_NAME_MAX = 1000;

type Metadata = Readonly<Record<string, unknown>> | null | undefined;

/** The id of a Stripe reference (an id, or an expanded object). */
function idOf(reference: string | { id: string } | null | undefined): string | null {
  if (reference === null || reference === undefined) return null;
  const id = typeof reference === 'string' ? reference : reference.id;
  return id.length > 0 ? id : null;
}

/** The fields every row of one object shares: attribution, customer, provider. */
interface Common {
  readonly anonymousId: string | null;
  readonly sessionId: string | null;
  readonly profileId: string | null;
  readonly customerId: string | null;
  readonly eventType: string;
}

function commonOf(metadata: Metadata, customer: string | { id: string } | null | undefined, eventType: string): Common {
  return {
    anonymousId: metadataString(metadata, 'databuddy_anonymous_id'),
    sessionId: metadataString(metadata, 'databuddy_session_id', 128),
    profileId: metadataString(metadata, 'databuddy_profile_id'),
    customerId: idOf(customer),
    eventType,
  };
}

function row(common: Common, fields: Omit<RevenueRecord, keyof Common | 'provider'>): RevenueRecord {
  return { provider: 'stripe', ...common, ...fields };
}

const REASON = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A reason code as the normaliser keeps it: a short lower-case token, else ''. */
function reasonToken(value: string | null | undefined): string {
  const token = (value ?? '').trim().toLowerCase();
  return REASON.test(token) ? token : '';
}

/** The object of the event, read with its schema, or the issues naming what is wrong with it. */
function objectOf<S extends z.ZodType>(event: StripeEvent, schema: S): { ok: true; value: z.infer<S> } | { ok: false; issues: BasketIssue[] } {
  const parsed = schema.safeParse(event.data?.object);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error.issues, 'data.object') };
}

function paymentIntentRows(event: StripeEvent, intent: StripePaymentIntent): RevenueRecord[] {
  const currency = intent.currency.toUpperCase();
  const description = intent.description ?? null;
  const subscription = idOf(intent.invoice) !== null || (description ?? '').toLowerCase().startsWith('subscription');
  const common = commonOf(intent.metadata, intent.customer, event.type);
  const productName = description !== null && description.length > 0 && !description.toLowerCase().startsWith('subscription') ? description.slice(0, PRODUCT_NAME_MAX) : null;
  const amount = intent.amount_received !== null && intent.amount_received !== undefined && intent.amount_received > 0 ? intent.amount_received : intent.amount;
  return [
    row(common, {
      timestamp: intent.created * 1000,
      type: subscription ? 'subscription' : 'sale',
      status: 'completed',
      transactionId: intent.id,
      cents: centsOf(amount, currency),
      currency,
      productId: null,
      productName,
      paymentIntentId: intent.id,
      reason: '',
    }),
  ];
}

function attemptRow(event: StripeEvent, intent: StripePaymentIntent, status: RevenueRecordStatus): RevenueRecord {
  const currency = intent.currency.toUpperCase();
  const error = intent.last_payment_error;
  const reason = status === 'canceled' ? reasonToken(intent.cancellation_reason) : reasonToken(error?.decline_code) || reasonToken(error?.code) || reasonToken(error?.type);
  return row(commonOf(intent.metadata, intent.customer, event.type), {
    timestamp: intent.created * 1000,
    type: 'subscription_event',
    status,
    transactionId: event.id as string,
    cents: centsOf(intent.amount, currency),
    currency,
    productId: null,
    productName: intent.description ? intent.description.slice(0, PRODUCT_NAME_MAX) : null,
    paymentIntentId: intent.id,
    reason,
  });
}

/** An invoice's metadata with its subscription's (the invoice's own fields win). */
function invoiceMetadata(invoice: StripeInvoice): Record<string, unknown> {
  return { ...invoice.parent?.subscription_details?.metadata, ...invoice.subscription_details?.metadata, ...invoice.metadata };
}

function paidInvoiceRows(event: StripeEvent, invoice: StripeInvoice): RevenueRecord[] {
  if (invoice.amount_paid === 0) return [];
  const currency = invoice.currency.toUpperCase();
  const paymentIntentId = idOf(invoice.payment_intent);
  return [
    row(commonOf(invoiceMetadata(invoice), invoice.customer, event.type), {
      timestamp: invoice.created * 1000,
      type: 'subscription',
      status: 'completed',
      transactionId: paymentIntentId ?? invoice.id,
      cents: centsOf(invoice.amount_paid, currency),
      currency,
      productId: null,
      productName: invoice.description ? invoice.description.slice(0, PRODUCT_NAME_MAX) : null,
      paymentIntentId,
      reason: '',
    }),
  ];
}

function failedInvoiceRow(event: StripeEvent, invoice: StripeInvoice): RevenueRecord {
  const currency = invoice.currency.toUpperCase();
  const total = invoice.total !== null && invoice.total !== undefined && invoice.total >= 0 ? invoice.total : null;
  const amount = invoice.amount_remaining ?? invoice.amount_due ?? total ?? invoice.amount_paid;
  return row(commonOf(invoiceMetadata(invoice), invoice.customer, event.type), {
    timestamp: invoice.created * 1000,
    type: 'subscription_event',
    status: 'failed',
    transactionId: event.id as string,
    cents: centsOf(amount, currency),
    currency,
    productId: null,
    productName: invoice.description ? invoice.description.slice(0, PRODUCT_NAME_MAX) : null,
    paymentIntentId: idOf(invoice.payment_intent),
    reason: '',
  });
}

/** The website the metadata names (`databuddy_client_id`). */
function websiteNamed(metadata: Metadata): string | null {
  return metadataString(metadata, 'databuddy_client_id');
}

/** An attempt's transaction id is its event's id: the event must have one. */
const MISSING_EVENT_ID: BasketIssue = { code: 'invalid_type', field: 'id', message: 'A failed or canceled attempt is recorded under its event id: send the event with its id (evt_…)' };

const hasEventId = (event: StripeEvent): boolean => typeof event.id === 'string' && event.id.length > 0 && event.id.length <= 255;

/**
 * The rows a verified Stripe event writes and the website its metadata names; no rows for an
 * event the service does not handle; the issues when a handled event's object lacks what a row
 * needs (the live handler then fails with 500).
 */
export function normalizeStripeEvent(event: StripeEvent): WebhookOutcome {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = objectOf(event, stripePaymentIntentSchema);
      if (!intent.ok) return intent;
      return { ok: true, records: paymentIntentRows(event, intent.value), website: websiteNamed(intent.value.metadata) };
    }
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = objectOf(event, stripePaymentIntentSchema);
      if (!intent.ok) return intent;
      if (!hasEventId(event)) return { ok: false, issues: [MISSING_EVENT_ID] };
      const status = event.type === 'payment_intent.canceled' ? 'canceled' : 'failed';
      return { ok: true, records: [attemptRow(event, intent.value, status)], website: websiteNamed(intent.value.metadata) };
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      const invoice = objectOf(event, stripeInvoiceSchema);
      if (!invoice.ok) return invoice;
      return { ok: true, records: paidInvoiceRows(event, invoice.value), website: websiteNamed(invoiceMetadata(invoice.value)) };
    }
    case 'invoice.payment_failed': {
      const invoice = objectOf(event, stripeInvoiceSchema);
      if (!invoice.ok) return invoice;
      if (!hasEventId(event)) return { ok: false, issues: [MISSING_EVENT_ID] };
      return { ok: true, records: [failedInvoiceRow(event, invoice.value)], website: websiteNamed(invoiceMetadata(invoice.value)) };
    }
    case 'charge.refunded': {
      const parsed = objectOf(event, stripeChargeSchema);
      if (!parsed.ok) return parsed;
      const charge = parsed.value;
      const currency = charge.currency.toUpperCase();
      const common = commonOf(charge.metadata, charge.customer, event.type);
      const paymentIntentId = idOf(charge.payment_intent);
      const records = (charge.refunds?.data ?? []).map((refund) =>
        row(common, {
          timestamp: refund.created * 1000,
          type: 'refund',
          status: 'refunded',
          transactionId: refund.id,
          cents: -centsOf(refund.amount, currency),
          currency,
          productId: null,
          productName: 'Refund',
          paymentIntentId,
          reason: '',
        }),
      );
      return { ok: true, records, website: websiteNamed(charge.metadata) };
    }
    default:
      return { ok: true, records: [], website: null };
  }
}
