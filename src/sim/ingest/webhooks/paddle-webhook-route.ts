import { paddleEventSchema, type PaddleEvent } from '../../../contract/webhooks.js';
import { normalizePaddleEvent } from './paddle-events.js';
import { PADDLE_SIGNATURE } from './webhook-signature.js';
import { defineWebhookRoute } from './webhook-route.js';

/**
 * `POST /webhooks/paddle/:hash` (live-ingestion §4.2): Paddle's notifications for the
 * organization whose revenue configuration has this hash. In the live order: 404 for an
 * unknown hash or no Paddle secret, 400 without `paddle-signature`, 401 for a signature that
 * does not verify over the raw body (or a timestamp over 300 s from the simulator's clock),
 * 400 for a signed body that is not JSON (or not an event), then the event's row (500 when a
 * `transaction.completed` lacks what a row needs) and 200 `{received: true, type}`.
 */
export const paddleWebhookRoutes = [
  defineWebhookRoute<PaddleEvent>({
    provider: 'paddle',
    summary:
      "Paddle's webhook for the organization with this revenue-configuration hash (GET /__sim/fixtures lists it with its secret key): verifies paddle-signature over the raw body (HMAC-SHA256, 300 s on the simulator's clock) and records transaction.completed as revenue (revenue_* query types).",
    signature: PADDLE_SIGNATURE,
    notJson: { key: 'WEBHOOK_INVALID_PAYLOAD', message: 'The signed body is not JSON' },
    schema: paddleEventSchema,
    bodyDescription: 'The notification exactly as Paddle sent it: the signature covers these bytes.',
    normalize: normalizePaddleEvent,
    typeOf: (event) => event.event_type,
    answers: {
      200: 'Accepted: a transaction.completed is recorded (once per transaction); other events are acknowledged only',
      400: 'No paddle-signature header (basket.WEBHOOK_MISSING_SIGNATURE), or a signed body that is not JSON or not an event with an event_type (basket.WEBHOOK_INVALID_PAYLOAD)',
      401: 'The signature does not verify with the endpoint secret key, or its timestamp is over 300 s from the simulator clock (basket.WEBHOOK_INVALID_SIGNATURE; `errors` says which)',
      500: 'A transaction.completed that lacks what a revenue row needs, or the simulator’s ledger is full (basket.WEBHOOK_PROCESSING_FAILED; `errors` names the fields)',
    },
  }),
];
