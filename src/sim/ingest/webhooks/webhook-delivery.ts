import type { z } from 'zod';
import { basketError, type BasketIssue, type SimError } from '../../errors.js';
import type { RevenueConfig } from '../../model/entities.js';
import type { RouteContext } from '../../routing/route.js';
import type { SimState } from '../../state.js';
import { truncate } from '../../text.js';
import { storedVisitorId } from '../visitor-id.js';
import { REVENUE_RECORDS, type RevenueProvider, type RevenueRecord } from './revenue-records.js';

/**
 * What the two payment webhooks share: finding the endpoint from the URL's hash, the error
 * envelope, resolving the website a payment belongs to, and recording its rows once.
 */

/** The endpoint a delivery reached: its organization's configuration and this provider's secret. */
/** What a provider's event turned into: its revenue rows and the website its metadata names, or why it cannot be recorded. */
export type WebhookOutcome =
  | { readonly ok: true; readonly records: readonly RevenueRecord[]; readonly website: string | null }
  | { readonly ok: false; readonly issues: readonly BasketIssue[] };

export interface WebhookEndpoint {
  readonly config: RevenueConfig;
  readonly secret: string;
}

/**
 * The configuration the `:hash` names, with the provider's secret: 404
 * WEBHOOK_ENDPOINT_NOT_FOUND when no configuration has that hash or it has no secret for this
 * provider (the live `getWebhookConfig`).
 */
export function findWebhookEndpoint(ctx: RouteContext, provider: RevenueProvider): WebhookEndpoint | SimError {
  const config = ctx.state.revenueConfigs.get(ctx.params.hash ?? '');
  const secret = provider === 'stripe' ? config?.stripeWebhookSecret : config?.paddleWebhookSecret;
  if (!config || !secret) return basketError('WEBHOOK_ENDPOINT_NOT_FOUND');
  return { config, secret };
}

/**
 * Every refusal of a webhook in the ingestion service's envelope: the catalogue's own, and the
 * pipeline's (a body over 1 MB, a scenario's fault) with their own code. The webhooks are not
 * part of SPEC.md, so both profiles answer this way.
 */
export function asWebhookEnvelope(error: SimError): SimError {
  return error.basket ? error : { ...error, basket: {} };
}

/** Issues listed in one error body at most. */
const MAX_ISSUES = 20;

/** Zod's issues as the envelope lists them: the code and the path from the event's root, joined with dots. */
export function issuesOf(issues: readonly z.core.$ZodIssue[], base: string): BasketIssue[] {
  return issues.slice(0, MAX_ISSUES).map((issue) => ({
    code: issue.code,
    field: [base, ...issue.path.map(String)].filter((part) => part.length > 0).join('.'),
    message: truncate(issue.message, 300),
  }));
}

/** 500 WEBHOOK_PROCESSING_FAILED naming what the service could not make a revenue row of. */
export function processingFailed(issues: readonly BasketIssue[]): SimError {
  return basketError('WEBHOOK_PROCESSING_FAILED', issues);
}

/** A metadata value the service reads: a non-empty string (an own field, never an inherited one) cut to `max` characters, else null. */
export function metadataString(source: Readonly<Record<string, unknown>> | null | undefined, key: string, max = 255): string | null {
  if (source === null || source === undefined || !Object.hasOwn(source, key)) return null;
  const value = source[key];
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;
}

/**
 * The website a payment's rows go to: the website its metadata names when that website belongs
 * to the configuration's organization (the live `resolveWebsiteId`), else the configuration's
 * website. The simulator keeps revenue per website, so where live would store a row without a
 * website (no configured website, or a deleted one), it takes the organization's first website
 * (in creation order); null only for an organization without websites.
 */
export function resolveRevenueWebsite(state: SimState, config: RevenueConfig, named: string | null): string | null {
  if (named !== null && state.websites.get(named)?.organizationId === config.organizationId) return named;
  if (config.websiteId !== null && state.websites.get(config.websiteId)?.organizationId === config.organizationId) return config.websiteId;
  for (const website of state.websites.values()) if (website.organizationId === config.organizationId) return website.id;
  return null;
}

/**
 * Records a delivery's rows on the website they resolve to, each transaction once: a row whose
 * (organization, provider, transaction id) was recorded before is left out, as the live table
 * (a ReplacingMergeTree on the transaction) keeps one row per transaction. So a replayed event,
 * `invoice.paid` after `invoice.payment_succeeded` for the same invoice, or a `charge.refunded`
 * that lists earlier refunds again add nothing twice. The simulator keeps the first row where
 * live keeps the latest. The anonymous id of the metadata (Stripe's `databuddy_anonymous_id`,
 * Paddle's `anonymous_id`) is kept salted with the day of arrival's salt, as every ingestion route
 * keeps a visitor id ({@link storedVisitorId}), so a payment joins the page views its visitor
 * sent that day. Null when recorded (or nothing was left to record); 500
 * WEBHOOK_PROCESSING_FAILED when the ledger is full (nothing is kept then, and a redelivery is
 * new again).
 */
export function recordRevenue(ctx: RouteContext, endpoint: WebhookEndpoint, named: string | null, records: readonly RevenueRecord[]): SimError | null {
  if (records.length === 0) return null;
  const ledger = ctx.state.ingested;
  const websiteId = resolveRevenueWebsite(ctx.state, endpoint.config, named);
  if (websiteId === null) return null;
  const claimed: string[] = [];
  const fresh: RevenueRecord[] = [];
  for (const record of records) {
    const key = `revenue\u0000${endpoint.config.organizationId}\u0000${record.provider}\u0000${record.transactionId}`;
    if (!ledger.claimEventId(key)) continue;
    claimed.push(key);
    fresh.push(record.anonymousId === null ? record : { ...record, anonymousId: storedVisitorId(ctx.state.world.seed, record.anonymousId, undefined, ctx.now) || null });
  }
  if (fresh.length === 0) return null;
  const appended = ledger.append(REVENUE_RECORDS, websiteId, fresh);
  if (appended.ok) return null;
  for (const key of claimed) ledger.releaseEventId(key);
  const { maxRecords, maxChars } = ledger.limits;
  return processingFailed([
    {
      code: 'storage_full',
      field: '',
      message:
        appended.reason === 'records'
          ? `The simulator keeps at most ${maxRecords} ingested records and holds ${ledger.size}; nothing of this event was kept. Reset it (POST /__sim/reset) or give it a larger eventStorage.maxEvents.`
          : `The simulator keeps at most ${maxChars} characters of ingested records; nothing of this event was kept. Reset it (POST /__sim/reset) or give it a larger eventStorage.maxChars.`,
    },
  ]);
}
