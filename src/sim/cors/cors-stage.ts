import type { Principal } from '../auth/principal.js';
import { CONTINUE, next, respond, type Exchange, type Stage, type StageResult } from '../pipeline/exchange.js';
import type { Reply } from '../routing/route.js';
import { routesOf } from '../routing/router.js';
import { truncate } from '../text.js';

/** Methods an API preflight allows: all of them, so that a wrong method gets a readable 404/405, not a CORS failure. */
export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** Request headers a page may send to the API: the body type, both API key headers and the SDK's own headers. */
export const CORS_ALLOW_HEADERS =
  'Content-Type, Authorization, X-API-Key, databuddy-client-id, databuddy-sdk-name, databuddy-sdk-version';

/** Response headers a page may read: the live API's, and the simulator's own `Warning` (what it ignored). */
export const CORS_EXPOSE_HEADERS = 'X-Request-ID, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Warning';

/** Seconds a browser may cache a preflight answer. */
export const CORS_MAX_AGE_SECONDS = 600;

/** What the live ingestion host allows in a preflight (it answers every origin). */
export const INGEST_CORS_ALLOW_METHODS = 'POST, GET, OPTIONS, PUT, DELETE';
export const INGEST_CORS_ALLOW_HEADERS =
  'Content-Type, Authorization, X-Requested-With, databuddy-client-id, databuddy-sdk-name, databuddy-sdk-version';

/** Whether the request names a path of an ingestion route (any method). */
function isIngestPath(x: Exchange): boolean {
  return routesOf(x.match).some((route) => route.family === 'ingest');
}

/** CORS headers for an allowed origin; a preflight answer with what it may send. */
function corsAnswer(x: Exchange, origin: string | undefined, allowed: boolean, ingest: boolean): StageResult {
  if (origin !== undefined) {
    x.headers.Vary = 'Origin';
    if (allowed) {
      x.headers['Access-Control-Allow-Origin'] = origin;
      x.headers['Access-Control-Allow-Credentials'] = 'true';
      x.headers['Access-Control-Expose-Headers'] = CORS_EXPOSE_HEADERS;
    }
  }
  if (x.request.method !== 'OPTIONS') return CONTINUE;
  const reply: Reply = {
    reply: true,
    status: 204,
    body: undefined,
    text: '',
    headers: allowed
      ? {
          'Access-Control-Allow-Methods': ingest ? INGEST_CORS_ALLOW_METHODS : CORS_ALLOW_METHODS,
          'Access-Control-Allow-Headers': ingest ? INGEST_CORS_ALLOW_HEADERS : CORS_ALLOW_HEADERS,
          'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
        }
      : {},
  };
  return respond(reply);
}

/**
 * CORS of the simulated service, after authentication (the live service's order).
 *
 * The API: for an allowed Origin every answer of the request, refusals and 429s included,
 * echoes the origin with credentials allowed and the rate-limit headers exposed; a disallowed
 * Origin gets no CORS headers at all, so the browser blocks the answer, and its session cookie
 * does not authenticate (SPEC 5.5; an API key still does).
 *
 * Ingestion (`/track`) answers every origin, as the live ingestion host does: tracking runs on
 * the customers' own sites (a website's allowed origins are the route's own check).
 *
 * A preflight (`OPTIONS`, on any path) is answered here with 204: before scenario faults, the
 * in-flight gate, the quotas and routing, so it is never refused or rate limited.
 */
export const applyCors: Stage = (x) => {
  const origin = x.request.headers.origin;
  if (origin === undefined && x.request.method !== 'OPTIONS') return CONTINUE;
  const ingest = isIngestPath(x);
  const allowed = origin !== undefined && (ingest ? origin.length > 0 : x.sim.origins.allows(origin, x.request));
  const answer = corsAnswer(x, origin, allowed, ingest);
  if (origin !== undefined && !allowed && x.principal?.kind === 'user') {
    const principal: Principal = {
      kind: 'anonymous',
      ip: x.principal.ip,
      problem: `The session cookie is accepted only from allowed origins, and ${truncate(origin, 100)} is not one (start the simulator with --allowed-origin).`,
    };
    return answer.kind === 'continue' ? next({ principal }) : { ...answer, with: { principal } };
  }
  return answer;
};

/**
 * CORS of the control plane: only routes declared `browser` (signing in and out, health) answer
 * pages of allowed origins. The rest (fixtures with secrets, keys, audit, journal, clock) never
 * get CORS headers, so no web page can read them, even from an allowed origin.
 */
export const applyControlCors: Stage = (x) => {
  const origin = x.request.headers.origin;
  if (origin === undefined && x.request.method !== 'OPTIONS') return CONTINUE;
  const browser = routesOf(x.match).some((route) => route.browser === true);
  const allowed = origin !== undefined && browser && x.sim.origins.allows(origin, x.request);
  return corsAnswer(x, origin, allowed, false);
};
