import { describe, expect, it } from 'vitest';
import { startServer } from '../../../src/http/node-server.js';
import { SUMMARY_QUERY } from '../../helpers/credentials.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const SITE = { website_id: 'web_acme_store' };

/** The findings of a `Warning` header, without the `199 analytics-sim "…"` framing. */
function warningsOf(answer: Answer): string[] {
  const header = answer.headers.Warning;
  if (header === undefined) return [];
  return [...header.matchAll(/199 analytics-sim "([^"]*)"/g)].map((m) => m[1] as string);
}

/** The body without its request id, to compare two answers' data. */
function dataOf(answer: Answer): unknown {
  const { requestId: _id, ...rest } = answer.json as Record<string, unknown>;
  return rest;
}

describe('what the simulator ignored, said in a Warning header', () => {
  const sim = freshSimulator();
  const key = secretOf(sim, 'key_acme_read');

  it('says a path filter on vitals_overview was ignored, as the service ignores it, and answers the unfiltered rows', async () => {
    const body = { parameters: ['vitals_overview'], preset: 'last_7d' };
    const filtered = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: { ...body, filters: [{ field: 'path', op: 'eq', value: '/nowhere' }] } });
    const plain = await call(sim, 'POST', '/v1/query', { key, query: SITE, body });
    expect(filtered.status).toBe(200);
    expect(filtered.json.data[0].data).toEqual(plain.json.data[0].data);
    expect(warningsOf(filtered)).toEqual(["filters[0].field: Filters on path are listed for vitals_overview but its query applies none on that field, as the service's does: ignored there"]);
    // A breakdown applies it: no warning, and no row for a page that has none.
    const byPage = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: { parameters: ['vitals_by_page'], preset: 'last_7d', filters: [{ field: 'path', op: 'eq', value: '/nowhere' }] } });
    expect(warningsOf(byPage)).toEqual([]);
    expect(byPage.json.data[0].data).toEqual([]);
  });

  it('says a filter on the engagement page types whose passes read every pageview was ignored, and answers their unfiltered rows', async () => {
    for (const type of ['frustration_by_page', 'form_abandonment_by_page', 'engagement_quality_by_page']) {
      const body = { parameters: [type], preset: 'last_7d' };
      const filtered = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: { ...body, filters: [{ field: 'country', op: 'eq', value: 'NOWHERE' }] } });
      const plain = await call(sim, 'POST', '/v1/query', { key, query: SITE, body });
      expect(filtered.status).toBe(200);
      expect(filtered.json.data[0].data).toEqual(plain.json.data[0].data);
      expect(warningsOf(filtered)).toEqual([`filters[0].field: Filters on country are listed for ${type} but its query applies none on that field, as the service's does: ignored there`]);
    }
  });

  it('answers a clean query with no Warning header', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: SUMMARY_QUERY });
    expect(answer.status).toBe(200);
    expect(answer.headers.Warning).toBeUndefined();
  });

  it('answers a misspelt body field as the service does (200, same data) and names it with a did-you-mean', async () => {
    const clean = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: SUMMARY_QUERY });
    const typo = await call(sim, 'POST', '/v1/query', {
      key,
      query: SITE,
      body: { ...SUMMARY_QUERY, filter: [{ field: 'country', op: 'eq', value: 'US' }] },
    });
    expect(typo.status).toBe(200);
    expect(dataOf(typo)).toEqual(dataOf(clean));
    expect(warningsOf(typo)).toEqual(["body.filter: filter is not a field of this request and was ignored. Did you mean 'filters'?"]);
  });

  it('names a camelCase query parameter, and says the answer fell back to the whole organization', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { websiteId: 'web_acme_store' }, body: SUMMARY_QUERY });
    expect(answer.status).toBe(200);
    const warnings = warningsOf(answer);
    expect(warnings).toContain("websiteId: websiteId is not a query parameter of this route and was ignored. Did you mean 'website_id'?");
    expect(warnings.some((w) => /^website_id: No website_id, link_id, schedule_id or organization_id was named: answered for all \d+ websites of organization org_acme/.test(w))).toBe(true);
  });

  it('names a query parameter called constructor, toString or __proto__ in the URL like any other unknown one', async () => {
    const res = await sim.fetch('/v1/query?website_id=web_acme_store&constructor=1&toString=x&__proto__=y', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify(SUMMARY_QUERY),
    });
    expect(res.status).toBe(200);
    const warnings = [...(res.headers.get('warning') ?? '').matchAll(/199 analytics-sim "([^"]*)"/g)].map((m) => m[1]);
    for (const name of ['constructor', 'toString', '__proto__']) expect(warnings).toContain(`${name}: ${name} is not a query parameter of this route and was ignored`);
  });

  it('names a query parameter given twice, with the value it used, over HTTP and through fetch', async () => {
    const url = '/v1/query?website_id=web_acme_store&website_id=web_acme_www';
    const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify(SUMMARY_QUERY) };
    const res = await sim.fetch(url, init);
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBe('199 analytics-sim "website_id: website_id was given more than once; the first value (web_acme_store) was used and the others were ignored"');
    const served = freshSimulator();
    const server = await startServer(served, { port: 0 });
    try {
      const overHttp = await fetch(`${server.url}${url}`, { ...init, headers: { ...init.headers, 'x-api-key': secretOf(served, 'key_acme_read') } });
      expect(overHttp.status).toBe(200);
      expect(overHttp.headers.get('warning')).toBe(res.headers.get('warning'));
    } finally {
      await server.close();
    }
  });

  it('names a parameter written in any script in an ASCII-only Warning header (a header value is bytes), with U+XXXX for what ASCII lacks', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { ...SITE, 'zeitraum😀': 'x"y' }, body: SUMMARY_QUERY });
    expect(answer.status).toBe(200);
    expect(answer.headers.Warning).toMatch(/^[\x20-\x7e]+$/);
    expect(warningsOf(answer)).toContain('zeitraumU+1F600: zeitraumU+1F600 is not a query parameter of this route and was ignored');
  });

  it('says an unknown time zone was ignored, and answers in UTC as the service does', async () => {
    const utc = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: SUMMARY_QUERY });
    const mars = await call(sim, 'POST', '/v1/query', { key, query: { ...SITE, timezone: 'Mars/Olympus_Mons' }, body: SUMMARY_QUERY });
    expect(mars.status).toBe(200);
    expect(dataOf(mars)).toEqual(dataOf(utc));
    expect(warningsOf(mars)).toEqual(['timezone: timezone=Mars/Olympus_Mons is not a value this parameter takes and was ignored']);
  });

  it('says a filter on a field the type does not allow was dropped, though still counted', async () => {
    const answer = await call(sim, 'POST', '/v1/query', {
      key,
      query: SITE,
      body: { ...SUMMARY_QUERY, filters: [{ field: 'contry', op: 'eq', value: 'US' }] },
    });
    expect(answer.status).toBe(200);
    expect(warningsOf(answer)).toEqual([
      "filters[0].field: Filters on contry are not allowed for summary_metrics and were ignored there (still counted in filters_applied, as the service does). Did you mean 'country'?",
    ]);
  });

  it('ignores groupBy on /v1/query, which only /v1/query/compile reads: the same rows as without it, and a Warning says so', async () => {
    const body = { parameters: ['top_pages', 'country'], startDate: '2025-05-26', endDate: '2025-06-01', limit: 5 };
    const plain = await call(sim, 'POST', '/v1/query', { key, query: SITE, body });
    const grouped = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: { ...body, groupBy: ['country', 'path'] } });
    expect(grouped.status).toBe(200);
    expect(grouped.json.data).toEqual(plain.json.data);
    expect(grouped.json.meta).toEqual(plain.json.meta);
    expect(warningsOf(grouped)).toEqual(['body.groupBy: groupBy is not a field of this request and was ignored']);
  });

  it('says the body timeZone is not read', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: { ...SUMMARY_QUERY, timeZone: 'Europe/Berlin' } });
    expect(answer.status).toBe(200);
    expect(warningsOf(answer)).toEqual([
      'timeZone: timeZone in the body is not read and was ignored; send the time zone as ?timezone=. Did you mean the query parameter timezone?',
    ]);
  });

  it('keeps every finding in the journal entry of the request', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { ...SITE, timezon: 'UTC' }, body: { ...SUMMARY_QUERY, preset_: 'x' } });
    const entry = sim.journal.list().find((e) => e.requestId === answer.headers['X-Request-ID']);
    expect(entry?.warnings).toEqual(warningsOf(answer));
    expect(entry?.warnings).toHaveLength(2);
  });

  it('sends at most ten findings in the header however many names a request has', async () => {
    const body: Record<string, unknown> = { ...SUMMARY_QUERY };
    for (let i = 0; i < 5_000; i++) body[`unknown_${i}`] = i;
    const answer = await call(sim, 'POST', '/v1/query', { key, query: SITE, body });
    expect(answer.status).toBe(200);
    expect(warningsOf(answer)).toHaveLength(10);
  });

  it('strips quotes and control characters from a name before it goes into the header', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: { ...SUMMARY_QUERY, 'a"b\\c\nd': 1 } });
    expect(answer.headers.Warning).toBe(`199 analytics-sim "body.a'b'c'd: a'b'c'd is not a field of this request and was ignored"`);
  });
});

describe('strict mode', () => {
  const sim = freshSimulator({ strict: true });
  const key = secretOf(sim, 'key_acme_read');

  it('refuses what would be ignored with 400 VALIDATION_ERROR naming each finding, in the words of the Warning', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: { ...SITE, timezone: 'Nowhere/City' }, body: { ...SUMMARY_QUERY, filter: [] } });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe('VALIDATION_ERROR');
    expect(answer.json.details).toEqual([
      { field: 'body.filter', message: 'filter is not a field of this request and was ignored', suggestion: "Did you mean 'filters'?" },
      { field: 'timezone', message: 'timezone=Nowhere/City is not a value this parameter takes and was ignored' },
    ]);
    expect(answer.headers.Warning).toBeUndefined();
  });

  it('answers a clean query as without strict', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, query: SITE, body: SUMMARY_QUERY });
    expect(answer.status).toBe(200);
  });

  it('refuses an organization-wide fallback, which the service answers for a global key', async () => {
    const answer = await call(sim, 'POST', '/v1/query', { key, body: SUMMARY_QUERY });
    expect(answer.status).toBe(400);
    expect(answer.json.details[0].field).toBe('website_id');
  });
});

describe('query parameters of a route that reads none', () => {
  it('are named in a Warning too, with a did-you-mean where the route has nothing close', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'GET', '/v1/query/websites', { key: secretOf(sim, 'key_acme_read'), query: { organizationId: 'org_acme' } });
    expect(answer.status).toBe(200);
    expect(warningsOf(answer)).toEqual(['organizationId: organizationId is not a query parameter of this route and was ignored']);
    expect(sim.journal.list().at(-1)?.warnings).toEqual(warningsOf(answer));
  });
});

describe('a body sent again', () => {
  it('is warned about again each time: a start after the end, under live, says so on the second answer too', async () => {
    const sim = freshSimulator({ profile: 'live', limits: 'off' });
    const body = { parameters: ['summary_metrics'], startDate: '2025-05-20', endDate: '2025-05-10' };
    const key = secretOf(sim, 'key_acme_read');
    const first = await call(sim, 'POST', '/v1/query', { key, query: SITE, body });
    const second = await call(sim, 'POST', '/v1/query', { key, query: SITE, body });
    expect(first.status).toBe(200);
    expect(warningsOf(first).some((w) => w.includes('startDate 2025-05-20 is after endDate 2025-05-10'))).toBe(true);
    expect(warningsOf(second)).toEqual(warningsOf(first));
    expect(dataOf(second)).toEqual(dataOf(first));
  });
});
