import { describe, expect, it } from 'vitest';
import { allSecrets, bearer, COMPILE_BODY, REQUEST_ID, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer, type CallOptions } from '../../helpers/sim.js';

const sim = freshSimulator();
const secrets = allSecrets(sim);

interface Protected {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly options: CallOptions;
}

/** Every protected route of SPEC 4.1, with a request the global Acme read key may make. */
const PROTECTED: readonly Protected[] = [
  { name: 'GET /v1/query/websites', method: 'GET', path: '/v1/query/websites', options: {} },
  {
    name: 'POST /v1/query',
    method: 'POST',
    path: '/v1/query',
    options: { query: { website_id: 'web_acme_store' }, body: SUMMARY_QUERY },
  },
  { name: 'POST /v1/query/compile', method: 'POST', path: '/v1/query/compile', options: { body: COMPILE_BODY } },
];

function send(route: Protected, headers: Record<string, string>): Promise<Answer> {
  return call(sim, route.method, route.path, { ...route.options, headers });
}

function expectNoSecret(answer: Answer, presented: readonly string[] = []): void {
  const everything = [answer.text, ...Object.values(answer.headers)].join('\n');
  for (const secret of [...secrets, ...presented]) expect(everything).not.toContain(secret);
}

function expectAuthRequired(answer: Answer, hint: RegExp): void {
  expect(answer.status).toBe(401);
  expect(answer.json).toMatchObject({ success: false, code: 'AUTH_REQUIRED', error: 'Authentication required' });
  expect(answer.json.requestId).toMatch(REQUEST_ID);
  expect(answer.json.hint).toEqual(expect.any(String));
  expect(answer.json.hint).toMatch(hint);
  const challenge = answer.headers['WWW-Authenticate'];
  expect(challenge).toEqual(expect.any(String));
  expect(challenge).toMatch(/^Bearer\b/);
}

describe('authentication by API key', () => {
  it.each(PROTECTED)('accepts a valid key in the x-api-key header on $name', async (route) => {
    const answer = await send(route, { 'x-api-key': secretOf(sim, 'key_acme_read') });
    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
    expectNoSecret(answer);
  });

  it.each(PROTECTED)('accepts a valid key as Authorization: Bearer on $name', async (route) => {
    const answer = await send(route, bearer(secretOf(sim, 'key_acme_read')));
    expect(answer.status).toBe(200);
    expect(answer.json.success).toBe(true);
  });

  it.each(['bearer', 'BEARER', 'bEaReR'])('reads the Bearer scheme case-insensitively (%s)', async (scheme) => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: bearer(secretOf(sim, 'key_acme_read'), scheme) });
    expect(answer.status).toBe(200);
    expect(answer.json.total).toBeGreaterThan(0);
  });

  it('lets the x-api-key header win over a Bearer token on the same request', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      headers: { 'x-api-key': secretOf(sim, 'key_globex_read'), ...bearer(secretOf(sim, 'key_acme_read')) },
    });
    expect(answer.status).toBe(200);
    const orgs = new Set((answer.json.websites as { organizationId: string }[]).map((w) => w.organizationId));
    expect([...orgs]).toEqual(['org_globex']);
  });

  it('judges the x-api-key header alone when it is present, even if a valid Bearer token follows', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      headers: { 'x-api-key': secretOf(sim, 'key_acme_revoked'), ...bearer(secretOf(sim, 'key_acme_read')) },
    });
    expectAuthRequired(answer, /revoked/i);
  });
});

interface Refusal {
  readonly why: string;
  readonly credential: () => string | undefined;
  readonly hint: RegExp;
}

const REFUSALS: readonly Refusal[] = [
  { why: 'a malformed key (not dbdy_…)', credential: () => 'sk_live_0123456789abcdefghijklmnop', hint: /malformed|dbdy_/i },
  { why: 'a too-short dbdy_ key', credential: () => 'dbdy_abc', hint: /malformed/i },
  { why: 'an unknown key', credential: () => `dbdy_${'Z'.repeat(48)}`, hint: /not recogni[sz]ed|unknown/i },
  { why: 'an expired key', credential: () => secretOf(sim, 'key_acme_expired'), hint: /expired/i },
  { why: 'a revoked key', credential: () => secretOf(sim, 'key_acme_revoked'), hint: /revoked/i },
  { why: 'a disabled key', credential: () => secretOf(sim, 'key_acme_disabled'), hint: /disabled/i },
];

describe('refused credentials', () => {
  const cases = REFUSALS.flatMap((refusal) =>
    PROTECTED.flatMap((route) =>
      (['x-api-key', 'bearer'] as const).map((via) => ({ ...refusal, route, via, label: `${refusal.why} via ${via} on ${route.name}` })),
    ),
  );

  it.each(cases)(
    'refuses $label with 401 AUTH_REQUIRED, a WWW-Authenticate challenge and a hint that says why',
    async ({ credential, hint, route, via }) => {
      const secret = credential() as string;
      const headers = via === 'x-api-key' ? { 'x-api-key': secret } : bearer(secret);
      const answer = await send(route, headers);
      expectAuthRequired(answer, hint);
      expectNoSecret(answer, [secret]);
    },
  );

  it.each(PROTECTED)('refuses a request with no credential on $name with 401 and a hint naming the headers', async (route) => {
    const answer = await send(route, {});
    expectAuthRequired(answer, /x-api-key/i);
    expectNoSecret(answer);
  });

  it('treats an Authorization header with another scheme as no credential', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', {
      headers: { authorization: `Basic ${Buffer.from(`user:${secretOf(sim, 'key_acme_read')}`).toString('base64')}` },
    });
    expectAuthRequired(answer, /x-api-key/i);
  });

  it('treats an empty Bearer token as no credential', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: { authorization: 'Bearer ' } });
    expectAuthRequired(answer, /x-api-key/i);
  });

  it('refuses a 100 KB key without echoing it', async () => {
    const huge = `dbdy_${'q'.repeat(100_000)}`;
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: { 'x-api-key': huge } });
    expectAuthRequired(answer, /malformed/i);
    expect(answer.text.length).toBeLessThan(2_000);
    expectNoSecret(answer, [huge.slice(0, 60)]);
  });

  it('never echoes a valid secret in a successful answer', async () => {
    for (const route of PROTECTED) {
      const answer = await send(route, { 'x-api-key': secretOf(sim, 'key_acme_all') });
      expect(answer.status).toBe(200);
      expectNoSecret(answer);
    }
  });
});
