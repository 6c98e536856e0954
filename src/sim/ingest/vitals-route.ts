import { SPAN_LIMITS, vitalsBatchSchema, vitalsResponseSchema, type IndividualVital } from '../../contract/ingest-spans.js';
import type { RouteContext } from '../routing/route.js';
import { type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { defineSpanIntake, defineSpanRoute, spanBase } from './span-intake.js';
import { VITAL_SPANS, type VitalSpanRecord } from './span-kinds.js';

/** The records of checked measurements, with what the request's User-Agent names. */
function toVitalRecords(ctx: RouteContext<ClientIdQuery>, identity: ClientIdentity, spans: readonly IndividualVital[]): VitalSpanRecord[] {
  const client = parseUserAgent(identity.userAgent);
  return spans.map((span) => ({ ...spanBase(span, client, ctx), metricName: span.metricName, metricValue: span.metricValue }));
}

/** The measurements of `/vitals` (and of one pixel `web_vitals` event, as a list of one): at most 20. */
export const VITALS_INTAKE = defineSpanIntake('web_vitals', VITAL_SPANS, vitalsBatchSchema, SPAN_LIMITS.vitals, toVitalRecords);

/**
 * `POST /vitals` (live `apps/basket/src/routes/basket.ts`): the tracker's web-vitals plugin sends
 * FCP, LCP and TTFB once per page load and CLS, INP and FPS again on each route change, in
 * arrays of at most 20. The measurements join the generated ones in the vitals and performance
 * query types (vitals_overview, vitals_time_series, vitals_by_*, web_vitals_by_*).
 */
export const vitalsRoutes = [
  defineSpanRoute(VITALS_INTAKE, {
    path: '/vitals',
    items: 'measurements',
    answer: vitalsResponseSchema,
    summary:
      'Send up to 20 web-vital measurements (FCP, LCP, CLS, INP, TTFB, FPS) of a website named by ?client_id= or the databuddy-client-id header. Bots get 204 and nothing is stored.',
  }),
];
