import { truncate } from './text.js';
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../contract/errors.js';

/**
 * A refusal as a value: what went wrong, never a thrown exception. The pipeline turns it into
 * the SPEC 7.1 body with the request id; `extra` fields join the body (the 429 numbers).
 */
export interface SimError {
  readonly status: number;
  /** One of {@link ErrorCode}, or a code a scenario's `error` effect chose. */
  readonly code: string;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
  readonly hint?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly extra?: Readonly<Record<string, number>>;
}

/** Ends a request by dropping the connection without an answer (a scenario's `reset`). */
export interface Drop {
  readonly drop: true;
}

function simError(code: ErrorCode, message: string, more: Partial<SimError> = {}): SimError {
  return { status: ERROR_STATUS[code], code, message, ...more };
}

/** What a caller may change of a factory's default words. */
export interface Wording {
  readonly message?: string;
  readonly hint?: string;
}

function worded(defaults: { message: string; hint?: string }, wording: Wording): { message: string; hint?: string } {
  const hint = wording.hint ?? defaults.hint;
  return hint === undefined ? { message: wording.message ?? defaults.message } : { message: wording.message ?? defaults.message, hint };
}

/** The challenge sent with every 401. */
export const AUTH_CHALLENGE = 'Bearer realm="analytics-sim", charset="UTF-8"';

/** 401 AUTH_REQUIRED: no credential was accepted. `hint` says why (missing, malformed, unknown, expired…). */
export function authRequired(hint: string, wording: Wording = {}): SimError {
  const { message } = worded({ message: 'Authentication required' }, wording);
  return simError('AUTH_REQUIRED', message, { hint, headers: { 'WWW-Authenticate': AUTH_CHALLENGE } });
}

/** The resources an ACCESS_DENIED names. */
export type DeniedResource = 'website' | 'link' | 'monitor' | 'organization' | 'status page' | 'feature flag';

/** 403 ACCESS_DENIED: authenticated, but the resource is outside what the credential reaches. */
export function accessDenied(resource: DeniedResource, wording: Wording = {}): SimError {
  const { message, hint } = worded({ message: `Access denied to this ${resource}` }, wording);
  return simError('ACCESS_DENIED', message, hint === undefined ? {} : { hint });
}

/**
 * 403 FORBIDDEN: authenticated, but the credential lacks `requiredScope`; or (scope null, with
 * wording) a request the simulator will not serve, such as a foreign page calling the control plane.
 */
export function forbidden(requiredScope: string | null, wording: Wording = {}): SimError {
  const defaults = requiredScope === null
    ? { message: 'Forbidden' }
    : { message: 'Insufficient permissions', hint: `This operation needs the ${requiredScope} scope.` };
  const { message, hint } = worded(defaults, wording);
  return simError('FORBIDDEN', message, hint === undefined ? {} : { hint });
}

/** 400: the request is well-formed but its values are wrong. The first problem is the message. */
export function validationError(details: readonly ErrorDetail[]): SimError {
  const first = details[0];
  const message = first
    ? first.suggestion
      ? `${first.message}. ${first.suggestion}`
      : first.message
    : 'Invalid request';
  return simError('VALIDATION_ERROR', message, { details });
}

/** 422: the body does not have the schema's shape (wrong types, unknown enum values). */
export function schemaValidation(details: readonly ErrorDetail[]): SimError {
  return simError('VALIDATION', 'Some of the details are invalid. Check them and try again.', {
    details: details.slice(0, 20),
  });
}

/** 400: the body is not valid JSON. */
export function parseError(): SimError {
  return simError(
    'PARSE',
    'The request could not be read. Check that it is valid JSON and try again.',
  );
}

/** 413: the body is over the size limit. */
export function payloadTooLarge(limitBytes: number): SimError {
  return simError('PAYLOAD_TOO_LARGE', 'Payload too large', {
    hint: `Bodies are limited to ${limitBytes} bytes.`,
  });
}

/** 415: a body was sent with a content type other than JSON. */
export function unsupportedMediaType(contentType: string): SimError {
  return simError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type', {
    hint: `Send Content-Type: application/json (got ${truncate(contentType, 100)}).`,
  });
}

/**
 * 404 NOT_FOUND: no route has this path, or the route exists and the named `kind` (`Website`,
 * `Scenario`, …) with `id` does not. Untrusted text is shortened before it is echoed.
 */
export function notFound(what: { route: { method: string; path: string } } | { kind: string; id: string }, wording: Wording = {}): SimError {
  const defaults =
    'route' in what
      ? { message: 'Route not found', hint: `No route matches ${truncate(what.route.method, 16)} ${truncate(what.route.path, 200)}.` }
      : { message: `${what.kind} not found`, hint: `No ${what.kind.toLowerCase()} has id ${truncate(what.id, 100)}.` };
  const { message, hint } = worded(defaults, wording);
  return simError('NOT_FOUND', message, hint === undefined ? {} : { hint });
}

/** 405: the path exists with other methods. */
export function methodNotAllowed(allowed: readonly string[]): SimError {
  return simError('METHOD_NOT_ALLOWED', 'Method not allowed', {
    headers: { Allow: allowed.join(', ') },
  });
}

/** 400: a query named no resource and the credential supplies no organization. */
export function missingProjectId(): SimError {
  return simError(
    'MISSING_PROJECT_ID',
    'Missing resource identifier (website_id, schedule_id, link_id, or organization_id)',
  );
}

/**
 * 402: a named type needs a feature the plan of the website's organization lacks; the whole
 * request fails, batch included, as the service answers it.
 */
export function featureUnavailable(feature: string, types: readonly string[], plan: string): SimError {
  return simError('FEATURE_UNAVAILABLE', 'This feature is not available on the plan', {
    hint: `${types.slice(0, 5).join(', ')} need${types.length === 1 ? 's' : ''} ${feature}, which the ${plan} plan lacks; use a website of an organization on the hobby plan or above`,
  });
}

/** 400: `/v1/query/compile` could not build the query. */
export function compilationError(message: string): SimError {
  return simError('COMPILATION_ERROR', message);
}

/** What a window said when it refused: for the SPEC 8.4 body and headers. */
export interface RefusedWindow {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch ms when the next slot frees. */
  readonly reset: number;
  /** Seconds to wait. */
  readonly retryAfter: number;
}

/**
 * 429 RATE_LIMITED with the SPEC 8.4 body (`limit`, `remaining`, `reset` in ms, `retryAfter` in s)
 * and headers (`Retry-After`, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`).
 * `message` names the rule: "Rate limit exceeded", "API key rate limit exceeded", "Too many
 * concurrent API key requests".
 */
export function rateLimited(message: string, window: RefusedWindow): SimError {
  return simError('RATE_LIMITED', message, {
    headers: {
      'Retry-After': String(window.retryAfter),
      'X-RateLimit-Limit': String(window.limit),
      'X-RateLimit-Remaining': String(window.remaining),
      'X-RateLimit-Reset': String(window.reset),
    },
    extra: { limit: window.limit, remaining: window.remaining, reset: window.reset, retryAfter: window.retryAfter },
  });
}

/** 503: the admission store failed; the client should come back in 5 s. Leaks no cause. */
export function serviceUnavailable(): SimError {
  return simError('SERVICE_UNAVAILABLE', 'This service is temporarily unavailable. Try again in a moment.', {
    headers: { 'Retry-After': '5' },
  });
}

/** 409: the request conflicts with the current state (a scenario that is already running). */
export function conflict(message: string, hint?: string): SimError {
  return simError('CONFLICT', message, hint ? { hint } : {});
}

/** An error a scenario injects: any status and code, with the SPEC 7.1 body. */
export function injectedError(status: number, code: string, message: string, retryAfterSeconds?: number): SimError {
  return { status, code, message, ...(retryAfterSeconds !== undefined ? { headers: { 'Retry-After': String(retryAfterSeconds) } } : {}) };
}

/** 400 INVALID_EVENT_SCHEMA (ingestion): events that do not have the accepted shape; `details` name each field. */
export function invalidEventSchema(details: readonly ErrorDetail[]): SimError {
  return simError('INVALID_EVENT_SCHEMA', 'Invalid event schema', {
    details: details.slice(0, 20),
    hint: 'Each event needs a name (1 to 256 characters); see the details for the fields to fix.',
  });
}

/** 503 EVENT_STORAGE_FULL (ingestion): the simulator's event storage is full; nothing of the request was stored. */
export function eventStorageFull(hint: string): SimError {
  return simError('EVENT_STORAGE_FULL', 'Event storage is full', { hint });
}

/** 400 BAD_REQUEST: the HTTP server could not read the request line or headers. */
export function unreadableRequest(): SimError {
  return simError('BAD_REQUEST', 'The request could not be read');
}

/** 431 HEADERS_TOO_LARGE: the request's headers are larger than the HTTP server reads. */
export function headersTooLarge(): SimError {
  return simError('HEADERS_TOO_LARGE', 'Request headers are too large');
}

/** 500: a bug in the simulator. The body never carries the cause or a stack. */
export function internalError(): SimError {
  return simError('INTERNAL_SERVER_ERROR', 'Something went wrong on our side. Try again in a moment.');
}
