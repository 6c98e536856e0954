import {
  clientIdQuerySchema,
  documentedAs,
  engagementBatchSchema,
  engagementSpanSchema,
  engagementResponseSchema,
  SPAN_LIMITS,
  type EngagementSpan,
} from '../../contract/ingest-spans.js';
import { defineRoute, NO_CONTENT, ok } from '../routing/route.js';
import { authenticateClientId, clientIdRefusals, sanitizeText, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { asSpanEnvelope, checkSpans, spanBase, spanBodyError, storeSpans, type CheckedSpans, type SpanBatchShape } from './span-intake.js';
import { warnMissingUserAgent } from './bots.js';
import { ENGAGEMENT_SPANS, type EngagementSpanRecord } from './span-kinds.js';

/** The body: at most 20 spans of the item schema's shape. */
const BODY: SpanBatchShape<EngagementSpan> = { schema: engagementBatchSchema, max: SPAN_LIMITS.engagement, fields: Object.keys(engagementSpanSchema.shape) };

/**
 * `POST /engagement`: the tracker sends one span per page left (`exitType: "spa"` on a route
 * change, `"unload"` by beacon on pagehide), in arrays of at most 20. The live route's source is
 * not public: its schema is (`engagementSpanSchema`), the rest is inferred from its siblings:
 * client-id authentication, 204 for bots, and `{status, type: "engagement", count}`. The spans
 * join the generated ones in frustration_by_page, form_abandonment_by_page and
 * engagement_quality_by_page; `form_abandoned` is derived here (a field focused, no submit).
 */
export const engagementRoutes = [
  defineRoute<unknown, ClientIdentity, CheckedSpans<EngagementSpan>, ClientIdQuery>({
    method: 'POST',
    path: '/engagement',
    family: 'ingest',
    access: { kind: 'public' },
    summary:
      'Send up to 20 per-page engagement spans (time, scroll, clicks, rage and dead clicks, forms) of a website named by ?client_id= or the databuddy-client-id header. Bots get 204 and nothing is stored. The live route’s answer is inferred.',
    query: clientIdQuerySchema,
    body: documentedAs(engagementBatchSchema),
    bodyError: spanBodyError,
    shapeRefusal: (error) => asSpanEnvelope(error, 'INGEST_PAYLOAD_TOO_LARGE'),
    responses: {
      200: {
        description: 'The spans were accepted; `count` says how many the body held (repeated delivery ids are dropped silently). Inferred: the live route’s source is not public',
        schema: engagementResponseSchema,
      },
      204: { description: 'The user agent is a bot: nothing is stored, empty body' },
      ...clientIdRefusals('a body that is not an array of at most 20 spans (basket.INVALID_EVENT_SCHEMA, `errors` name the fields)'),
    },
    authorize: (ctx) => authenticateClientId(ctx),
    validate: (ctx, body, identity) => checkSpans(ctx, body, BODY, identity),
    handle(ctx, _body, identity, checked) {
      warnMissingUserAgent(ctx, checked.missingUserAgent);
      if (checked.bot) return NO_CONTENT;
      const client = parseUserAgent(identity.userAgent);
      const records: EngagementSpanRecord[] = checked.spans.map((span) => ({
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
      return storeSpans(ctx, ENGAGEMENT_SPANS, identity.website, records) ?? ok({ status: 'success', type: 'engagement', count: checked.spans.length });
    },
  }),
];
