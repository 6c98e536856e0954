import { describe, expect, it } from 'vitest';
import { COMPILE_BODY, REQUEST_ID, SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

/**
 * Errors and hostile input through the core (in process): every refusal is a JSON body of
 * SPEC 7.1 with a 4xx status; nothing is a 500 or shows a stack trace.
 */
const sim = freshSimulator();
const key = secretOf(sim, 'key_acme_read');

const STACK = /\bat [\w.<>]+ \(|node:internal|node_modules|\.ts:\d+:\d+|\.js:\d+:\d+|TypeError|RangeError|SyntaxError/;

function expectClean4xx(answer: Answer, status?: number): void {
  if (status !== undefined) expect(answer.status).toBe(status);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.headers['Content-Type']).toMatch(/^application\/json/);
  expect(answer.json).toMatchObject({ success: false, code: expect.any(String), error: expect.any(String) });
  expect(answer.json.requestId).toMatch(REQUEST_ID);
  expect(answer.json.requestId).toBe(answer.headers['X-Request-ID']);
  expect(answer.text).not.toMatch(STACK);
}

describe('routing errors', () => {
  it.each(['/nope', '/v1', '/v1/query/types/extra', '/v2/query', '/V1/QUERY/TYPES'])(
    'answers the unknown route %s with a JSON 404 NOT_FOUND and a requestId',
    async (path) => {
      const answer = await call(sim, 'GET', path);
      expectClean4xx(answer, 404);
      expect(answer.json.code).toBe('NOT_FOUND');
    },
  );

  it.each([
    ['GET', '/', 'POST'],
    ['DELETE', '/v1/query', 'POST'],
    ['GET', '/v1/query', 'POST'],
    ['PUT', '/v1/query/compile', 'POST'],
    ['POST', '/v1/query/websites', 'GET'],
    ['PATCH', '/v1/query/types', 'GET'],
    ['DELETE', '/__sim/health', 'GET'],
  ])('answers %s %s with 405 METHOD_NOT_ALLOWED and an Allow header listing %s', async (method, path, allowed) => {
    const answer = await call(sim, method, path);
    expectClean4xx(answer, 405);
    expect(answer.json.code).toBe('METHOD_NOT_ALLOWED');
    expect(answer.headers.Allow?.split(/,\s*/)).toContain(allowed);
  });

  it('ignores a trailing slash on a known path', async () => {
    const answer = await call(sim, 'GET', '/v1/query/types/');
    expect(answer.status).toBe(200);
  });
});

describe('body errors', () => {
  it.each([
    ['/v1/query', '{"parameters": ['],
    ['/v1/query', "{'parameters': ['summary_metrics']}"],
    ['/v1/query', '{"parameters": ["summary_metrics"],}'],
    ['/v1/query/compile', 'projectId=web_acme_store'],
    ['/__sim/clock', '{"advanceMs": 10'],
  ])('answers malformed JSON on %s with 400 PARSE', async (path, body) => {
    const answer = await call(sim, 'POST', path, { key, query: { website_id: 'web_acme_store' }, body });
    expectClean4xx(answer, 400);
    expect(answer.json).toMatchObject({
      code: 'PARSE',
      error: 'The request could not be read. Check that it is valid JSON and try again.',
    });
  });

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8'])(
    'answers a %s body with 415',
    async (contentType) => {
      const answer = await call(sim, 'POST', '/v1/query', {
        key,
        query: { website_id: 'web_acme_store' },
        headers: { 'content-type': contentType },
        body: 'parameters=summary_metrics&preset=last_7d',
      });
      expectClean4xx(answer, 415);
      expect(answer.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(answer.json.hint).toMatch(/application\/json/);
    },
  );

  it.each([
    ['parameters as a string', { parameters: 'summary_metrics' }, 'body.parameters'],
    ['a parameter of the wrong type', { parameters: [42], preset: 'last_7d' }, 'body.parameters[0]'],
    ['a missing parameters field', { preset: 'last_7d' }, 'body.parameters'],
    ['an unknown preset', { parameters: ['summary_metrics'], preset: 'last_1000d' }, 'body.preset'],
    ['a limit of the wrong type', { parameters: ['summary_metrics'], preset: 'last_7d', limit: 'ten' }, 'body.limit'],
    ['an unknown filter operator', { parameters: ['summary_metrics'], preset: 'last_7d', filters: [{ field: 'country', op: 'like', value: 'US' }] }, 'body.filters[0].op'],
  ])('answers a body with %s with 422 VALIDATION and details naming the field', async (_label, body, field) => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body });
    expectClean4xx(answer, 422);
    expect(answer.json.code).toBe('VALIDATION');
    expect(answer.json.details.length).toBeGreaterThan(0);
    for (const detail of answer.json.details) expect(detail).toMatchObject({ field: expect.any(String), message: expect.any(String) });
    expect(answer.json.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it.each([['42'], ['null'], ['"summary_metrics"'], ['true']])('answers the JSON body %s with 422 VALIDATION', async (body) => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body });
    expectClean4xx(answer, 422);
    expect(answer.json.details.length).toBeGreaterThan(0);
  });

  it('answers a missing body with 422 VALIDATION', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' } });
    expectClean4xx(answer, 422);
  });

  it('answers a compile body of the wrong shape with 422 VALIDATION', async () => {
    const answer = await call(sim, 'POST', '/v1/query/compile', { key, body: { ...COMPILE_BODY, limit: 0 } });
    expectClean4xx(answer, 422);
    expect(answer.json.details.map((d: { field: string }) => d.field)).toContain('body.limit');
  });

  it('caps the details at 20 and says how many there were', async () => {
    const parameters = Array.from({ length: 50 }, (_, i) => i);
    const filters = Array.from({ length: 60 }, () => ({ field: 1, op: 'nope' }));
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body: { parameters, filters } });
    expectClean4xx(answer, 422);
    expect(answer.json.details.length).toBeLessThanOrEqual(20);
    expect(answer.json.detailsTotal).toBeGreaterThan(20);
  });
});

describe('hostile input', () => {
  it('answers very long header values without a 500', async () => {
    const long = 'x'.repeat(64 * 1024);
    const types = await call(sim, 'GET', '/v1/query/types', {
      headers: { 'user-agent': long, 'x-forwarded-for': long, referer: long, 'accept-language': long },
    });
    expect(types.status).toBe(200);
    const cookie = await call(sim, 'GET', '/v1/query/websites', { headers: { cookie: `databuddy.session_token=${long}` } });
    expectClean4xx(cookie, 401);
    const bearerToken = await call(sim, 'GET', '/v1/query/websites', { headers: { authorization: `Bearer ${long}` } });
    expectClean4xx(bearerToken, 401);
    expect(bearerToken.text.length).toBeLessThan(2_000);
    const contentType = await call(sim, 'POST', '/v1/query', {
      key,
      query: { website_id: 'web_acme_store' },
      headers: { 'content-type': `multipart/form-data; boundary=${long}` },
      body: 'x',
    });
    expectClean4xx(contentType, 415);
    expect(contentType.text.length).toBeLessThan(2_000);
  });

  it('answers a 10 KB path with a short 404', async () => {
    const answer = await call(sim, 'GET', `/v1/${'a'.repeat(10 * 1024)}`);
    expectClean4xx(answer, 404);
    expect(answer.text.length).toBeLessThan(2_000);
  });

  it.each(['/v1/query/%E0%A4%A', '/%', '/v1/%00/query', '/__sim/%ZZ', '/v1/query/%2e%2e/%2e%2e/etc/passwd', '/v1//query', '/v1/query/types%00'])(
    'answers the percent-garbage path %s with a clean 4xx',
    async (path) => {
      expectClean4xx(await call(sim, 'GET', path));
      expectClean4xx(await call(sim, 'POST', path, { key, body: SUMMARY_QUERY }));
    },
  );

  it('answers unicode and garbage in query-string values with a clean answer', async () => {
    const odd = await call(sim, 'POST', '/v1/query', {
      key,
      query: { website_id: 'ウェブサイト🚀\u0000\u202e', timezone: 'Europe/Zürich' },
      body: SUMMARY_QUERY,
    });
    expectClean4xx(odd, 403);
    expect(odd.json.code).toBe('ACCESS_DENIED');

    const timezone = await call(sim, 'POST', '/v1/query', {
      key,
      query: { website_id: 'web_acme_store', timezone: '🕰️/Nowhere', 'ключ': 'значение' },
      body: SUMMARY_QUERY,
    });
    expect(timezone.status).toBe(200);

    const types = await call(sim, 'GET', '/v1/query/types', { query: { include_meta: '✓✓✓', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢': '💥' } });
    expect(types.status).toBe(200);
  });

  it('answers a unicode parameter name with a clean 400', async () => {
    const answer = await call(sim, 'POST', '/v1/query', {
      key,
      query: { website_id: 'web_acme_store' },
      body: { parameters: ['summary_metrics\u0000', '💥'], preset: 'last_7d' },
    });
    expectClean4xx(answer, 400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
  });

  it('answers prototype-pollution style JSON with a clean 4xx and pollutes nothing', async () => {
    const bodies = [
      '{"__proto__": {"polluted": true, "isPublic": true}, "parameters": ["summary_metrics"]}',
      '{"constructor": {"prototype": {"polluted": true}}, "parameters": ["summary_metrics"]}',
      '{"parameters": [{"name": "summary_metrics", "__proto__": {"polluted": true}}], "__proto__": null}',
      '[{"__proto__": {"polluted": true}, "parameters": ["summary_metrics"]}]',
    ];
    for (const body of bodies) {
      const answer = await call(sim, 'POST', '/v1/query', { key, query: { website_id: 'web_acme_store' }, body });
      expectClean4xx(answer);
      const anonymous = await call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, body });
      expectClean4xx(anonymous);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isPublic).toBeUndefined();
  });

  it('does not let a __proto__ field advance the clock or reseed the simulator', async () => {
    const own = freshSimulator();
    const clock = await call(own, 'POST', '/__sim/clock', { body: '{"__proto__": {"advanceMs": 1000}}' });
    expect(clock.status).toBeLessThan(500);
    expect((await call(own, 'GET', '/__sim/clock')).json.now).toBe(Date.UTC(2025, 5, 2, 12));
    const reset = await call(own, 'POST', '/__sim/reset', { body: '{"__proto__": {"seed": "evil"}}' });
    expect(reset.status).toBeLessThan(500);
    expect((await call(own, 'GET', '/__sim/health')).json.seed).toBe('42');
    expect(({} as Record<string, unknown>).seed).toBeUndefined();
  });

  it('answers deeply nested JSON with a clean 4xx', async () => {
    const depth = 5_000;
    const answer = await call(sim, 'POST', '/v1/query', {
      key,
      query: { website_id: 'web_acme_store' },
      body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
    });
    expectClean4xx(answer);
    const objects = await call(sim, 'POST', '/v1/query', {
      key,
      query: { website_id: 'web_acme_store' },
      body: `{"parameters":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
    });
    expectClean4xx(objects);
  });

  it('answers a header value with control characters without a 500', async () => {
    const answer = await call(sim, 'GET', '/v1/query/websites', { headers: { 'x-api-key': 'dbdy_\u0000\r\n\u0007abc' } });
    expectClean4xx(answer, 401);
  });

  it('answers an odd method with a clean 4xx', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'BREW']) {
      expectClean4xx(await call(sim, method, '/v1/query'));
      expectClean4xx(await call(sim, method, '/nowhere'));
    }
  });
});
