import { defineIngestKind, type IngestRecord } from './ingest-ledger.js';

/**
 * The records `POST /vitals`, `/errors` and `/engagement` keep in the ingest ledger, and their
 * kinds. Declared here rather than in the route files because the query families read them too
 * (errors, vitals, performance, engagement), and a query module importing a route file would
 * tie the query registry to the routing code.
 *
 * A record keeps what the live span tables keep (`web_vitals_spans`, `error_spans`,
 * `engagement_spans`), sanitized, plus the browser, OS and device its request's User-Agent names:
 * the live builders take those from the session's page views, which a span's own request stands
 * in for here. Country, region and city are unknown (the simulator has no IP geolocation).
 */

/** What every span record holds besides its own fields. */
export interface SpanRecord extends IngestRecord {
  /** When it happened, epoch ms (the arrival instant when the span had no timestamp). */
  readonly timestamp: number;
  /** The page: a URL's pathname, or the path as sent. */
  readonly path: string;
  /** The visitor id as sent ('' when none): the simulator keeps it raw, it does not salt it. */
  readonly anonymousId: string;
  /** The session id, '' when none or not made of `[A-Za-z0-9_-]` (as the service keeps it). */
  readonly sessionId: string;
  /** The sender's delivery id ('' when none). */
  readonly eventId: string;
  /** From the request's User-Agent ('' when it names none). */
  readonly browserName: string;
  readonly browserVersion: string;
  readonly osName: string;
  readonly osVersion: string;
  /** `desktop`, `mobile` or `tablet` ('' without a User-Agent). */
  readonly deviceType: string;
}

/** One web-vital measurement (`web_vitals_spans`). */
export interface VitalSpanRecord extends SpanRecord {
  /** FCP, LCP, CLS, INP, TTFB or FPS. */
  readonly metricName: string;
  readonly metricValue: number;
}

/** One JavaScript error (`error_spans`). */
export interface ErrorSpanRecord extends SpanRecord {
  readonly message: string;
  /** The script URL ('' when none). */
  readonly filename: string;
  /** Null when the span had none. */
  readonly lineno: number | null;
  readonly colno: number | null;
  /** '' when none. */
  readonly stack: string;
  /** The error class; `Error` when the span named none, as the service stores it. */
  readonly errorType: string;
}

/** One page's engagement (`engagement_spans`); the counters are the span's. */
export interface EngagementSpanRecord extends SpanRecord {
  readonly pageIndex: number;
  readonly exitType: string;
  /** Seconds. */
  readonly timeOnPage: number;
  /** Seconds the tab was visible and focused. */
  readonly activeTime: number;
  /** Milliseconds; 0 when there was no interaction. */
  readonly timeToFirstInteraction: number;
  readonly maxScrollDepth: number;
  readonly scrollCount: number;
  readonly clickCount: number;
  readonly keyCount: number;
  readonly interactionCount: number;
  readonly copyCount: number;
  readonly rageClickCount: number;
  readonly deadClickCount: number;
  readonly rageClickTarget: string;
  readonly deadClickTarget: string;
  readonly formFieldCount: number;
  readonly formSubmitCount: number;
  readonly lastFormField: string;
  /** Derived on ingestion: a form field was focused and no form submitted. */
  readonly formAbandoned: boolean;
  readonly errorCount: number;
}

/** Characters of text every span record holds. */
function spanChars(record: SpanRecord): number {
  return (
    record.path.length +
    record.anonymousId.length +
    record.sessionId.length +
    record.eventId.length +
    record.browserName.length +
    record.browserVersion.length +
    record.osName.length +
    record.osVersion.length +
    record.deviceType.length
  );
}

/** Web vitals posted to `POST /vitals`. */
export const VITAL_SPANS = defineIngestKind<VitalSpanRecord>('vital', (r) => spanChars(r) + r.metricName.length);

/** Errors posted to `POST /errors`. */
export const ERROR_SPANS = defineIngestKind<ErrorSpanRecord>(
  'error',
  (r) => spanChars(r) + r.message.length + r.filename.length + r.stack.length + r.errorType.length,
);

/** Engagement spans posted to `POST /engagement`. */
export const ENGAGEMENT_SPANS = defineIngestKind<EngagementSpanRecord>(
  'engagement',
  (r) => spanChars(r) + r.exitType.length + r.rageClickTarget.length + r.deadClickTarget.length + r.lastFormField.length,
);
