import { z } from 'zod';

/**
 * The payment-provider webhooks of the ingestion service (`POST /webhooks/stripe/:hash`,
 * `POST /webhooks/paddle/:hash`): the events' envelopes, the objects of the events that write
 * revenue (only the fields read, every other field passes), the answer and the error body.
 * The routes verify the signature over the raw text first, then read the JSON with these.
 */

/** Refunds read from one `charge.refunded` event at most (Stripe embeds the first page, 10, in the charge). */
export const MAX_REFUNDS_PER_CHARGE = 100;

/** Line items read from one Paddle transaction at most. */
export const MAX_PADDLE_LINE_ITEMS = 100;

/** Largest amount accepted, in the currency's minor unit: sums of them stay exact in cents. */
export const MAX_MINOR_UNITS = 1_000_000_000_000;

/** Unix seconds of 9999-12-31T23:59:59Z, the last instant a `created` may name. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

const unixSeconds = z.number().int().positive().max(MAX_UNIX_SECONDS);
const minorUnits = z.number().int().nonnegative().max(MAX_MINOR_UNITS);
const currency = z.string().regex(/^[A-Za-z]{3}$/, 'A three-letter ISO 4217 currency code');
const objectId = z.string().min(1).max(255);
/** A Stripe reference: the id, or the expanded object with its id. */
const expandable = z.union([z.string().max(255), z.looseObject({ id: z.string().max(255) })]).nullish();
/** Metadata: strings by name (values of another type are ignored, not refused). */
const metadata = z.record(z.string(), z.unknown()).nullish();

/** A Stripe event as it arrives: `type` names it, `data.object` is the object it is about. */
export const stripeEventSchema = z
  .looseObject({
    id: z.string().optional().describe('evt_…'),
    type: z.string().describe('payment_intent.succeeded, invoice.paid, charge.refunded, …'),
    created: z.number().optional(),
    data: z.looseObject({ object: z.looseObject({}) }).optional(),
  })
  .describe('A Stripe event (https://docs.stripe.com/api/events/object), signed in the stripe-signature header');

export type StripeEvent = z.infer<typeof stripeEventSchema>;

/** A Stripe PaymentIntent (`payment_intent.succeeded`, `.payment_failed`, `.canceled`). */
export const stripePaymentIntentSchema = z.looseObject({
  id: objectId,
  amount: minorUnits,
  amount_received: minorUnits.nullish(),
  currency,
  created: unixSeconds,
  customer: expandable,
  description: z.string().nullish(),
  invoice: expandable,
  metadata,
  cancellation_reason: z.string().nullish(),
  last_payment_error: z
    .looseObject({ code: z.string().nullish(), decline_code: z.string().nullish(), type: z.string().nullish() })
    .nullish(),
});

export type StripePaymentIntent = z.infer<typeof stripePaymentIntentSchema>;

const invoiceMetadata = z.looseObject({ metadata }).nullish();

/** A Stripe Invoice (`invoice.paid`, `invoice.payment_succeeded`, `invoice.payment_failed`). */
export const stripeInvoiceSchema = z.looseObject({
  id: objectId,
  amount_paid: minorUnits,
  amount_due: minorUnits.nullish(),
  amount_remaining: minorUnits.nullish(),
  total: z.number().int().nullish(),
  currency,
  created: unixSeconds,
  customer: expandable,
  description: z.string().nullish(),
  payment_intent: expandable,
  metadata,
  subscription_details: invoiceMetadata,
  parent: z.looseObject({ subscription_details: invoiceMetadata }).nullish(),
});

export type StripeInvoice = z.infer<typeof stripeInvoiceSchema>;

/** A Stripe Charge with its refunds (`charge.refunded`). */
export const stripeChargeSchema = z.looseObject({
  id: objectId,
  currency,
  customer: expandable,
  metadata,
  payment_intent: expandable,
  refunds: z
    .looseObject({
      data: z.array(z.looseObject({ id: objectId, amount: minorUnits, created: unixSeconds })).max(MAX_REFUNDS_PER_CHARGE),
    })
    .nullish(),
});

export type StripeCharge = z.infer<typeof stripeChargeSchema>;

/** A Paddle event as it arrives: `event_type` names it, `data` is the entity it is about. */
export const paddleEventSchema = z
  .looseObject({
    event_id: z.string().optional().describe('evt_…'),
    event_type: z.string().describe('transaction.completed, …'),
    occurred_at: z.string().optional(),
    data: z.looseObject({}).optional(),
  })
  .describe('A Paddle Billing notification (https://developer.paddle.com/webhooks/overview), signed in the paddle-signature header');

export type PaddleEvent = z.infer<typeof paddleEventSchema>;

/** A Paddle transaction (`transaction.completed`). */
export const paddleTransactionSchema = z.looseObject({
  id: objectId,
  currency_code: currency,
  billed_at: z.string().max(64).nullish(),
  created_at: z.string().max(64),
  custom_data: metadata,
  details: z.looseObject({
    totals: z.looseObject({ total: z.string().regex(/^\d{1,13}$/, 'An amount in the lowest denomination, as a string of digits') }),
    line_items: z
      .array(
        z.looseObject({
          product: z.looseObject({ id: z.string().max(255).nullish(), name: z.string().nullish() }).nullish(),
          price: z.looseObject({ billing_cycle: z.unknown() }).nullish(),
        }),
      )
      .max(MAX_PADDLE_LINE_ITEMS)
      .nullish(),
  }),
});

export type PaddleTransaction = z.infer<typeof paddleTransactionSchema>;

/** The answer to a delivery the service accepted (handled or not). */
export const webhookReceivedSchema = z.object({
  received: z.literal(true),
  /** The event's type, as sent. */
  type: z.string(),
});

