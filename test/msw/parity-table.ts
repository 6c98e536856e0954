import type { ScenarioInput } from '../../src/index.js';
import { COMPILE_BODY, SESSION_COOKIE_NAME, SUMMARY_QUERY } from '../helpers/credentials.js';
import type { Side } from './sides.js';

/** What a row's functions can read: fixture secrets and values captured from earlier answers. */
export interface Vars {
  /** The secret of a fixture key. */
  key(id: string): string;
  /** The session token of a fixture user. */
  token(userId: string): string;
  /** Values captured by earlier rows. */
  readonly got: Record<string, string>;
}

type Dynamic<T> = T | ((v: Vars) => T);

/** One request of the parity table, sent the same way through express and through MSW. */
export interface Row {
  readonly name: string;
  readonly method?: string;
  /** Path and query, relative to the API (or ingestion) base URL. */
  readonly path: Dynamic<string>;
  /** `ingest`: the ingestion host (`--ingest-port` on the server, `ingestUrl` for MSW). */
  readonly host?: 'api' | 'ingest';
  readonly headers?: Dynamic<Record<string, string>>;
  /** An object is sent as JSON with `content-type: application/json`; a string as is. */
  readonly body?: Dynamic<unknown>;
  /** Send the same request this many times, one after the other (default 1). */
  readonly times?: number;
  /**
   * Send this many copies at once, each leaving once the previous one has been decided, so the
   * simulator sees them in the same order on both sides; each keeps its in-flight slot until
   * the last one has been decided (the test's gate, sides.ts), and they are answered together.
   */
  readonly concurrent?: number;
  /** The status of the last answer (0: the connection was dropped). */
  readonly status: number;
  /** For concurrent rows: every status, in the order sent. */
  readonly statuses?: readonly number[];
  /** Done to both sides' simulators before the request (what no HTTP route can do). */
  readonly before?: (side: Side) => void;
  /** Keeps values of the answer's JSON for later rows. */
  readonly capture?: (json: any, got: Record<string, string>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const key = (id: string) => (v: Vars) => ({ 'x-api-key': v.key(id) });
const bearer = (id: string) => (v: Vars) => ({ authorization: `Bearer ${v.key(id)}` });
const jsonKey = (id: string) => (v: Vars) => ({ 'x-api-key': v.key(id), 'content-type': 'application/json' });
const event = (name: string, extra: Record<string, unknown> = {}) => ({ name, websiteId: 'web_acme_store', anonymousId: 'anon_1', ...extra });
const advance = (ms: number, why: string): Row => ({ name: `advances the virtual clock by ${ms} ms ${why}`, method: 'POST', path: '/__sim/clock', body: { advanceMs: ms }, status: 200 });

const SLOW_WEBSITES: ScenarioInput = {
  name: 'slow-websites',
  description: 'GET /v1/query/websites answers after 200 ms.',
  steps: [{ match: { route: '/v1/query/websites' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 200 } } }],
};
const BROKEN_COMPILE: ScenarioInput = {
  name: 'broken-compile',
  steps: [{ match: { route: '/v1/query/compile' }, effect: { type: 'error', status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side.' } }],
};
const DROP_TYPES: ScenarioInput = {
  name: 'drop-types',
  steps: [{ match: { route: '/v1/query/types' }, effect: { type: 'reset' } }],
};

/** The event store of both sides' simulators holds this many events (the ingestion limit row stores 600). */
export const PARITY_MAX_EVENTS = 650;

export const ROWS: readonly Row[] = [
  // Discovery and public routes
  { name: 'serves GET /health', path: '/health', status: 200 },
  { name: 'serves the OpenAPI document naming the host it was reached at', path: '/openapi.json', status: 200 },
  { name: 'serves the RFC 9727 API catalog', path: '/.well-known/api-catalog', status: 200 },
  { name: 'serves auth.md', path: '/auth.md', status: 200 },
  { name: 'lists the query types with their metadata', path: '/v1/query/types?include_meta=true', status: 200 },
  { name: 'answers HEAD with the headers of GET and no body', method: 'HEAD', path: '/v1/query/types', status: 200 },

  // Query API successes
  { name: 'lists the websites of an x-api-key', path: '/v1/query/websites', headers: key('key_acme_read'), status: 200 },
  { name: 'lists the websites of a Bearer key of another organization', path: '/v1/query/websites', headers: bearer('key_globex_read'), status: 200 },
  {
    name: 'runs a single query with two parameters',
    method: 'POST',
    path: '/v1/query?website_id=web_acme_store',
    headers: jsonKey('key_acme_read'),
    body: { parameters: ['summary_metrics', 'top_pages'], preset: 'last_7d', limit: 3 },
    status: 200,
  },
  { name: 'runs a batch of queries for an organization', method: 'POST', path: '/v1/query?organization_id=org_acme', headers: jsonKey('key_acme_read'), body: [SUMMARY_QUERY, { parameters: ['country'], preset: 'last_30d', limit: 5 }], status: 200 },
  { name: 'runs a batch whose second query names an unknown type', method: 'POST', path: '/v1/query?website_id=web_acme_www', headers: jsonKey('key_acme_read'), body: [SUMMARY_QUERY, { parameters: ['top_page'], preset: 'last_7d' }], status: 400 },
  {
    name: 'runs an hourly query with a filter',
    method: 'POST',
    path: '/v1/query?website_id=web_acme_docs',
    headers: jsonKey('key_acme_read'),
    body: { parameters: ['browser_name'], startDate: '2025-05-26', endDate: '2025-05-28', granularity: 'hourly', filters: [{ field: 'country', op: 'eq', value: 'US' }] },
    status: 200,
  },
  { name: 'runs a query in a time zone', method: 'POST', path: '/v1/query?website_id=web_acme_store&timezone=America/New_York', headers: jsonKey('key_acme_read'), body: { parameters: ['summary_metrics'], preset: 'today' }, status: 200 },
  { name: 'pages through top pages', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: { parameters: ['top_pages'], preset: 'last_30d', limit: 5, page: 2 }, status: 200 },
  { name: 'queries a short link by link_id', method: 'POST', path: '/v1/query?link_id=link_acme_launch', headers: jsonKey('key_acme_read'), body: { parameters: ['link_total_clicks', 'link_clicks_by_day'], preset: 'last_7d' }, status: 200 },
  { name: 'queries an uptime monitor by schedule_id', method: 'POST', path: '/v1/query?schedule_id=mon_acme_store', headers: jsonKey('key_acme_monitors'), body: { parameters: ['uptime_overview'], preset: 'last_7d' }, status: 200 },
  { name: 'compiles a query to SQL', method: 'POST', path: '/v1/query/compile', headers: jsonKey('key_acme_read'), body: COMPILE_BODY, status: 200 },
  { name: 'answers a public website anonymously', method: 'POST', path: '/v1/query?website_id=web_acme_blog', headers: { 'content-type': 'application/json' }, body: SUMMARY_QUERY, status: 200 },
  { name: 'lists the websites of a dashboard session cookie', path: '/v1/query/websites', headers: (v) => ({ cookie: `${SESSION_COOKIE_NAME}=${v.token('user_alice')}` }), status: 200 },

  // Query API errors
  { name: 'refuses a request without a credential with 401 AUTH_REQUIRED', path: '/v1/query/websites', status: 401 },
  { name: 'refuses an expired key with 401', path: '/v1/query/websites', headers: key('key_acme_expired'), status: 401 },
  { name: 'refuses a key without read:data with 403 FORBIDDEN', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_track'), body: SUMMARY_QUERY, status: 403 },
  { name: 'refuses a website of another organization with 403 ACCESS_DENIED', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_globex_read'), body: SUMMARY_QUERY, status: 403 },
  { name: 'refuses an error type on a free-plan website with 402 FEATURE_UNAVAILABLE', method: 'POST', path: '/v1/query?website_id=web_globex_app', headers: jsonKey('key_globex_read'), body: { parameters: ['error_summary'], preset: 'last_7d' }, status: 402 },
  { name: 'refuses a restricted key that names no resource with 400 MISSING_PROJECT_ID', method: 'POST', path: '/v1/query', headers: jsonKey('key_acme_store_only'), body: SUMMARY_QUERY, status: 400 },
  { name: 'refuses a misspelt query type with 400 VALIDATION_ERROR and a suggestion', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: { parameters: ['summry_metrics'], preset: 'last_7d' }, status: 400 },
  { name: 'refuses an hourly range over 30 days with 400 VALIDATION_ERROR', method: 'POST', path: '/v1/query?website_id=web_acme_www', headers: jsonKey('key_acme_read'), body: { parameters: ['summary_metrics'], startDate: '2025-01-01', endDate: '2025-03-01', granularity: 'hourly' }, status: 400 },
  { name: 'refuses a body of the wrong shape with 422 VALIDATION', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: { parameters: 'summary_metrics' }, status: 422 },
  { name: 'refuses malformed JSON with 400 PARSE', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: '{"parameters": [', status: 400 },
  { name: 'refuses a form body with 415 UNSUPPORTED_MEDIA_TYPE', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: (v) => ({ 'x-api-key': v.key('key_acme_read'), 'content-type': 'application/x-www-form-urlencoded' }), body: 'a=b', status: 415 },
  { name: 'refuses a body over 1 MB with 413 PAYLOAD_TOO_LARGE', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: `{"pad":"${'x'.repeat(1_000_000)}"}`, status: 413 },
  { name: 'refuses an unknown type at compile with 400 COMPILATION_ERROR', method: 'POST', path: '/v1/query/compile', headers: jsonKey('key_acme_read'), body: { ...COMPILE_BODY, type: 'top_page' }, status: 400 },
  { name: 'answers a wrong method with 405 and an Allow header', method: 'PUT', path: '/v1/query', status: 405 },
  { name: 'answers an unknown route with a JSON 404', path: '/nowhere/at/all?x=1&x=2', status: 404 },

  // CORS
  { name: 'adds the CORS headers for an allowed page origin', path: '/v1/query/websites', headers: (v) => ({ 'x-api-key': v.key('key_acme_read'), origin: 'http://localhost:5173' }), status: 200 },
  { name: 'answers a preflight with 204', method: 'OPTIONS', path: '/v1/query', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' }, status: 204 },
  { name: 'ignores the session cookie of a disallowed origin', path: '/v1/query/websites', headers: (v) => ({ origin: 'https://evil.example', cookie: `${SESSION_COOKIE_NAME}=${v.token('user_alice')}` }), status: 401 },

  // Ingestion
  { name: 'tracks one event on the ingestion host', method: 'POST', host: 'ingest', path: '/track', headers: jsonKey('key_acme_track'), body: event('signup', { properties: { plan: 'pro' } }), status: 200 },
  { name: 'tracks a batch of events', method: 'POST', host: 'ingest', path: '/track', headers: jsonKey('key_acme_track'), body: [event('signup'), event('upgrade'), event('signup', { anonymousId: 'anon_2' })], status: 200 },
  { name: 'tracks as a website without a key', method: 'POST', host: 'ingest', path: '/track?website_id=web_acme_www', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'beacon' }), status: 200 },
  { name: 'answers a bot user agent with 204 and stores nothing', method: 'POST', host: 'ingest', path: '/track', headers: (v) => ({ ...jsonKey('key_acme_track')(v), 'user-agent': 'AhrefsBot/7.0' }), body: event('crawl'), status: 204 },
  { name: 'refuses an event without a name with 400 INVALID_EVENT_SCHEMA', method: 'POST', host: 'ingest', path: '/track', headers: jsonKey('key_acme_track'), body: [{ websiteId: 'web_acme_store' }], status: 400 },
  { name: 'refuses a key without track:events at /track with 403', method: 'POST', host: 'ingest', path: '/track', headers: jsonKey('key_acme_read'), body: event('nope'), status: 403 },
  { name: 'answers an ingestion preflight from any origin', method: 'OPTIONS', host: 'ingest', path: '/track', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' }, status: 204 },
  { name: 'shows tracked events in custom_events', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: { parameters: ['custom_events'], preset: 'today' }, status: 200 },

  // Management routes
  { name: 'lists websites for management', path: '/v1/websites?limit=3', headers: key('key_acme_all'), status: 200 },
  {
    name: 'creates a website (201)',
    method: 'POST',
    path: '/v1/websites',
    headers: jsonKey('key_acme_all'),
    body: { name: 'Parity', domain: 'parity.example', trafficSize: 'tiny' },
    status: 201,
    capture: (json, got) => {
      got.website = json.data.id;
    },
  },
  { name: 'renames the created website', method: 'PATCH', path: (v) => `/v1/websites/${v.got.website}`, headers: jsonKey('key_acme_all'), body: { name: 'Parity renamed' }, status: 200 },
  { name: 'queries the created website', method: 'POST', path: (v) => `/v1/query?website_id=${v.got.website}`, headers: jsonKey('key_acme_all'), body: SUMMARY_QUERY, status: 200 },
  { name: 'deletes the created website', method: 'DELETE', path: (v) => `/v1/websites/${v.got.website}`, headers: key('key_acme_all'), status: 200 },
  { name: 'answers 404 NOT_FOUND for the deleted website', path: (v) => `/v1/websites/${v.got.website}`, headers: key('key_acme_all'), status: 404 },
  { name: 'refuses a taken link slug with 409 CONFLICT', method: 'POST', path: '/v1/links', headers: jsonKey('key_acme_all'), body: { targetUrl: 'https://acme.io/', slug: 'Launch-Week' }, status: 409 },
  { name: 'creates a short link', method: 'POST', path: '/v1/links', headers: jsonKey('key_acme_all'), body: { targetUrl: 'https://acme.io/pricing', slug: 'parity-pricing', websiteId: 'web_acme_www' }, status: 201 },
  { name: 'refuses a flag with a rollout over 100 with 422 naming the field', method: 'POST', path: '/v1/flags', headers: jsonKey('key_acme_all'), body: { key: 'parity-flag', rolloutPercentage: 120 }, status: 422 },
  { name: 'pages through feature flags', path: '/v1/flags?limit=1&page=2', headers: key('key_acme_all'), status: 200 },
  { name: 'pauses a monitor', method: 'POST', path: '/v1/monitors/mon_acme_api/pause', headers: key('key_acme_all'), status: 200 },
  { name: 'reads a public status page without a credential', path: '/v1/public/status-pages/acme', status: 200 },
  { name: 'changes organization settings', method: 'PATCH', path: '/v1/organization/settings', headers: jsonKey('key_acme_all'), body: { name: 'Acme Parity' }, status: 200 },
  { name: 'lists status pages', path: '/v1/status-pages?limit=2', headers: key('key_acme_all'), status: 200 },
  { name: 'refuses management without its scope with 403 FORBIDDEN', path: '/v1/websites', headers: key('key_acme_read'), status: 403 },

  // Control plane
  { name: 'reports health', path: '/__sim/health', status: 200 },
  { name: 'lists the fixtures with their secrets', path: '/__sim/fixtures', status: 200 },
  { name: 'reads the clock', path: '/__sim/clock', status: 200 },
  advance(1_000, 'through the control plane'),
  { name: 'refuses a clock change it cannot read with 422', method: 'POST', path: '/__sim/clock', body: { advanceMs: -5 }, status: 422 },
  {
    name: 'creates an API key (201) with its secret',
    method: 'POST',
    path: '/__sim/keys',
    body: { name: 'CI', organizationId: 'org_acme', scopes: ['read:data'] },
    status: 201,
    capture: (json, got) => {
      got.keyId = json.key.id;
      got.secret = json.secret;
    },
  },
  { name: 'answers the created key at once', path: '/v1/query/websites', headers: (v) => ({ 'x-api-key': v.got.secret as string }), status: 200 },
  { name: 'changes the created key', method: 'PATCH', path: (v) => `/__sim/keys/${v.got.keyId}`, body: { name: 'CI renamed', quota: { enabled: true, limit: 50, windowSeconds: 60 } }, status: 200 },
  {
    name: 'rotates the created key',
    method: 'POST',
    path: (v) => `/__sim/keys/${v.got.keyId}/rotate`,
    status: 200,
    capture: (json, got) => {
      got.rotated = json.secret;
    },
  },
  { name: 'refuses the secret rotated away with 401', path: '/v1/query/websites', headers: (v) => ({ 'x-api-key': v.got.secret as string }), status: 401 },
  { name: 'answers the rotated secret with the quota headers', path: '/v1/query/websites', headers: (v) => ({ 'x-api-key': v.got.rotated as string }), status: 200 },
  { name: 'revokes the created key', method: 'POST', path: (v) => `/__sim/keys/${v.got.keyId}/revoke`, status: 200 },
  { name: 'deletes the created key', method: 'DELETE', path: (v) => `/__sim/keys/${v.got.keyId}`, status: 200 },
  { name: 'answers 404 for the deleted key', path: (v) => `/__sim/keys/${v.got.keyId}`, status: 404 },
  { name: 'lists keys by organization', path: '/__sim/keys?organizationId=org_acme', status: 200 },
  { name: 'lists the audit log', path: '/__sim/audit', status: 200 },
  {
    name: 'signs a user in with a Set-Cookie header (201)',
    method: 'POST',
    path: '/__sim/sessions',
    body: { userId: 'user_bob' },
    status: 201,
    capture: (json, got) => {
      got.bob = json.token;
    },
  },
  { name: 'signs the user out', method: 'DELETE', path: '/__sim/sessions', body: (v: Vars) => ({ token: v.got.bob }), status: 200 },
  { name: 'refuses a control-plane call from a foreign page with 403', method: 'POST', path: '/__sim/reset', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: {}, status: 403 },
  { name: 'lists the scenarios', path: '/__sim/scenarios', status: 200 },

  // 429: the per-key quota
  { name: 'admits 10 requests of a key with a quota of 10 per minute, then answers 429 API key rate limit exceeded', path: '/v1/query/websites', headers: key('key_acme_quota'), times: 11, status: 429 },
  advance(60_000, 'past the quota window'),
  { name: 'admits the quota key again once the window has moved', path: '/v1/query/websites', headers: key('key_acme_quota'), status: 200 },
  // 429: the per-endpoint limit (anonymous: 60 per minute)
  { name: 'admits 60 anonymous queries in a minute, then answers 429 Rate limit exceeded', method: 'POST', path: '/v1/query?website_id=web_acme_blog', headers: { 'content-type': 'application/json' }, body: SUMMARY_QUERY, times: 61, status: 429 },
  // 429: the ingestion limit (600 per minute per key)
  { name: 'admits 600 /track requests of a key in a minute, then answers 429', method: 'POST', host: 'ingest', path: '/track', headers: jsonKey('key_acme_track'), body: event('tick'), times: 601, status: 429 },
  advance(60_000, 'past the ingestion window'),
  { name: 'refuses a batch that does not fit the event store with 503 EVENT_STORAGE_FULL', method: 'POST', host: 'ingest', path: '/track', headers: jsonKey('key_acme_track'), body: Array.from({ length: 100 }, () => event('overflow')), status: 503 },
  // 429: the concurrency cap (20 in flight per key); the test holds the slots (a concurrent row),
  // the latency scenario only delays the answers, alike on both sides
  { name: 'starts an inline latency scenario (201)', method: 'POST', path: '/__sim/scenarios', body: { scenario: SLOW_WEBSITES }, status: 201 },
  { name: 'admits 20 requests in flight for a key and refuses the 21st with 429 Too many concurrent API key requests', path: '/v1/query/websites', headers: key('key_acme_read'), concurrent: 21, status: 429, statuses: [...Array<number>(20).fill(200), 429] },
  { name: 'stops the latency scenario', method: 'DELETE', path: '/__sim/scenarios/slow-websites', status: 200 },
  // 429: the concurrency cap of a scenario
  { name: 'starts the built-in concurrency-squeeze scenario', method: 'POST', path: '/__sim/scenarios', body: { name: 'concurrency-squeeze' }, status: 201 },
  { name: 'refuses to start a running scenario again with 409 CONFLICT', method: 'POST', path: '/__sim/scenarios', body: { name: 'concurrency-squeeze' }, status: 409 },
  { name: 'admits 5 requests in flight under concurrency-squeeze and refuses the 6th with 429', path: '/v1/query/websites', headers: key('key_acme_read'), concurrent: 6, status: 429, statuses: [200, 200, 200, 200, 200, 429] },
  { name: 'stops every scenario', method: 'DELETE', path: '/__sim/scenarios', status: 200 },
  // 503: an outage scenario, and a failing admission store
  { name: 'starts the outage-window scenario', method: 'POST', path: '/__sim/scenarios', body: { name: 'outage-window' }, status: 201 },
  advance(30_000, 'into the outage window'),
  { name: 'answers 503 SERVICE_UNAVAILABLE during the outage window', path: '/v1/query/websites', headers: key('key_acme_read'), status: 503 },
  { name: 'stops the outage', method: 'DELETE', path: '/__sim/scenarios/outage-window', status: 200 },
  { name: 'answers 503 in degraded mode when the admission store fails', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: SUMMARY_QUERY, status: 503, before: (side) => (side.store.failing = true) },
  { name: 'admits again once the store is back', method: 'POST', path: '/v1/query?website_id=web_acme_store', headers: jsonKey('key_acme_read'), body: SUMMARY_QUERY, status: 200, before: (side) => (side.store.failing = false) },
  // Injected errors and dropped connections
  { name: 'starts a scenario that breaks compile', method: 'POST', path: '/__sim/scenarios', body: { scenario: BROKEN_COMPILE }, status: 201 },
  { name: 'answers an injected 500 INTERNAL_SERVER_ERROR', method: 'POST', path: '/v1/query/compile', headers: jsonKey('key_acme_read'), body: COMPILE_BODY, status: 500 },
  { name: 'starts a scenario that drops connections', method: 'POST', path: '/__sim/scenarios', body: { scenario: DROP_TYPES }, status: 201 },
  { name: 'drops the connection: fetch rejects on both transports', path: '/v1/query/types', status: 0 },
  { name: 'stops the fault scenarios', method: 'DELETE', path: '/__sim/scenarios', status: 200 },

  // The journal and its judges
  { name: 'lists the newest journal entries', path: '/__sim/journal?limit=5', status: 200 },
  { name: 'lists the journal entries refused by the concurrency cap', path: '/__sim/journal?outcome=concurrency', status: 200 },
  { name: 'filters the journal by identity', path: '/__sim/journal?identity=anon:127.0.0.1&limit=3', status: 200 },
  { name: 'replays the journal with the oracle', path: '/__sim/journal/oracle', status: 200 },
  { name: 'audits the retries in the journal', path: '/__sim/journal/retry-audit', status: 200 },
  { name: 'clears the journal', method: 'DELETE', path: '/__sim/journal', status: 200 },
  { name: 'resets to the seeded state', method: 'POST', path: '/__sim/reset', body: {}, status: 200 },
  { name: 'answers after the reset as at the start', path: '/v1/query/websites', headers: key('key_acme_read'), status: 200 },
  { name: 'resets with another seed', method: 'POST', path: '/__sim/reset', body: { seed: '7' }, status: 200 },
  { name: 'lists the fixtures of the new seed', path: '/__sim/fixtures', status: 200 },
];
