import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import { rowsOf, runCompile, runQuery, WWW } from './support.js';

const sim = freshSimulator();
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

/** The SPEC 7.1 error body: success false, error, code, and the request id of the header. */
function expectErrorBody(res: Answer, status: number, code: string): void {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers['Content-Type']).toMatch(/^application\/json/);
  expect(res.json.success).toBe(false);
  expect(res.json.code).toBe(code);
  expect(typeof res.json.error).toBe('string');
  expect((res.json.error as string).length).toBeGreaterThan(0);
  expect(res.json.requestId).toMatch(/^req_[A-Za-z0-9]{16}$/);
  expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
}

type Detail = { field: string; message: string; suggestion?: string };
const detailsOf = (res: Answer): Detail[] => res.json.details as Detail[];

describe('route validation: 400 VALIDATION_ERROR', () => {
  it('requires a date range: "Either startDate or preset is required"', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'] });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Either startDate or preset is required');
    expect(detailsOf(res)).toEqual([
      { field: 'startDate', message: 'Either startDate or preset is required' },
      { field: 'endDate', message: 'Either endDate or preset is required' },
    ]);
  });

  it('requires endDate when only startDate is given', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2025-05-01' });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Either endDate or preset is required');
    expect(detailsOf(res)).toEqual([{ field: 'endDate', message: 'Either endDate or preset is required' }]);
  });

  it('rejects the impossible date 2024-13-45', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2024-13-45', endDate: '2024-12-31' });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Invalid date: 2024-13-45. Could not parse as a valid date');
    expect(detailsOf(res)[0]).toEqual({ field: 'startDate', message: 'Invalid date: 2024-13-45. Could not parse as a valid date' });
  });

  it('rejects an unparseable endDate on the endDate field', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2025-05-01', endDate: 'next tuesday' });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(detailsOf(res)).toEqual([{ field: 'endDate', message: 'Invalid date: next tuesday. Could not parse as a valid date' }]);
  });

  it('rejects an invalid date in a parameter object, naming that parameter', async () => {
    const res = await runQuery(sim, { parameters: ['top_pages', { name: 'summary_metrics', start_date: '2025-02-30', end_date: '2025-03-01' }], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(detailsOf(res)[0]?.field).toMatch(/^parameters\[1\]/);
    expect(detailsOf(res)[0]?.message).toBe('Invalid date: 2025-02-30. Could not parse as a valid date');
  });

  it("rejects an unknown query type with 400 VALIDATION_ERROR and a Did-you-mean suggestion ('summry' → 'summary_metrics')", async () => {
    const res = await runQuery(sim, { parameters: ['summry'], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(detailsOf(res)).toEqual([{ field: 'parameters[0]', message: 'Unknown query type: summry', suggestion: "Did you mean 'summary_metrics'?" }]);
    expect(res.json.error).toBe("Unknown query type: summry. Did you mean 'summary_metrics'?");
  });

  it("suggests the closest type for a near miss ('top_page' → 'top_pages') and joins it to the message", async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics', 'top_page'], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(detailsOf(res)).toEqual([{ field: 'parameters[1]', message: 'Unknown query type: top_page', suggestion: "Did you mean 'top_pages'?" }]);
    expect(res.json.error).toBe("Unknown query type: top_page. Did you mean 'top_pages'?");
  });

  it('gives no suggestion when no type is close', async () => {
    const res = await runQuery(sim, { parameters: ['qqqqqqqqqqqqqqqqqqqq'], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Unknown query type: qqqqqqqqqqqqqqqqqqqq');
    expect(detailsOf(res)).toEqual([{ field: 'parameters[0]', message: 'Unknown query type: qqqqqqqqqqqqqqqqqqqq' }]);
  });

  it('knows only the registry’s own type names: constructor, __proto__, toString and hasOwnProperty are unknown types on /v1/query and /v1/query/compile', async () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    const res = await runQuery(sim, { parameters: [...names.slice(0, 2), { name: names[2] as string }, { name: names[3] as string, id: 'own' }], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Unknown query type: constructor');
    expect(detailsOf(res)).toEqual(names.map((name, i) => ({ field: `parameters[${i}]`, message: `Unknown query type: ${name}` })));
    for (const name of names) {
      const compiled = await runCompile(sim, { projectId: 'web_acme_www', type: name, from: '2025-05-01', to: '2025-05-02' });
      expectErrorBody(compiled, 400, 'COMPILATION_ERROR');
      expect(compiled.json.error, name).toMatch(new RegExp(`^Unknown query type: ${name}`));
    }
  });

  it('rejects the whole query when one of several parameters is unknown', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics', 'top_pages', 'nope_nope_nope'], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(detailsOf(res).map((d) => d.field)).toEqual(['parameters[2]']);
  });

  it('rejects an empty parameters list: "At least one parameter is required"', async () => {
    const res = await runQuery(sim, { parameters: [], ...WEEK });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('At least one parameter is required');
    expect(detailsOf(res)).toEqual([{ field: 'parameters', message: 'At least one parameter is required' }]);
  });

  it('collects every problem in details and reports the first as the error', async () => {
    const res = await runQuery(sim, { parameters: ['summry'], limit: 0, page: 0 });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    const fields = detailsOf(res).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['parameters[0]', 'startDate', 'endDate', 'limit', 'page']));
    expect(res.json.error.startsWith(detailsOf(res)[0]?.message)).toBe(true);
  });

  it('rejects hourly granularity over more than 30 days with 400 "Hourly granularity only supports up to 30 days"', async () => {
    const res = await runQuery(sim, { parameters: ['events_by_date'], startDate: '2025-04-01', endDate: '2025-05-01', granularity: 'hourly' });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Hourly granularity only supports up to 30 days');
  });

  it('rejects an hourly last_90d preset the same way', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'], preset: 'last_90d', granularity: 'hour' });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.json.error).toBe('Hourly granularity only supports up to 30 days');
  });

  it('accepts hourly granularity over exactly 30 days, with 720 hourly rows', async () => {
    const res = await runQuery(sim, { parameters: ['summary_metrics'], startDate: '2025-04-01', endDate: '2025-04-30', granularity: 'hourly', limit: 10000 });
    expect(res.status).toBe(200);
    expect(rowsOf(res, 'summary_metrics').length).toBe(720);
  });
});

describe('body decoding: 400 PARSE and 422 VALIDATION', () => {
  it('rejects malformed JSON with 400 PARSE', async () => {
    const res = await call(sim, 'POST', '/v1/query', { query: WWW, key: secretOf(sim, 'key_acme_read'), body: '{"parameters": ["summary_metrics",' });
    expectErrorBody(res, 400, 'PARSE');
    expect(res.json.error).toBe('The request could not be read. Check that it is valid JSON and try again.');
  });

  it.each([
    ['no parameters', { ...WEEK }, 'body.parameters'],
    ['parameters that are not a list', { parameters: 'summary_metrics', ...WEEK }, 'body.parameters'],
    ['an unknown preset', { parameters: ['summary_metrics'], preset: 'last_8d' }, 'body.preset'],
    ['an unknown granularity', { parameters: ['summary_metrics'], ...WEEK, granularity: 'weekly' }, 'body.granularity'],
    ['a limit that is a string', { parameters: ['summary_metrics'], ...WEEK, limit: 'x' }, 'body.limit'],
    ['a fractional limit', { parameters: ['summary_metrics'], ...WEEK, limit: 1.5 }, 'body.limit'],
    ['a fractional page', { parameters: ['summary_metrics'], ...WEEK, page: 1.5 }, 'body.page'],
    ['a parameter object without a name', { parameters: [{ id: 'x' }], ...WEEK }, 'body.parameters[0]'],
    ['a startDate that is a number', { parameters: ['summary_metrics'], startDate: 20250501, endDate: '2025-05-02' }, 'body.startDate'],
  ])('rejects %s with 422 VALIDATION naming the field', async (_label, body, field) => {
    const res = await runQuery(sim, body);
    expectErrorBody(res, 422, 'VALIDATION');
    expect(res.json.error).toBe('Some of the details are invalid. Check them and try again.');
    expect(detailsOf(res).map((d) => d.field)).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}`))]));
  });
});

describe('every refusal of POST /v1/query has the SPEC 7.1 body', () => {
  it.each([
    ['no key on a private website', () => runQuery(sim, { parameters: ['summary_metrics'], ...WEEK }, WWW, null), 401, 'AUTH_REQUIRED'],
    ['a key without read:data', () => runQuery(sim, { parameters: ['summary_metrics'], ...WEEK }, WWW, 'key_acme_track'), 403, 'FORBIDDEN'],
    ['a website of another organization', () => runQuery(sim, { parameters: ['summary_metrics'], ...WEEK }, { website_id: 'web_globex_www' }), 403, 'ACCESS_DENIED'],
    ['a restricted key with no resource id', () => runQuery(sim, { parameters: ['summary_metrics'], ...WEEK }, {}, 'key_acme_store_only'), 400, 'MISSING_PROJECT_ID'],
    ['a missing date range', () => runQuery(sim, { parameters: ['summary_metrics'] }), 400, 'VALIDATION_ERROR'],
    ['a schema violation', () => runQuery(sim, { parameters: ['summary_metrics'], ...WEEK, limit: 'many' }), 422, 'VALIDATION'],
  ] as const)('answers %s with success:false, error, code and requestId == X-Request-ID', async (_label, send, status, code) => {
    expectErrorBody(await send(), status, code);
  });
});
