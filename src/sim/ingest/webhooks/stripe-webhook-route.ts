import { basketErrorBodySchema } from '../../../contract/errors.js';
import { stripeEventSchema, webhookReceivedSchema, type StripeEvent } from '../../../contract/webhooks.js';
import { basketError } from '../../errors.js';
import { defineRoute, ok } from '../../routing/route.js';
import { normalizeStripeEvent } from './stripe-events.js';
import {
  asWebhookEnvelope,
  findWebhookEndpoint,
  issuesOf,
  processingFailed,
  recordRevenue,
  type WebhookEndpoint,
} from './webhook-delivery.js';
import { verifyStripeSignature } from './webhook-signature.js';

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
  defineRoute<string, WebhookEndpoint, StripeEvent>({
    method: 'POST',
    path: '/webhooks/stripe/:hash',
    family: 'ingest',
    access: { kind: 'public' },
    summary:
      "Stripe's webhook for the organization with this revenue-configuration hash (GET /__sim/fixtures lists it with its whsec_ secret): verifies stripe-signature over the raw body (HMAC-SHA256, 300 s on the simulator's clock) and records succeeded payments, paid invoices and refunds as revenue (revenue_* query types), failed and canceled attempts as revenue_overview's payment diagnostics.",
    rawBody: {
      schema: stripeEventSchema,
      description: 'The event exactly as Stripe sent it: the signature covers these bytes.',
    },
    shapeRefusal: asWebhookEnvelope,
    responses: {
      200: { description: 'Accepted: the event is recorded (once per transaction), or its type is not one the service records', schema: webhookReceivedSchema },
      400: { description: 'No stripe-signature header (basket.WEBHOOK_MISSING_SIGNATURE), or signed JSON that is not an event with a type (basket.WEBHOOK_INVALID_PAYLOAD)', schema: basketErrorBodySchema },
      401: { description: 'The signature does not verify with the endpoint secret, its timestamp is over 300 s from the simulator clock, or the signed body is not JSON (basket.WEBHOOK_INVALID_SIGNATURE; `errors` says which)', schema: basketErrorBodySchema },
      404: { description: 'No revenue configuration has this hash, or it has no Stripe secret (basket.WEBHOOK_ENDPOINT_NOT_FOUND)', schema: basketErrorBodySchema },
      413: { description: 'The body is over 1 MB (PAYLOAD_TOO_LARGE)', schema: basketErrorBodySchema },
      500: { description: 'A handled event whose object lacks what a revenue row needs, or the simulator’s ledger is full (basket.WEBHOOK_PROCESSING_FAILED; `errors` names the fields)', schema: basketErrorBodySchema },
    },
    authorize(ctx) {
      return findWebhookEndpoint(ctx, 'stripe');
    },
    validate(ctx, body, endpoint) {
      const header = ctx.request.headers['stripe-signature'];
      if (!header) return basketError('WEBHOOK_MISSING_SIGNATURE');
      const problem = verifyStripeSignature(body, header, endpoint.secret, ctx.now);
      if (problem) return basketError('WEBHOOK_INVALID_SIGNATURE', [{ code: problem.code, field: 'stripe-signature', message: problem.message }]);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return basketError('WEBHOOK_INVALID_SIGNATURE', [
          { code: 'invalid_json', field: 'body', message: 'The signed body is not JSON; Stripe’s verification parses the event, so this counts as a failed verification' },
        ]);
      }
      const event = stripeEventSchema.safeParse(json);
      return event.success ? event.data : basketError('WEBHOOK_INVALID_PAYLOAD', issuesOf(event.error.issues, ''));
    },
    handle(ctx, _body, endpoint, event) {
      const outcome = normalizeStripeEvent(event);
      if (!outcome.ok) return processingFailed(outcome.issues);
      return recordRevenue(ctx, endpoint, outcome.website, outcome.records) ?? ok({ received: true, type: event.type });
    },
  }),
];
