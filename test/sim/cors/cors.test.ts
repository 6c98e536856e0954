import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/index.js';
import { sessionCookie, sessionTokenOf, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const EXPOSED = 'X-Request-ID, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Warning';
const PAGE = 'http://localhost:5173';

/** The CORS headers of an answer (names as the core sets them). */
function corsHeaders(answer: Answer): Record<string, string> {
  return Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name.toLowerCase().startsWith('access-control-')));
}

function preflight(sim = freshSimulator(), path = '/v1/query', origin = PAGE, headers: Record<string, string> = {}): Promise<Answer> {
  return call(sim, 'OPTIONS', path, {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key', ...headers },
  });
}

describe('CORS for an allowed origin', () => {
  it.each(['http://localhost:5173', 'http://localhost', 'http://127.0.0.1:3000', 'http://[::1]:8080'])(
    'echoes %s with credentials, Vary: Origin and the exposed headers by default',
    async (origin) => {
      const sim = freshSimulator();
      const answer = await call(sim, 'GET', '/v1/query/types', { headers: { origin } });
      expect(answer.status).toBe(200);
      expect(corsHeaders(answer)).toEqual({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Expose-Headers': EXPOSED,
      });
      expect(answer.headers.Vary).toBe('Origin');
    },
  );

  it('puts the CORS headers on refusals too, so a page can read a 429’s Retry-After', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_quota');
    let answer: Answer | undefined;
    for (let i = 0; i < 11; i++) answer = await call(sim, 'GET', '/v1/query/websites', { key, headers: { origin: PAGE } });
    expect(answer?.status).toBe(429);
    expect(answer?.headers['Access-Control-Allow-Origin']).toBe(PAGE);
    expect(answer?.headers['Access-Control-Expose-Headers']).toBe(EXPOSED);
    expect(answer?.headers['Retry-After']).toBe('60');

    const unauthenticated = await call(sim, 'GET', '/v1/query/websites', { headers: { origin: PAGE } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['Access-Control-Allow-Origin']).toBe(PAGE);
    const missing = await call(sim, 'GET', '/v1/nothing', { headers: { origin: PAGE } });
    expect(missing.status).toBe(404);
    expect(missing.headers['Access-Control-Allow-Origin']).toBe(PAGE);
  });

  it('adds nothing to requests without an Origin', async () => {
    const answer = await call(freshSimulator(), 'GET', '/v1/query/types');
    expect(corsHeaders(answer)).toEqual({});
    expect(answer.headers.Vary).toBeUndefined();
  });
});

describe('the preflight', () => {
  it('answers 204 with the allowed methods, headers and max age, and no body', async () => {
    const answer = await preflight();
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['Content-Type']).toBeUndefined();
    expect(answer.headers['X-Request-ID']).toMatch(/^req_/);
    expect(corsHeaders(answer)).toEqual({
      'Access-Control-Allow-Origin': PAGE,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': EXPOSED,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-API-Key, databuddy-client-id, databuddy-sdk-name, databuddy-sdk-version',
      'Access-Control-Max-Age': '600',
    });
  });

  it.each(['/v1/query/types', '/v1/query/websites', '/v1/no/such/route', '/track', '/'])('answers 204 on %s, never 404 or 405', async (path) => {
    expect((await preflight(freshSimulator(), path)).status).toBe(204);
  });

  it('is never rate limited and uses no identity’s budget', async () => {
    const sim = freshSimulator();
    for (let i = 0; i < 200; i++) {
      const answer = await preflight(sim);
      if (answer.status !== 204) throw new Error(`preflight ${i + 1} answered ${answer.status}`);
    }
    const query = await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_blog' }, body: SUMMARY_QUERY, headers: { origin: PAGE } });
    expect(query.status).toBe(200);
    const journal = (await call(sim, 'GET', '/__sim/journal', { query: { route: '/v1/query' } })).json.entries;
    expect(journal.at(-1).checks[0]).toMatchObject({ rule: 'endpoint_limit', allowed: true });
  });

  it('is journaled as admitted, with no window checked', async () => {
    const sim = freshSimulator();
    await preflight(sim);
    const [entry] = (await call(sim, 'GET', '/__sim/journal')).json.entries;
    expect(entry).toMatchObject({ method: 'OPTIONS', outcome: 'admitted', status: 204, checks: [] });
  });

  it('is not touched by scenario faults, the concurrency gate or key quotas', async () => {
    const sim = freshSimulator();
    sim.scenarios.start({ name: 'all-down', steps: [{ match: {}, effect: { type: 'outage' } }] });
    const key = secretOf(sim, 'key_acme_quota');
    for (let i = 0; i < 30; i++) expect((await preflight(sim, '/v1/query', PAGE, { 'x-api-key': key })).status).toBe(204);
    expect((await call(sim, 'GET', '/v1/query/types', { headers: { origin: PAGE } })).status).toBe(503);
    const outcomes = new Set((await call(sim, 'GET', '/__sim/journal', { query: { outcome: 'admitted' } })).json.entries.map((e: { method: string }) => e.method));
    expect(outcomes).toEqual(new Set(['OPTIONS']));
  });

  it('answers a disallowed origin with 204 and no CORS headers, so the browser stops there', async () => {
    const sim = createSimulator({ allowedOrigins: ['https://app.example'] });
    const answer = await preflight(sim, '/v1/query', 'https://evil.example');
    expect(answer.status).toBe(204);
    expect(corsHeaders(answer)).toEqual({});
    expect(answer.headers.Vary).toBe('Origin');
  });
});

describe('a disallowed origin', () => {
  it('gets no CORS headers at all on any answer', async () => {
    const sim = createSimulator({ allowedOrigins: ['http://localhost:5173'] });
    for (const origin of ['http://localhost:3000', 'https://evil.example', 'null', 'http://localhost:5173.evil.example']) {
      const answer = await call(sim, 'GET', '/v1/query/types', { headers: { origin } });
      expect(answer.status).toBe(200);
      expect(corsHeaders(answer)).toEqual({});
      expect(answer.headers.Vary).toBe('Origin');
    }
  });

  it('cannot authenticate with the session cookie (SPEC 5.5): 401 with a hint naming the origin', async () => {
    const sim = createSimulator({ allowedOrigins: ['http://localhost:5173'] });
    const cookie = sessionCookie(sessionTokenOf(sim, 'user_alice'));
    const foreign = await call(sim, 'GET', '/v1/query/websites', { headers: { ...cookie, origin: 'http://localhost:3000' } });
    expect(foreign.status).toBe(401);
    expect(foreign.json.code).toBe('AUTH_REQUIRED');
    expect(foreign.json.hint).toContain('http://localhost:3000');
    const nullOrigin = await call(sim, 'GET', '/v1/query/websites', { headers: { ...cookie, origin: 'null' } });
    expect(nullOrigin.status).toBe(401);

    expect((await call(sim, 'GET', '/v1/query/websites', { headers: { ...cookie, origin: 'http://localhost:5173' } })).status).toBe(200);
    expect((await call(sim, 'GET', '/v1/query/websites', { headers: cookie })).status).toBe(200);
    const entries = (await call(sim, 'GET', '/__sim/journal')).json.entries.map((e: { identity: string }) => e.identity);
    expect(entries[0]).toMatch(/^anon:/);
    expect(entries.slice(2)).toEqual(['user:user_alice', 'user:user_alice']);
  });

  it('still authenticates with an API key, which wins over the cookie', async () => {
    const sim = createSimulator({ allowedOrigins: ['http://localhost:5173'] });
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      key: secretOf(sim, 'key_globex_read'),
      headers: { ...sessionCookie(sessionTokenOf(sim, 'user_alice')), origin: 'https://partner.example' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.websites[0].organizationId).toBe('org_globex');
    expect(corsHeaders(answer)).toEqual({});
  });
});

describe('the allowed-origins setting', () => {
  const allows = async (allowedOrigins: string[] | undefined, origin: string, headers: Record<string, string> = {}) => {
    const sim = createSimulator(allowedOrigins ? { allowedOrigins } : {});
    const answer = await call(sim, 'GET', '/v1/query/types', { headers: { origin, ...headers } });
    return answer.headers['Access-Control-Allow-Origin'] === origin;
  };

  it('replaces the localhost default with the listed origins', async () => {
    expect(await allows(['https://app.example'], 'https://app.example')).toBe(true);
    expect(await allows(['https://app.example'], 'http://localhost:5173')).toBe(false);
    expect(await allows(['https://app.example'], 'http://app.example')).toBe(false);
    expect(await allows(['https://app.example'], 'https://app.example:8443')).toBe(false);
    expect(await allows(['https://app.example:443'], 'https://app.example')).toBe(true);
  });

  it('reads :* as any port and * as any origin', async () => {
    expect(await allows(['http://localhost:*'], 'http://localhost:4000')).toBe(true);
    expect(await allows(['http://localhost:*'], 'http://localhost')).toBe(true);
    expect(await allows(['http://localhost:*'], 'http://127.0.0.1:4000')).toBe(false);
    expect(await allows(['*'], 'https://anything.example')).toBe(true);
    expect(await allows(['*'], 'null')).toBe(false);
  });

  it('always allows the simulator’s own origin, from the Host header and X-Forwarded-Proto', async () => {
    expect(await allows(['https://app.example'], 'http://sim.internal:8787', { host: 'sim.internal:8787' })).toBe(true);
    expect(await allows(['https://app.example'], 'https://sim.example', { host: 'sim.example', 'x-forwarded-proto': 'https' })).toBe(true);
    expect(await allows(['https://app.example'], 'http://sim.example', { host: 'sim.example', 'x-forwarded-proto': 'https' })).toBe(false);
    expect(await allows(['https://app.example'], 'http://other.internal:8787', { host: 'sim.internal:8787' })).toBe(false);
  });

  it('refuses to start with an entry that is not an origin', () => {
    expect(() => createSimulator({ allowedOrigins: ['localhost:3000'] })).toThrow(/Invalid allowed origin.*localhost:3000/);
    expect(() => createSimulator({ allowedOrigins: ['https://app.example/path'] })).toThrow(/Invalid allowed origin/);
  });
});

describe('CORS on ingestion (/track)', () => {
  const SHOP = 'https://shop.example';

  it('answers every origin, as the live ingestion host does, while the API keeps its list', async () => {
    const sim = createSimulator({ allowedOrigins: ['http://localhost:5173'] });
    const track = await call(sim, 'POST', '/track', { query: { website_id: 'web_acme_store' }, body: { name: 'signup' }, headers: { origin: SHOP } });
    expect(track.headers['Access-Control-Allow-Origin']).toBe(SHOP);
    expect(track.headers['Access-Control-Allow-Credentials']).toBe('true');
    expect(track.headers.Vary).toBe('Origin');
    const api = await call(sim, 'GET', '/v1/query/types', { headers: { origin: SHOP } });
    expect(corsHeaders(api)).toEqual({});
  });

  it('answers its preflight with the ingestion host’s methods and headers', async () => {
    const answer = await preflight(createSimulator({ allowedOrigins: ['http://localhost:5173'] }), '/track', SHOP);
    expect(answer.status).toBe(204);
    expect(corsHeaders(answer)).toEqual({
      'Access-Control-Allow-Origin': SHOP,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': EXPOSED,
      'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, PUT, DELETE',
      'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Requested-With, databuddy-client-id, databuddy-sdk-name, databuddy-sdk-version',
      'Access-Control-Max-Age': '600',
    });
  });
});

describe('CORS on the control plane', () => {
  it('never lets a web page read the fixtures, keys, audit or journal, even from an allowed origin', async () => {
    const sim = freshSimulator();
    for (const path of ['/__sim/fixtures', '/__sim/keys', '/__sim/audit', '/__sim/journal', '/__sim/clock']) {
      const answer = await call(sim, 'GET', path, { headers: { origin: PAGE } });
      expect(answer.headers['Access-Control-Allow-Origin']).toBeUndefined();
      const pre = await preflight(sim, path);
      expect(pre.headers['Access-Control-Allow-Origin']).toBeUndefined();
    }
  });

  it('keeps refusing foreign origins with 403, preflights included, even when the API allows every origin', async () => {
    const sim = createSimulator({ allowedOrigins: ['*'] });
    const signIn = await call(sim, 'POST', '/__sim/sessions', { body: { userId: 'user_alice' }, headers: { origin: 'https://evil.example' } });
    expect(signIn.status).toBe(403);
    expect(corsHeaders(signIn)).toEqual({});
    expect((await preflight(sim, '/__sim/sessions', 'https://evil.example')).status).toBe(403);
  });

  it('lets an allowed local page sign in: preflight 204, then the cookie with CORS headers', async () => {
    const sim = freshSimulator();
    const pre = await preflight(sim, '/__sim/sessions');
    expect(pre.status).toBe(204);
    expect(pre.headers['Access-Control-Allow-Origin']).toBe(PAGE);
    const signIn = await call(sim, 'POST', '/__sim/sessions', { body: { userId: 'user_alice' }, headers: { origin: PAGE } });
    expect(signIn.status).toBe(201);
    expect(signIn.headers['Access-Control-Allow-Origin']).toBe(PAGE);
    expect(signIn.headers['Access-Control-Allow-Credentials']).toBe('true');
    expect(signIn.headers['Set-Cookie']).toContain('databuddy.session_token=');
  });

  it('gives a local page that the API does not allow no CORS headers on the control plane either', async () => {
    const sim = createSimulator({ allowedOrigins: ['http://localhost:5173'] });
    const answer = await call(sim, 'GET', '/__sim/health', { headers: { origin: 'http://localhost:3000' } });
    expect(answer.status).toBe(200);
    expect(corsHeaders(answer)).toEqual({});
  });
});
