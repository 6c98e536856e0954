import { errorsBatchSchema, errorsResponseSchema, SPAN_LIMITS, type ErrorSpan } from '../../contract/ingest-spans.js';
import type { RouteContext } from '../routing/route.js';
import { sanitizeText, type ClientIdentity, type ClientIdQuery } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { defineSpanIntake, defineSpanRoute, spanBase } from './span-intake.js';
import { ERROR_SPANS, type ErrorSpanRecord } from './span-kinds.js';

const STACK_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A stack as kept: control characters but line breaks and tabs removed, trimmed. */
function stackOf(value: string | null | undefined): string {
  return typeof value === 'string' ? value.replace(STACK_CONTROL_CHARACTERS, '').trim().slice(0, SPAN_LIMITS.stack) : '';
}

/** The records of checked error spans, with what the request's User-Agent names. */
function toErrorRecords(ctx: RouteContext<ClientIdQuery>, identity: ClientIdentity, spans: readonly ErrorSpan[]): ErrorSpanRecord[] {
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

/** The errors of `/errors` (and of one pixel `error` event, as a list of one): at most 50. */
export const ERRORS_INTAKE = defineSpanIntake('error', ERROR_SPANS, errorsBatchSchema, SPAN_LIMITS.errors, toErrorRecords);

/**
 * `POST /errors` (live `apps/basket/src/routes/basket.ts`): the tracker's error plugin sends
 * `window.onerror` and unhandled rejections in arrays of at most 50. A body over 128 KiB is
 * refused before it is parsed and before the sender is authenticated (`maxBodyBytes`). The errors join the generated ones in the errors
 * query types (recent_errors, error_summary, error_types, errors_by_page, error_trends …).
 */
export const errorsRoutes = [
  defineSpanRoute(ERRORS_INTAKE, {
    path: '/errors',
    items: 'errors',
    answer: errorsResponseSchema,
    maxBodyBytes: SPAN_LIMITS.errorsBodyBytes,
    tooLarge: 'INGEST_ERRORS_BODY_TOO_LARGE',
    summary:
      'Send up to 50 JavaScript errors of a website named by ?client_id= or the databuddy-client-id header, in at most 131,072 bytes. Bots get 204 and nothing is stored.',
  }),
];
