import { truncate } from '../errors.js';
import type { Exchange, StageResult } from '../pipeline.js';
import type { Reply, Route } from '../route.js';
import { createRouter, type RouteMatch } from '../router.js';

/** Methods an API preflight allows: all of them, so that a wrong method gets a readable 404/405, not a CORS failure. */
export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** Request headers a page may send to the API: the body type, both API key headers and the SDK's own headers. */
export const CORS_ALLOW_HEADERS =
  'Content-Type, Authorization, X-API-Key, databuddy-client-id, databuddy-sdk-name, databuddy-sdk-version';

/** Response headers a page may read, as the live API exposes them. */
export const CORS_EXPOSE_HEADERS = 'X-Request-ID, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

/** Seconds a browser may cache a preflight answer. */
export const CORS_MAX_AGE_SECONDS = 600;

/** What the live ingestion host allows in a preflight (it answers every origin). */
export const INGEST_CORS_ALLOW_METHODS = 'POST, GET, OPTIONS, PUT, DELETE';
export const INGEST_CORS_ALLOW_HEADERS =
  'Content-Type, Authorization, X-Requested-With, databuddy-client-id, databuddy-sdk-name, databuddy-sdk-version';

const ingestMatchers = new WeakMap<readonly Route[], (method: string, path: string) => RouteMatch>();

/** Whether the request names a path of an ingestion route (any method). */
function isIngestPath(x: Exchange): boolean {
  let match = ingestMatchers.get(x.sim.routes);
  if (!match) {
    match = createRouter(x.sim.routes.filter((route) => route.family === 'ingest'));
    ingestMatchers.set(x.sim.routes, match);
  }
  return match(x.request.method, x.request.path).kind !== 'not-found';
}

/**
 * CORS, after authentication (the live service's order).
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
/**
 * The only control-plane paths a browser page may read: signing in and out, and health. The
 * rest (fixtures with secrets, keys, audit, journal, clock) never get CORS headers, so no web
 * page can read them, even from an allowed origin.
 */
const BROWSER_CONTROL_PATHS = new Set(['/__sim/sessions', '/__sim/health']);

export function applyCors(x: Exchange): StageResult {
  const origin = x.request.headers.origin;
  const preflight = x.request.method === 'OPTIONS';
  if (origin === undefined && !preflight) return undefined;
  const ingest = !x.control && isIngestPath(x);
  let allowed = false;
  if (origin !== undefined) {
    x.headers.Vary = 'Origin';
    allowed = ingest
      ? origin.length > 0
      : x.sim.origins.allows(origin, x.request) && (!x.control || BROWSER_CONTROL_PATHS.has(x.request.path));
    if (allowed) {
      x.headers['Access-Control-Allow-Origin'] = origin;
      x.headers['Access-Control-Allow-Credentials'] = 'true';
      x.headers['Access-Control-Expose-Headers'] = CORS_EXPOSE_HEADERS;
    } else if (x.principal?.kind === 'user') {
      x.principal = {
        kind: 'anonymous',
        ip: x.principal.ip,
        problem: `The session cookie is accepted only from allowed origins, and ${truncate(origin, 100)} is not one (start the simulator with --allowed-origin).`,
      };
    }
  }
  if (!preflight) return undefined;
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
  return reply;
}
