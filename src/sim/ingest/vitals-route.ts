import {
  clientIdQuerySchema,
  documentedAs,
  SPAN_LIMITS,
  vitalsBatchSchema,
  individualVitalSchema,
  vitalsResponseSchema,
  type IndividualVital,
} from '../../contract/ingest-spans.js';
import { defineRoute, NO_CONTENT, ok, type RouteContext } from '../routing/route.js';
import { authenticateClientId, clientIdRefusals, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { asSpanEnvelope, checkSpans, spanBase, spanBodyError, storeSpans, type CheckedSpans, type SpanBatchShape } from './span-intake.js';
import { warnMissingUserAgent } from './bots.js';
import { VITAL_SPANS, type VitalSpanRecord } from './span-kinds.js';

/** The body: at most 20 spans of the item schema's shape. */
/** The body of `/vitals` (and of one pixel `web_vitals` event, as a list of one). */
export const VITALS_BODY: SpanBatchShape<IndividualVital> = { schema: vitalsBatchSchema, max: SPAN_LIMITS.vitals, fields: Object.keys(individualVitalSchema.shape) };

/** The records of checked measurements, with what the request's User-Agent names. */
export function toVitalRecords(ctx: RouteContext<ClientIdQuery>, identity: ClientIdentity, spans: readonly IndividualVital[]): VitalSpanRecord[] {
  const client = parseUserAgent(identity.userAgent);
  return spans.map((span) => ({ ...spanBase(span, client, ctx), metricName: span.metricName, metricValue: span.metricValue }));
}

/**
 * `POST /vitals` (live `apps/basket/src/routes/basket.ts`): the tracker's web-vitals plugin sends
 * FCP, LCP and TTFB once per page load and CLS, INP and FPS again on each route change, in
 * arrays of at most 20. The measurements join the generated ones in the vitals and performance
 * query types (vitals_overview, vitals_time_series, vitals_by_*, web_vitals_by_*).
 */
export const vitalsRoutes = [
  defineRoute<unknown, ClientIdentity, CheckedSpans<IndividualVital>, ClientIdQuery>({
    method: 'POST',
    path: '/vitals',
    family: 'ingest',
    access: { kind: 'public' },
    summary:
      'Send up to 20 web-vital measurements (FCP, LCP, CLS, INP, TTFB, FPS) of a website named by ?client_id= or the databuddy-client-id header. Bots get 204 and nothing is stored.',
    query: clientIdQuerySchema,
    body: documentedAs(vitalsBatchSchema),
    bodyError: spanBodyError,
    shapeRefusal: (error) => asSpanEnvelope(error, 'INGEST_PAYLOAD_TOO_LARGE'),
    responses: {
      200: { description: 'The measurements were accepted; `count` says how many the body held (repeated delivery ids are dropped silently)', schema: vitalsResponseSchema },
      204: { description: 'The user agent is a bot: nothing is stored, empty body' },
      ...clientIdRefusals('a body that is not an array of at most 20 measurements (basket.INVALID_EVENT_SCHEMA, `errors` name the fields)'),
    },
    authorize: (ctx) => authenticateClientId(ctx),
    validate: (ctx, body, identity) => checkSpans(ctx, body, VITALS_BODY, identity),
    handle(ctx, _body, identity, checked) {
      warnMissingUserAgent(ctx, checked.missingUserAgent);
      if (checked.bot) return NO_CONTENT;
      const records = toVitalRecords(ctx, identity, checked.spans);
      return storeSpans(ctx, VITAL_SPANS, identity.website, records) ?? ok({ status: 'success', type: 'web_vitals', count: checked.spans.length });
    },
  }),
];
