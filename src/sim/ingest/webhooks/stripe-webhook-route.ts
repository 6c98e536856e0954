import { stripeEventSchema, type StripeEvent } from '../../../contract/webhooks.js';
import { normalizeStripeEvent } from './stripe-events.js';
import { STRIPE_SIGNATURE } from './webhook-signature.js';
import { defineWebhookRoute } from './webhook-route.js';

/**
 * `POST /webhooks/stripe/:hash` (live-ingestion §4.1): Stripe's deliveries for the organization
 * whose revenue configuration has this hash. In the live order: 404 for an unknown hash or no
 * Stripe secret, 400 without `stripe-signature`, 401 for a signature that does not verify over
 * the raw body (or a timestamp over 300 s from the simulator's clock, or a signed body that is
 * not JSON: Stripe's verification parses it), 400 for JSON that is not an event, then the
 * event's rows (500 when a handled event lacks what a row needs) and 200
 * `{received: true, type}`, recorded or not.
 */
export const stripeWebhookRoutes = [
  defineWebhookRoute<StripeEvent>({
    provider: 'stripe',
    summary:
      "Stripe's webhook for the organization with this revenue-configuration hash (GET /__sim/fixtures lists it with its whsec_ secret): verifies stripe-signature over the raw body (HMAC-SHA256, 300 s on the simulator's clock) and records succeeded payments, paid invoices and refunds as revenue (revenue_* query types), failed and canceled attempts as revenue_overview's payment diagnostics.",
    signature: STRIPE_SIGNATURE,
    notJson: { key: 'WEBHOOK_INVALID_SIGNATURE', message: 'The signed body is not JSON; Stripe’s verification parses the event, so this counts as a failed verification' },
    schema: stripeEventSchema,
    bodyDescription: 'The event exactly as Stripe sent it: the signature covers these bytes.',
    normalize: normalizeStripeEvent,
    typeOf: (event) => event.type,
    answers: {
      200: 'Accepted: the event is recorded (once per transaction), or its type is not one the service records',
      400: 'No stripe-signature header (basket.WEBHOOK_MISSING_SIGNATURE), or signed JSON that is not an event with a type (basket.WEBHOOK_INVALID_PAYLOAD)',
      401: 'The signature does not verify with the endpoint secret, its timestamp is over 300 s from the simulator clock, or the signed body is not JSON (basket.WEBHOOK_INVALID_SIGNATURE; `errors` says which)',
      500: 'A handled event whose object lacks what a revenue row needs, or the simulator’s ledger is full (basket.WEBHOOK_PROCESSING_FAILED; `errors` names the fields)',
    },
  }),
];
