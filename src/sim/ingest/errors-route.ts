import {
  clientIdQuerySchema,
  documentedAs,
  errorsBatchSchema,
  errorSpanSchema,
  errorsResponseSchema,
  SPAN_LIMITS,
  type ErrorSpan,
} from '../../contract/ingest-spans.js';
import type { SimError } from '../errors.js';
import { defineRoute, NO_CONTENT, ok, type RouteContext } from '../routing/route.js';
import { authenticateClientId, clientIdRefusals, sanitizeText, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { asSpanEnvelope, checkSpans, spanBase, spanBodyError, storeSpans, type CheckedSpans, type SpanBatchShape } from './span-intake.js';
import { warnMissingUserAgent } from './bots.js';
import { ERROR_SPANS, type ErrorSpanRecord } from './span-kinds.js';

const STACK_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A stack as kept: control characters but line breaks and tabs removed, trimmed. */
function stackOf(value: string | null | undefined): string {
  return typeof value === 'string' ? value.replace(STACK_CONTROL_CHARACTERS, '').trim().slice(0, SPAN_LIMITS.stack) : '';
}

/** The body: at most 50 spans of the item schema's shape. */
/** The body of `/errors` (and of one pixel `error` event, as a list of one). */
export const ERRORS_BODY: SpanBatchShape<ErrorSpan> = { schema: errorsBatchSchema, max: SPAN_LIMITS.errors, fields: Object.keys(errorSpanSchema.shape) };

/** The records of checked error spans, with what the request's User-Agent names. */
export function toErrorRecords(ctx: RouteContext<ClientIdQuery>, identity: ClientIdentity, spans: readonly ErrorSpan[]): ErrorSpanRecord[] {
  const client = parseUserAgent(identity.userAgent);
  return spans.map((span) => ({
    ...spanBase(span, client, ctx),
    message: sanitizeText(span.message, SPAN_LIMITS.message),
    filename: sanitizeText(span.filename, SPAN_LIMITS.filename),
    lineno: span.lineno ?? null,
    colno: span.colno ?? null,
    stack: stackOf(span.stack),
    errorType: sanitizeText(span.errorType, SPAN_LIMITS.errorType) || 'Error',
  }));
}

/**
 * `POST /errors` (live `apps/basket/src/routes/basket.ts`): the tracker's error plugin sends
 * `window.onerror` and unhandled rejections in arrays of at most 50. A body over 128 KiB is
 * refused before it is parsed and before the sender is authenticated (`maxBodyBytes`). The errors join the generated ones in the errors
 * query types (recent_errors, error_summary, error_types, errors_by_page, error_trends …).
 */
export const errorsRoutes = [
  defineRoute<unknown, ClientIdentity, CheckedSpans<ErrorSpan>, ClientIdQuery>({
    method: 'POST',
    path: '/errors',
    family: 'ingest',
    access: { kind: 'public' },
    summary:
      'Send up to 50 JavaScript errors of a website named by ?client_id= or the databuddy-client-id header, in at most 131,072 bytes. Bots get 204 and nothing is stored.',
    query: clientIdQuerySchema,
    body: documentedAs(errorsBatchSchema),
    // Measured as the service measures it (Content-Length, else the body's bytes), before the body is parsed.
    maxBodyBytes: SPAN_LIMITS.errorsBodyBytes,
    bodyError: spanBodyError,
    shapeRefusal: (error) => asSpanEnvelope(error, 'INGEST_ERRORS_BODY_TOO_LARGE'),
    responses: {
      200: { description: 'The errors were accepted; `count` says how many the body held (repeated delivery ids are dropped silently)', schema: errorsResponseSchema },
      204: { description: 'The user agent is a bot: nothing is stored, empty body' },
      ...clientIdRefusals('a body that is not an array of at most 50 errors (basket.INVALID_EVENT_SCHEMA, `errors` name the fields)', 'The body is over 131,072 bytes (basket.INGEST_ERRORS_BODY_TOO_LARGE), checked before the client id'),
    },
    authorize: (ctx): ClientIdentity | SimError => authenticateClientId(ctx),
    validate: (ctx, body, identity) => checkSpans(ctx, body, ERRORS_BODY, identity),
    handle(ctx, _body, identity, checked) {
      warnMissingUserAgent(ctx, checked.missingUserAgent);
      if (checked.bot) return NO_CONTENT;
      const records = toErrorRecords(ctx, identity, checked.spans);
      return storeSpans(ctx, ERROR_SPANS, identity.website, records) ?? ok({ status: 'success', type: 'error', count: checked.spans.length });
    },
  }),
];
