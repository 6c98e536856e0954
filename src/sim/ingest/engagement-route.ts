import { engagementBatchSchema, engagementResponseSchema, SPAN_LIMITS, type EngagementSpan } from '../../contract/ingest-spans.js';
import type { RouteContext } from '../routing/route.js';
import { sanitizeText, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { defineSpanIntake, defineSpanRoute, spanBase } from './span-intake.js';
import { ENGAGEMENT_SPANS, type EngagementSpanRecord } from './span-kinds.js';

/** The records of checked engagement spans, with what the request's User-Agent names; `formAbandoned` derived. */
function toEngagementRecords(ctx: RouteContext<ClientIdQuery>, identity: ClientIdentity, spans: readonly EngagementSpan[]): EngagementSpanRecord[] {
  const client = parseUserAgent(identity.userAgent);
  return spans.map((span) => ({
    ...spanBase(span, client, ctx),
    pageIndex: span.pageIndex,
    exitType: span.exitType,
    timeOnPage: span.timeOnPage,
    activeTime: span.activeTime,
    timeToFirstInteraction: span.timeToFirstInteraction,
    maxScrollDepth: span.maxScrollDepth,
    scrollCount: span.scrollCount,
    clickCount: span.clickCount,
    keyCount: span.keyCount,
    interactionCount: span.interactionCount,
    copyCount: span.copyCount,
    rageClickCount: span.rageClickCount,
    deadClickCount: span.deadClickCount,
    rageClickTarget: sanitizeText(span.rageClickTarget, SPAN_LIMITS.target),
    deadClickTarget: sanitizeText(span.deadClickTarget, SPAN_LIMITS.target),
    formFieldCount: span.formFieldCount,
    formSubmitCount: span.formSubmitCount,
    lastFormField: sanitizeText(span.lastFormField, SPAN_LIMITS.target),
    formAbandoned: span.formFieldCount > 0 && span.formSubmitCount === 0,
    errorCount: span.errorCount,
  }));
}

/** The spans of `/engagement`: at most 20. */
const ENGAGEMENT_INTAKE = defineSpanIntake('engagement', ENGAGEMENT_SPANS, engagementBatchSchema, SPAN_LIMITS.engagement, toEngagementRecords);

/**
 * `POST /engagement`: the tracker sends one span per page left (`exitType: "spa"` on a route
 * change, `"unload"` by beacon on pagehide), in arrays of at most 20. The live route's source is
 * not public: its schema is (`engagementSpanSchema`), the rest is inferred from its siblings:
 * client-id authentication, 204 for bots, and `{status, type: "engagement", count}`. The spans
 * join the generated ones in frustration_by_page, form_abandonment_by_page and
 * engagement_quality_by_page; `form_abandoned` is derived here (a field focused, no submit).
 */
export const engagementRoutes = [
  defineSpanRoute(ENGAGEMENT_INTAKE, {
    path: '/engagement',
    items: 'spans',
    answer: engagementResponseSchema,
    note: 'Inferred: the live route’s source is not public',
    summary:
      'Send up to 20 per-page engagement spans (time, scroll, clicks, rage and dead clicks, forms) of a website named by ?client_id= or the databuddy-client-id header. Bots get 204 and nothing is stored. The live route’s answer is inferred.',
  }),
];
