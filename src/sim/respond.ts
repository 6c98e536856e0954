import { MAX_ERROR_DETAILS } from '../contract/request-limits.js';
import type { SimError } from './errors.js';
import type { SimResponse } from './messages.js';
import type { Reply } from './routing/route.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The SPEC 7.1 error body of a refusal, serialized. `requestId` is left out only where the
 * simulator never saw the request (an adapter's own refusal: an unreadable request line).
 * `details` lists at most `MAX_ERROR_DETAILS` problems; when there were more, `detailsTotal`
 * says how many.
 */
export function errorBodyText(error: SimError, requestId?: string): string {
  if (error.basket) return basketBodyText(error, requestId);
  const body: Record<string, unknown> = { success: false, error: error.message, code: error.code };
  if (requestId !== undefined) body.requestId = requestId;
  if (error.details) {
    body.details = error.details.length > MAX_ERROR_DETAILS ? error.details.slice(0, MAX_ERROR_DETAILS) : error.details;
    if (error.details.length > MAX_ERROR_DETAILS) body.detailsTotal = error.details.length;
  }
  if (error.hint) body.hint = error.hint;
  if (error.extra) Object.assign(body, error.extra);
  return JSON.stringify(body);
}

/**
 * The live ingestion envelope (`apps/basket/src/lib/structured-errors.ts`,
 * `buildBasketErrorPayload`): `retryable` is true for 408, 425, 429 and 5xx; `requestId` is the
 * id the `X-Request-ID` header carries (live-ingestion §1, "Error body").
 */
function basketBodyText(error: SimError, requestId: string | undefined): string {
  const { status } = error;
  const facts = error.basket ?? {};
  const body: Record<string, unknown> = {
    success: false,
    status: 'error',
    error: error.message,
    message: error.message,
    code: error.code,
    retryable: status === 408 || status === 425 || status === 429 || status >= 500,
  };
  if (requestId !== undefined) body.requestId = requestId;
  if (facts.why) body.why = facts.why;
  if (facts.fix) body.fix = facts.fix;
  if (facts.errors) body.errors = facts.errors.slice(0, MAX_ERROR_DETAILS);
  return JSON.stringify(body);
}

/** The SPEC 7.1 error body and headers for a refusal. */
export function errorResponse(error: SimError, requestId: string): SimResponse {
  return {
    status: error.status,
    headers: { 'Content-Type': JSON_TYPE, 'X-Request-ID': requestId, ...error.headers },
    body: errorBodyText(error, requestId),
  };
}

/** The response for a route's reply; `extra` headers (rate-limit state) come before the reply's own. */
export function replyResponse(reply: Reply, requestId: string, extra?: Readonly<Record<string, string>>): SimResponse {
  // No Content (a CORS preflight), or an empty body (a 202, a redirect): no Content-Type.
  const typed = reply.status !== 204 && (reply.text !== '' || reply.contentType !== undefined);
  const headers: Record<string, string> = typed
    ? { 'Content-Type': reply.text !== undefined ? (reply.contentType ?? 'text/plain; charset=utf-8') : JSON_TYPE, 'X-Request-ID': requestId }
    : { 'X-Request-ID': requestId };
  // Assigned, not spread: a later value replaces an earlier one in its place, as a spread would.
  if (extra) for (const name in extra) headers[name] = extra[name] as string;
  if (reply.headers) for (const name in reply.headers) headers[name] = reply.headers[name] as string;
  if (!typed) return { status: reply.status, headers, body: '' };
  const body = reply.text ?? JSON.stringify(reply.body);
  return reply.bytes ? { status: reply.status, headers, body, bytes: reply.bytes } : { status: reply.status, headers, body };
}
