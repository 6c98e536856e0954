import { basketErrorBodySchema } from '../../../contract/errors.js';
import { paddleEventSchema, webhookReceivedSchema, type PaddleEvent } from '../../../contract/webhooks.js';
import { basketError } from '../../errors.js';
import { defineRoute, ok } from '../../routing/route.js';
import { normalizePaddleEvent } from './paddle-events.js';
import {
  asWebhookEnvelope,
  findWebhookEndpoint,
  issuesOf,
  processingFailed,
  recordRevenue,
  type WebhookEndpoint,
} from './webhook-delivery.js';
import { verifyPaddleSignature } from './webhook-signature.js';

/**
 * `POST /webhooks/paddle/:hash` (live-ingestion §4.2): Paddle's notifications for the
 * organization whose revenue configuration has this hash. In the live order: 404 for an
 * unknown hash or no Paddle secret, 400 without `paddle-signature`, 401 for a signature that
 * does not verify over the raw body (or a timestamp over 300 s from the simulator's clock),
 * 400 for a signed body that is not JSON (or not an event), then the event's row (500 when a
 * `transaction.completed` lacks what a row needs) and 200 `{received: true, type}`.
 */
export const paddleWebhookRoutes = [
  defineRoute<string, WebhookEndpoint, PaddleEvent>({
    method: 'POST',
    path: '/webhooks/paddle/:hash',
    family: 'ingest',
    access: { kind: 'public' },
    summary:
      "Paddle's webhook for the organization with this revenue-configuration hash (GET /__sim/fixtures lists it with its secret key): verifies paddle-signature over the raw body (HMAC-SHA256, 300 s on the simulator's clock) and records transaction.completed as revenue (revenue_* query types).",
    rawBody: {
      schema: paddleEventSchema,
      description: 'The notification exactly as Paddle sent it: the signature covers these bytes.',
    },
    shapeRefusal: asWebhookEnvelope,
    responses: {
      200: { description: 'Accepted: a transaction.completed is recorded (once per transaction); other events are acknowledged only', schema: webhookReceivedSchema },
      400: { description: 'No paddle-signature header (basket.WEBHOOK_MISSING_SIGNATURE), or a signed body that is not JSON or not an event with an event_type (basket.WEBHOOK_INVALID_PAYLOAD)', schema: basketErrorBodySchema },
      401: { description: 'The signature does not verify with the endpoint secret key, or its timestamp is over 300 s from the simulator clock (basket.WEBHOOK_INVALID_SIGNATURE; `errors` says which)', schema: basketErrorBodySchema },
      404: { description: 'No revenue configuration has this hash, or it has no Paddle secret (basket.WEBHOOK_ENDPOINT_NOT_FOUND)', schema: basketErrorBodySchema },
      413: { description: 'The body is over 1 MB (PAYLOAD_TOO_LARGE)', schema: basketErrorBodySchema },
      500: { description: 'A transaction.completed that lacks what a revenue row needs, or the simulator’s ledger is full (basket.WEBHOOK_PROCESSING_FAILED; `errors` names the fields)', schema: basketErrorBodySchema },
    },
    authorize(ctx) {
      return findWebhookEndpoint(ctx, 'paddle');
    },
    validate(ctx, body, endpoint) {
      const header = ctx.request.headers['paddle-signature'];
      if (!header) return basketError('WEBHOOK_MISSING_SIGNATURE');
      const problem = verifyPaddleSignature(body, header, endpoint.secret, ctx.now);
      if (problem) return basketError('WEBHOOK_INVALID_SIGNATURE', [{ code: problem.code, field: 'paddle-signature', message: problem.message }]);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return basketError('WEBHOOK_INVALID_PAYLOAD', [{ code: 'invalid_json', field: 'body', message: 'The signed body is not JSON' }]);
      }
      const event = paddleEventSchema.safeParse(json);
      return event.success ? event.data : basketError('WEBHOOK_INVALID_PAYLOAD', issuesOf(event.error.issues, ''));
    },
    handle(ctx, _body, endpoint, event) {
      const outcome = normalizePaddleEvent(event);
      if (!outcome.ok) return processingFailed(outcome.issues);
      return recordRevenue(ctx, endpoint, outcome.website, outcome.records) ?? ok({ received: true, type: event.event_type });
    },
  }),
];
