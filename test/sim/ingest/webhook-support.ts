import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import type { Simulator } from '../../../src/index.js';
import type { FixtureRevenueConfig } from '../../../src/contract/fixtures.js';
import { call, secretOf, type Answer } from '../../helpers/sim.js';

/** Stripe's client, used only for its webhook helpers (no request leaves the process). */
export const stripe = new Stripe('sk_test_analytics_sim');

/** The webhook configuration of an organization, as GET /__sim/fixtures lists it. */
export function revenueConfigOf(sim: Simulator, organizationId: string): FixtureRevenueConfig {
  const config = sim.fixtures().revenueConfigs.find((c) => c.organizationId === organizationId);
  if (!config) throw new Error(`no revenue configuration for ${organizationId}`);
  return config;
}

/** The simulator's clock in Unix seconds: what a provider signs with when it sends now. */
export function unixNow(sim: Simulator): number {
  return Math.floor(sim.clock.now() / 1000);
}

export interface SignOptions {
  /** Another secret than the endpoint's (a wrong one). */
  readonly secret?: string;
  /** Unix seconds of the signature (default: the simulator's now). */
  readonly timestamp?: number;
}

/** POST a Stripe event to an endpoint path, signed with Stripe's own test helper over the exact body. */
export function postStripe(sim: Simulator, path: string, secret: string, event: unknown, options: SignOptions = {}): Promise<Answer> {
  const payload = typeof event === 'string' ? event : JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? secret, timestamp: options.timestamp ?? unixNow(sim) });
  return call(sim, 'POST', path, { body: payload, headers: { 'stripe-signature': header } });
}

/** The `paddle-signature` header of a body, as Paddle documents it: `ts=<unix>;h1=<hex HMAC-SHA256 of "ts:body">`. */
export function paddleSignature(body: string, secret: string, timestamp: number): string {
  const h1 = createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex');
  return `ts=${timestamp};h1=${h1}`;
}

/** POST a Paddle notification to an endpoint path, signed over the exact body. */
export function postPaddle(sim: Simulator, path: string, secret: string, event: unknown, options: SignOptions = {}): Promise<Answer> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  const header = paddleSignature(body, options.secret ?? secret, options.timestamp ?? unixNow(sim));
  return call(sim, 'POST', path, { body, headers: { 'paddle-signature': header } });
}

/** A Stripe event of `type` about `object` (the fields Stripe always sends around it). */
export function stripeEvent(id: string, type: string, object: Record<string, unknown>, created: number): Record<string, unknown> {
  return { id, object: 'event', api_version: '2025-05-28.basil', created, livemode: false, pending_webhooks: 1, type, data: { object } };
}

/** A succeeded PaymentIntent of `amount` minor units. */
export function paymentIntent(id: string, amount: number, currency: string, created: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, object: 'payment_intent', amount, amount_received: amount, currency, created, status: 'succeeded', customer: 'cus_SimTest0001', description: 'Heavyweight Hoodie', metadata: {}, ...fields };
}

/** A completed Paddle transaction of `total` minor units, with a monthly line item when `subscription`. */
export function paddleTransaction(id: string, total: string, currency: string, billedAt: string, subscription = false): Record<string, unknown> {
  return {
    id,
    status: 'completed',
    customer_id: 'ctm_01hv8x2hbb6z8n9vh2x5q3kq7f',
    currency_code: currency,
    origin: 'web',
    created_at: billedAt,
    updated_at: billedAt,
    billed_at: billedAt,
    custom_data: null,
    collection_mode: 'automatic',
    items: [],
    payments: [],
    details: {
      tax_rates_used: [],
      totals: { subtotal: total, tax: '0', discount: '0', total, grand_total: total, fee: null, earnings: null, currency_code: currency },
      line_items: [
        {
          id: 'txnitm_01hv8x2hbb6z8n9vh2x5q3kq7g',
          price_id: 'pri_01hv8x2hbb6z8n9vh2x5q3kq7h',
          quantity: 1,
          product: { id: 'pro_01hv8x2hbb6z8n9vh2x5q3kq7j', name: 'Team plan' },
          price: { id: 'pri_01hv8x2hbb6z8n9vh2x5q3kq7h', billing_cycle: subscription ? { interval: 'month', frequency: 1 } : null },
        },
      ],
    },
  };
}

/** A Paddle notification of `type` about `data`. */
export function paddleEvent(eventId: string, type: string, data: Record<string, unknown>, occurredAt: string): Record<string, unknown> {
  return { event_id: eventId, event_type: type, occurred_at: occurredAt, notification_id: `ntf_${eventId.slice(4)}`, data };
}

/** The simulator's day, `YYYY-MM-DD`. */
export function today(sim: Simulator): string {
  return new Date(sim.clock.now()).toISOString().slice(0, 10);
}

/** Rows of revenue query types for one website on the simulator's day (key_acme_read or another key). */
export async function revenueRows(
  sim: Simulator,
  types: readonly string[],
  target: Record<string, string> = { website_id: 'web_acme_store' },
  body: Record<string, unknown> = {},
  keyId = 'key_acme_read',
): Promise<Record<string, Record<string, unknown>[]>> {
  const day = today(sim);
  const answer = await call(sim, 'POST', '/v1/query', {
    key: secretOf(sim, keyId),
    query: target,
    body: { parameters: types, startDate: day, endDate: day, limit: 1000, ...body },
  });
  if (answer.status !== 200) throw new Error(`query answered ${answer.status}: ${answer.text}`);
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const result of answer.json.data as { parameter: string; success: boolean; data: Record<string, unknown>[] }[]) {
    if (!result.success) throw new Error(`${result.parameter} failed`);
    out[result.parameter] = result.data;
  }
  return out;
}

/** Money in whole cents, so sums compare exactly. */
export const cents = (value: unknown): number => Math.round((value as number) * 100);

/** The row of a currency. */
export function rowOfCurrency(rows: readonly Record<string, unknown>[] | undefined, currency: string): Record<string, unknown> | undefined {
  return rows?.find((r) => r.currency === currency);
}

/** Sum of a money field in cents over the rows of one currency (0 when none). */
export function centsIn(rows: readonly Record<string, unknown>[] | undefined, field: string, currency: string, where: (row: Record<string, unknown>) => boolean = () => true): number {
  let total = 0;
  for (const row of rows ?? []) if (row.currency === currency && where(row)) total += cents(row[field] ?? 0);
  return total;
}
