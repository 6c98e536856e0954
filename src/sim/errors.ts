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
  /** Every problem found; the body lists the first `MAX_ERROR_DETAILS` and says how many there were. */
  readonly details?: readonly ErrorDetail[];
  readonly hint?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly extra?: Readonly<Record<string, number>>;
  /**
   * Set when the refusal is written in the live ingestion service's envelope (`track-errors`
   * under `live`): `{success, status: 'error', error, message, code, retryable, why?, fix?,
   * errors?}` instead of the SPEC 7.1 body. See {@link basketError}.
   */
  readonly basket?: BasketFacts;
  /**
   * What the journal and the request log say of the refusal and its body does not: why the
   * admission store failed, which is the operator's business, not the API client's.
   */
  readonly journalOnly?: JournalOnlyReason;
}

/** A refusal's cause and fix for the journal alone (see {@link SimError.journalOnly}). */
export interface JournalOnlyReason {
  readonly cause: string;
  readonly fix: string;
}

/** One schema problem in the ingestion envelope: the zod issue code and the path joined with dots. */
export interface BasketIssue {
  readonly code: string;
  readonly field: string;
  readonly message: string;
}

/** What the ingestion envelope adds to a refusal. */
export interface BasketFacts {
  readonly why?: string;
  readonly fix?: string;
  readonly errors?: readonly BasketIssue[];
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

/** The challenge sent with every 401 (the `spec` profile). */
export const AUTH_CHALLENGE = 'Bearer realm="analytics-sim", charset="UTF-8"';

/**
 * The live service's challenge (`auth-codes` under `live`): the OAuth protected-resource
 * metadata of the API at `baseUrl`, as `apps/api/src/routes/query.ts` sends it.
 */
export function liveAuthChallenge(baseUrl: string): string {
  return `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`;
}

/**
 * 401 AUTH_REQUIRED: no credential was accepted. `hint` says why (missing, malformed, unknown,
 * expired…); a null hint sends none (the live service has none). `challenge` replaces the
 * WWW-Authenticate value.
 */
export function authRequired(hint: string | null, wording: Wording = {}, challenge: string = AUTH_CHALLENGE): SimError {
  const { message } = worded({ message: 'Authentication required' }, wording);
  return simError('AUTH_REQUIRED', message, { ...(hint === null ? {} : { hint }), headers: { 'WWW-Authenticate': challenge } });
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
  return simError('VALIDATION', 'Some of the details are invalid. Check them and try again.', { details });
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
 * concurrent API key requests". With `numbersInBody: false` the body is only
 * `{success, error, code, requestId}` (the live quota and concurrency refusals); the headers stay.
 */
export function rateLimited(message: string, window: RefusedWindow, numbersInBody = true): SimError {
  return simError('RATE_LIMITED', message, {
    headers: {
      'Retry-After': String(window.retryAfter),
      'X-RateLimit-Limit': String(window.limit),
      'X-RateLimit-Remaining': String(window.remaining),
      'X-RateLimit-Reset': String(window.reset),
    },
    ...(numbersInBody ? { extra: { limit: window.limit, remaining: window.remaining, reset: window.reset, retryAfter: window.retryAfter } } : {}),
  });
}

/** The live messages of the per-key quota and the concurrency cap (`limit-429-bodies` under `live`). */
export const LIVE_QUOTA_MESSAGE = 'Too many requests for this API key. Try again shortly.';
export const LIVE_CONCURRENCY_MESSAGE = 'Too many concurrent requests for this API key. Try again shortly.';

/**
 * The live ingestion service's error catalogue, whole (`apps/basket/src/lib/structured-errors.ts`,
 * plus DELIVERY_UNAVAILABLE, raised outside it): status, message, why and fix of each key. The
 * wire code is `basket.<KEY>`; `retryable` follows the status (408, 425, 429, ≥ 500).
 */
export const BASKET_ERRORS = {
  TRACK_PAYLOAD_TOO_LARGE: {
    status: 413,
    message: 'Payload too large',
    why: 'Request body exceeds the maximum allowed size.',
    fix: 'Send a smaller payload or fewer events per request.',
  },
  TRACK_INVALID_BODY: {
    status: 400,
    message: 'Invalid request body',
    why: 'The JSON body did not match the custom event schema.',
    fix: 'Send a valid track payload per the SDK documentation.',
  },
  TRACK_MISSING_SCOPE: {
    status: 403,
    message: 'API key missing track:events scope',
    why: 'The API key is not allowed to send track events.',
    fix: 'Use an API key that includes the track:events scope.',
  },
  TRACK_MISSING_OWNER: {
    status: 400,
    message: 'API key missing owner',
    why: 'The key is not linked to a user or organization.',
    fix: 'Use an organization-scoped API key or contact support.',
  },
  TRACK_MISSING_CREDENTIALS: {
    status: 401,
    message: 'API key or website_id required',
    why: 'Neither an API key nor a website_id query parameter was provided.',
    fix: 'Send an API key header or include website_id on the query string.',
  },
  MCP_INVALID_API_KEY: {
    status: 401,
    message: 'Valid API key required',
    why: 'The request had no API key, or the key is unknown, malformed, disabled, revoked, or expired.',
    fix: 'Set DATABUDDY_API_KEY or the apiKey option to an active Databuddy API key.',
  },
  TRACK_WEBSITE_NOT_FOUND: {
    status: 404,
    message: 'Website not found',
    why: 'No active website matches the given website_id.',
    fix: 'Check the website_id and that the site exists in your organization.',
  },
  TRACK_WEBSITE_NO_ORGANIZATION: {
    status: 400,
    message: 'Website missing organization',
    why: 'The website is not linked to an organization.',
    fix: 'Assign the website to an organization in the dashboard.',
  },
  TRACK_WEBSITE_SCOPE_MISMATCH: {
    status: 403,
    message: 'Website scope mismatch',
    why: 'The event website_id does not match the authenticated website.',
    fix: 'Send events only for the authenticated website, or use an API key with access to multiple websites.',
  },
  TRACK_RATE_LIMITED: {
    status: 429,
    message: 'Rate limit exceeded',
    why: 'Too many requests from this API key or website.',
    fix: 'Reduce request frequency or batch events.',
  },
  IDENTIFY_RATE_LIMITED: {
    status: 429,
    message: 'Rate limit exceeded',
    why: 'Too many /identify requests from this principal.',
    fix: 'Call identify only on login, signup, or trait changes.',
  },
  IDENTIFY_MISSING_WEBSITE_ID: {
    status: 400,
    message: 'Missing websiteId',
    why: 'API-key identify requests must state which website the profile belongs to.',
    fix: 'Include websiteId in the request body.',
  },
  INGEST_PAYLOAD_TOO_LARGE: {
    status: 413,
    message: 'Payload too large',
    why: 'Request body exceeds the maximum allowed size.',
    fix: 'Send a smaller payload or split events across requests.',
  },
  INGEST_MISSING_CLIENT_ID: {
    status: 400,
    message: 'Missing client ID',
    why: 'No client_id query parameter or databuddy-client-id header was sent.',
    fix: 'Pass client_id in the query string or set the databuddy-client-id header.',
  },
  INGEST_INVALID_CLIENT_ID: {
    status: 400,
    message: 'Invalid or inactive client ID',
    why: 'The Client ID is unknown, inactive, or not found.',
    fix: 'Use the client ID from your site snippet and ensure the site is active.',
  },
  WEBSITE_LOOKUP_UNAVAILABLE: {
    status: 503,
    message: 'Website lookup temporarily unavailable',
    why: 'The website configuration store could not be reached.',
    fix: 'Retry the same request after a short delay. Do not change a known-good client ID.',
  },
  INGEST_ORIGIN_NOT_AUTHORIZED: {
    status: 403,
    message: 'Origin not authorized',
    why: 'The request Origin does not match allowed origins for this website.',
    fix: 'Add this origin in website security settings or send requests from an allowed domain.',
  },
  INGEST_IP_NOT_AUTHORIZED: {
    status: 403,
    message: 'IP address not authorized',
    why: 'The client IP is not in the allowed list for this website.',
    fix: 'Allow this IP in website security settings or connect from an allowed network.',
  },
  INGEST_WEBSITE_MISSING_ORGANIZATION: {
    status: 400,
    message: 'Website missing organization',
    why: 'Custom events require the website to belong to an organization.',
    fix: 'Assign the website to an organization in the dashboard.',
  },
  INGEST_UNKNOWN_EVENT_TYPE: {
    status: 400,
    message: 'Unknown event type',
    why: 'The type field does not match a supported ingestion event.',
    fix: 'Use track, outgoing_link, or another supported type per the SDK.',
  },
  INGEST_BATCH_NOT_ARRAY: {
    status: 400,
    message: 'Batch endpoint expects array of events',
    why: 'The request body must be a JSON array of events.',
    fix: 'Send an array of event objects as the request body.',
  },
  INGEST_BATCH_TOO_LARGE: {
    status: 400,
    message: 'Batch too large',
    why: 'The batch exceeds the maximum number of events per request.',
    fix: 'Split the batch into smaller requests.',
  },
  INGEST_ERRORS_BODY_TOO_LARGE: {
    status: 413,
    message: 'Error batch too large',
    why: 'The /errors request body exceeds the maximum allowed size.',
    fix: 'Send fewer error spans per request or trim stack traces and messages.',
  },
  BILLING_LIMIT_EXCEEDED: {
    status: 402,
    message: 'Event quota exceeded',
    why: 'The billing provider denied this usage check.',
    fix: 'Upgrade the plan, reduce event volume, or contact support.',
  },
  BILLING_CHECK_UNAVAILABLE: {
    status: 503,
    message: 'Billing check unavailable',
    why: 'The event quota could not be verified before ingestion.',
    fix: 'Retry after the billing provider is reachable.',
  },
  WEBHOOK_ENDPOINT_NOT_FOUND: {
    status: 404,
    message: 'Webhook endpoint not found',
    why: 'The webhook URL does not match an active revenue configuration.',
    fix: 'Use the webhook URL configured in Databuddy.',
  },
  WEBHOOK_MISSING_SIGNATURE: {
    status: 400,
    message: 'Webhook signature header is required',
    why: 'The provider did not send its signature header.',
    fix: 'Send the event through the configured payment provider.',
  },
  WEBHOOK_INVALID_SIGNATURE: {
    status: 401,
    message: 'Invalid webhook signature',
    why: 'The payload could not be verified with the configured webhook secret.',
    fix: 'Confirm that the webhook secret matches the provider configuration.',
  },
  WEBHOOK_INVALID_PAYLOAD: {
    status: 400,
    message: 'Invalid webhook payload',
    why: 'The verified webhook body was not valid JSON.',
    fix: 'Send the unmodified JSON payload from the payment provider.',
  },
  WEBHOOK_PROCESSING_FAILED: {
    status: 500,
    message: 'Failed to process webhook event',
    why: 'Databuddy could not persist the provider event.',
    fix: 'Retry delivery after the service is available.',
  },
  INVALID_EVENT_SCHEMA: {
    status: 400,
    message: 'Invalid event schema',
    why: 'The JSON did not match the expected event shape.',
    fix: 'Correct the fields listed in errors and retry.',
  },
  DELIVERY_UNAVAILABLE: {
    status: 503,
    message: 'Analytics delivery temporarily unavailable',
    why: 'Databuddy could not durably accept the event.',
    fix: 'Retry the same event after a short delay.',
  },
} as const;

/** A key of {@link BASKET_ERRORS}. */
export type BasketErrorKey = keyof typeof BASKET_ERRORS;

/**
 * A refusal in the live ingestion envelope: code `basket.<KEY>`, the catalogue's message, why and
 * fix, and (schema problems) `errors`. Rendered by `errorBodyText` without SPEC 7.1 fields.
 */
export function basketError(key: BasketErrorKey, errors?: readonly BasketIssue[]): SimError {
  const entry = BASKET_ERRORS[key];
  return {
    status: entry.status,
    code: `basket.${key}`,
    message: entry.message,
    basket: { why: entry.why, fix: entry.fix, ...(errors ? { errors } : {}) },
  };
}

/** What the journal says to do about a store that failed. */
const STORE_FAILURE_FIX = 'Bring the admission store back (with Redis, GET /__sim/health shows store.lastError, the store\u2019s own words); until it answers, every request that needs it gets this 503';

/**
 * 503: the admission store failed (`failure`, what it threw or rejected with; none when it gave
 * no decision); the client should come back in 5 s. The body leaks no cause; the journal keeps
 * one, naming the failure by its code or class only (a store's message may quote an address or
 * a credential).
 */
export function serviceUnavailable(failure?: unknown): SimError {
  const label = failureLabel(failure);
  return simError('SERVICE_UNAVAILABLE', 'This service is temporarily unavailable. Try again in a moment.', {
    headers: { 'Retry-After': '5' },
    journalOnly: {
      cause: label === undefined ? 'the admission store gave no decision' : `the admission store failed (${label})`,
      fix: STORE_FAILURE_FIX,
    },
  });
}

/** What a failure with no code or class that can be read is called. */
const UNNAMED_FAILURE = 'an unnamed failure';

/** A failure by its code (`ECONNREFUSED`) or its class (`TypeError`), never by its message. */
function failureLabel(failure: unknown): string | undefined {
  if (failure === undefined || failure === null) return undefined;
  try {
    const code = (failure as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    const name: unknown = failure instanceof Error ? failure.name : typeof failure;
    return typeof name === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,40}$/.test(name) ? name : UNNAMED_FAILURE;
  } catch {
    // A failure whose own fields throw when read (a getter, a proxy).
    return UNNAMED_FAILURE;
  }
}

/** 409: the request conflicts with the current state (a scenario that is already running). */
export function conflict(message: string, hint?: string): SimError {
  return simError('CONFLICT', message, hint ? { hint } : {});
}

/** An error a scenario injects: any status and code, with the SPEC 7.1 body. */
export function injectedError(status: number, code: string, message: string, retryAfterSeconds?: number): SimError {
  return { status, code, message, ...(retryAfterSeconds !== undefined ? { headers: { 'Retry-After': String(retryAfterSeconds) } } : {}) };
}

/** 400 INVALID_EVENT_SCHEMA (ingestion): events that do not have the accepted shape; `details` name each field, the hint the first one's fix. */
export function invalidEventSchema(details: readonly ErrorDetail[]): SimError {
  return simError('INVALID_EVENT_SCHEMA', 'Invalid event schema', { details, hint: eventSchemaHint(details[0]) });
}

/** The fix of the first problem of an event: what the field takes (a timestamp's window, a name's length), else the problem itself. */
function eventSchemaHint(first: ErrorDetail | undefined): string {
  if (first === undefined) return 'See the details for the fields to fix.';
  if (/timestamp$/i.test(first.field)) {
    return "An event's timestamp must lie between 2000-01-01 and one hour after the simulator's clock (GET /__sim/clock). A client that stamps events with the wall clock (the SDK's default) is ahead of a virtual clock set in the past (--now): pass timestamp, or serve with --clock real.";
  }
  if (/(^|\.|\])name$/.test(first.field)) return 'Each event needs a name (1 to 256 characters); see the details for the fields to fix.';
  return `Fix ${first.field}: ${first.message.slice(0, 200)}; the details list every field to fix.`;
}

/** 503 EVENT_STORAGE_FULL (ingestion): the simulator's event storage is full; nothing of the request was stored. */
export function eventStorageFull(hint: string): SimError {
  return simError('EVENT_STORAGE_FULL', 'Event storage is full', { hint });
}

/**
 * 400 BAD_REQUEST: the HTTP server could not read the request line or headers. `wording` says
 * what was wrong when the server knows (an HTTP/1.1 request without a Host header).
 */
export function unreadableRequest(wording: Wording = {}): SimError {
  const { message, hint } = worded({ message: 'The request could not be read' }, wording);
  return simError('BAD_REQUEST', message, hint === undefined ? {} : { hint });
}

/** 408 REQUEST_TIMEOUT: the request's headers and body did not arrive within the server's request timeout. */
export function requestTimeout(seconds: number): SimError {
  return simError('REQUEST_TIMEOUT', 'The request did not arrive in time', {
    hint: `The server waits at most ${seconds} s for a request's headers and body; send the whole request without pausing.`,
  });
}

/** 417 EXPECTATION_FAILED: the request's `Expect` header asks for something other than `100-continue`. */
export function expectationFailed(): SimError {
  return simError('EXPECTATION_FAILED', 'Expectation failed', { hint: 'The only expectation this server meets is Expect: 100-continue.' });
}

/** 431 HEADERS_TOO_LARGE: the request's headers are larger than the HTTP server reads. */
export function headersTooLarge(): SimError {
  return simError('HEADERS_TOO_LARGE', 'Request headers are too large');
}

/**
 * 500: a bug in the simulator. The body never carries the cause or a stack; given what was
 * thrown, the journal's reason (and the adapter's request log) names its class.
 */
export function internalError(failure?: unknown): SimError {
  const message = 'Something went wrong on our side. Try again in a moment.';
  if (failure === undefined) return simError('INTERNAL_SERVER_ERROR', message);
  return simError('INTERNAL_SERVER_ERROR', message, { journalOnly: { cause: `a bug in the simulator (${failureLabel(failure) ?? UNNAMED_FAILURE})`, fix: 'report it with the request that met it' } });
}
