import type { z } from 'zod';
import { webhookReceivedSchema } from '../../../contract/webhooks.js';
import { basketError, type BasketErrorKey } from '../../errors.js';
import { ok, type Route } from '../../routing/route.js';
import { defineIngestRoute } from '../ingest-route.js';
import { asWebhookEnvelope, findWebhookEndpoint, issuesOf, processingFailed, recordRevenue, type WebhookEndpoint, type WebhookOutcome } from './webhook-delivery.js';
import { verifySignature, type SignatureScheme } from './webhook-signature.js';
import { basketRefusal } from '../basket-envelope.js';

/** What differs between two payment providers' webhook routes; the steps are the same. */
export interface WebhookProvider<E> {
  readonly provider: 'stripe' | 'paddle';
  readonly summary: string;
  /** The signature header and what it signs. */
  readonly signature: SignatureScheme;
  /** The refusal of a signed body that is not JSON (Stripe's verification parses it: 401; Paddle: 400). */
  readonly notJson: { readonly key: BasketErrorKey; readonly message: string };
  readonly schema: z.ZodType<E>;
  readonly bodyDescription: string;
  readonly normalize: (event: E) => WebhookOutcome;
  readonly typeOf: (event: E) => string;
  /** The documented answers that say what this provider's events do. */
  readonly answers: { readonly 200: string; readonly 400: string; readonly 401: string; readonly 500: string };
}

/**
 * `POST /webhooks/<provider>/:hash` (live-ingestion §4): the deliveries for the organization
 * whose revenue configuration has this hash, in the live order: 404 for an unknown hash or no
 * secret for the provider, 400 without the signature header, 401 for a signature that does not
 * verify over the raw body (or a timestamp over 300 s from the simulator's clock), the
 * provider's refusal of a signed body that is not JSON, 400 for JSON that is not an event, then
 * the event's rows (500 when a handled event lacks what a row needs) and 200
 * `{received: true, type}`, recorded or not.
 */
export function defineWebhookRoute<E>(spec: WebhookProvider<E>): Route {
  const name = spec.provider === 'stripe' ? 'Stripe' : 'Paddle';
  return defineIngestRoute<string, WebhookEndpoint, E>({
    method: 'POST',
    path: `/webhooks/${spec.provider}/:hash`,
    summary: spec.summary,
    rawBody: { schema: spec.schema, description: spec.bodyDescription },
    shapeRefusal: asWebhookEnvelope,
    responses: {
      200: { description: spec.answers[200], schema: webhookReceivedSchema },
      400: basketRefusal(spec.answers[400]),
      401: basketRefusal(spec.answers[401]),
      404: basketRefusal(`No revenue configuration has this hash, or it has no ${name} secret (basket.WEBHOOK_ENDPOINT_NOT_FOUND)`),
      413: basketRefusal('The body is over 1 MB (PAYLOAD_TOO_LARGE)'),
      500: basketRefusal(spec.answers[500]),
    },
    authorize: (ctx) => findWebhookEndpoint(ctx, spec.provider),
    validate(ctx, body, endpoint) {
      const header = ctx.request.headers[spec.signature.header];
      if (!header) return basketError('WEBHOOK_MISSING_SIGNATURE');
      const problem = verifySignature(spec.signature, body, header, endpoint.secret, ctx.now);
      if (problem) return basketError('WEBHOOK_INVALID_SIGNATURE', [{ code: problem.code, field: spec.signature.header, message: problem.message }]);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        return basketError(spec.notJson.key, [{ code: 'invalid_json', field: 'body', message: spec.notJson.message }]);
      }
      const event = spec.schema.safeParse(json);
      return event.success ? event.data : basketError('WEBHOOK_INVALID_PAYLOAD', issuesOf(event.error.issues, ''));
    },
    handle(ctx, _body, endpoint, event) {
      const outcome = spec.normalize(event);
      if (!outcome.ok) return processingFailed(outcome.issues);
      return recordRevenue(ctx, endpoint, outcome.website, outcome.records) ?? ok({ received: true, type: spec.typeOf(event) });
    },
  });
}
