import { describe, expect, it } from 'vitest';
import { MAX_ERROR_DETAILS, REQUEST_LIMITS } from '../../../src/contract/request-limits.js';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';

const sim = freshSimulator();
const live = freshSimulator({ profile: 'live' });
const KEY = secretOf(sim, 'key_acme_all');
const SITE = { website_id: 'web_acme_store' };

function query(target: typeof sim, body: unknown, key?: string): Promise<Answer> {
  return call(target, 'POST', '/v1/query', { query: SITE, body, ...(key ? { key } : {}) });
}

/** A 400 VALIDATION_ERROR whose one detail names the field, the cap and the count sent. */
function expectCapRefusal(res: Answer, field: string, cap: number, sent: number): void {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.json.code).toBe('VALIDATION_ERROR');
  expect(res.json.details).toHaveLength(1);
  expect(res.json.details[0].field).toBe(field);
  expect(res.json.details[0].message).toContain(`At most ${cap} `);
  expect(res.json.details[0].message).toContain(`got ${sent}`);
  expect(res.json.error).toBe(res.json.details[0].message);
}

describe('request size caps', () => {
  it('refuses 45,000 invalid filters with 400 naming the filter cap and the count, before authentication', async () => {
    const res = await query(sim, { parameters: ['summary_metrics'], preset: 'today', filters: Array.from({ length: 45_000 }, () => ({ field: 1 })) });
    expectCapRefusal(res, 'body.filters', REQUEST_LIMITS.filters, 45_000);
    expect(res.json.error).toBe('At most 100 filters are accepted in one query; got 45000');
  });

  it('refuses the same filters inside a batch, naming the item', async () => {
    const res = await query(sim, [{ parameters: ['summary_metrics'], preset: 'today', filters: Array.from({ length: 45_000 }, () => ({ field: 1 })) }], KEY);
    expectCapRefusal(res, 'body[0].filters', REQUEST_LIMITS.filters, 45_000);
  });

  it('refuses 100,000 unknown parameter names with a small body naming the parameter cap', async () => {
    const res = await query(sim, { parameters: Array.from({ length: 100_000 }, (_, i) => i.toString(36)), preset: 'today' }, KEY);
    expectCapRefusal(res, 'body.parameters', REQUEST_LIMITS.queryParameters, 100_000);
    expect(res.text.length).toBeLessThan(1024);
  });

  it('refuses a batch over the batch cap, a value list over its cap and a key with too many scopes', async () => {
    const batch = await query(live, Array.from({ length: 1001 }, () => ({ parameters: ['summary_metrics'], preset: 'today' })), KEY);
    expectCapRefusal(batch, 'body', REQUEST_LIMITS.batchQueries, 1001);
    const values = await query(sim, { parameters: ['summary_metrics'], preset: 'today', filters: [{ field: 'path', op: 'in', value: Array.from({ length: 1001 }, (_, i) => i) }] }, KEY);
    expectCapRefusal(values, 'body.filters[0].value', REQUEST_LIMITS.filterValues, 1001);
    const compile = await call(sim, 'POST', '/v1/query/compile', {
      body: { projectId: 'web_acme_store', type: 'summary_metrics', from: '2025-05-01', to: '2025-05-31', groupBy: Array.from({ length: 21 }, () => 'path') },
      key: KEY,
    });
    expectCapRefusal(compile, 'body.groupBy', REQUEST_LIMITS.groupBy, 21);
    const key = await call(sim, 'POST', '/__sim/keys', { body: { name: 'many', organizationId: 'org_acme', scopes: Array.from({ length: 51 }, () => 'read:data') } });
    expectCapRefusal(key, 'body.scopes', REQUEST_LIMITS.keyScopes, 51);
  });

  it('refuses lists that are each within their cap but together over the total', async () => {
    const body = Array.from({ length: 11 }, () => ({ parameters: ['summary_metrics'], preset: 'today', filters: [{ field: 'path', op: 'in', value: Array.from({ length: 1000 }, (_, i) => i) }] }));
    const res = await query(live, body, KEY);
    // 11 queries, their 33 fields, 11 parameters, 11 filters, their 33 fields and 11,000 values.
    expectCapRefusal(res, 'body', REQUEST_LIMITS.totalItems, 11 + 33 + 11 + 11 + 33 + 11_000);
  });

  it('keeps the track batch refusal in its own shape', async () => {
    const res = await call(sim, 'POST', '/track', { query: SITE, body: Array.from({ length: 101 }, () => ({ name: 'x' })) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('INVALID_EVENT_SCHEMA');
    expect(res.json.details).toEqual([{ field: 'body', message: 'A batch holds at most 100 events' }]);
  });

  it('shows each cap in the OpenAPI document as maxItems', async () => {
    const doc = await call(sim, 'GET', '/openapi.json');
    for (const cap of [REQUEST_LIMITS.batchQueries, REQUEST_LIMITS.queryParameters, REQUEST_LIMITS.filters, REQUEST_LIMITS.filterValues]) {
      expect(doc.text).toContain(`"maxItems":${cap}`);
    }
    expect(doc.text).toContain('detailsTotal');
  });
});

describe('error bodies list a bounded number of problems', () => {
  it('lists the first 20 unknown query types of a batch of 9,000 and says how many the first invalid query had (live lists only that one)', async () => {
    const body = Array.from({ length: 180 }, () => ({ parameters: Array.from({ length: 50 }, (_, i) => `nope_${i}`), preset: 'today' }));
    const res = await query(live, body, KEY);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_ERROR');
    expect(res.json.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(res.json.detailsTotal).toBe(50);
    expect(res.json.details[0]).toMatchObject({ field: 'batch[0].parameters[0]', message: 'Unknown query type: nope_0' });
    expect(res.text.length).toBeLessThan(4096);
  });

  it('lists the first 20 of 100 schema problems and says how many there were', async () => {
    const res = await query(sim, { parameters: ['summary_metrics'], preset: 'today', filters: Array.from({ length: 100 }, () => ({ field: 1, op: 'eq', value: '/' })) }, KEY);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('VALIDATION');
    expect(res.json.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(res.json.detailsTotal).toBe(100);
    expect(res.json.details[0].field).toBe('body.filters[0].field');
  });

  it('sends no detailsTotal when every problem is listed', async () => {
    const res = await query(sim, { parameters: ['summary_metrics'], preset: 'today', filters: [{ field: 1, op: 'eq', value: '/' }] }, KEY);
    expect(res.status).toBe(422);
    expect(res.json.details).toHaveLength(1);
    expect(res.json).not.toHaveProperty('detailsTotal');
  });
});

describe('bodies refused before their cost', () => {
  it('refuses JSON nested deeper than the cap before parsing it, naming the cap and the depth', async () => {
    const res = await query(sim, '['.repeat(100_000) + ']'.repeat(100_000));
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_ERROR');
    expect(res.json.details).toEqual([{ field: 'body', message: `At most ${REQUEST_LIMITS.jsonDepth} levels of nested arrays and objects are accepted; got 100000` }]);
  });

  it('does not count brackets inside strings as nesting', async () => {
    const res = await query(sim, { parameters: ['summary_metrics'], preset: 'today', id: '['.repeat(1000) }, KEY);
    expect(res.status).toBe(200);
  });

  it('refuses an object of 70,000 fields by counting them before parsing, and an unrecognized-keys message stays short', async () => {
    const fields = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`k${i}`, 1]));
    const res = await query(sim, fields, KEY);
    expectCapRefusal(res, 'body', REQUEST_LIMITS.objectFields, 70_000);
    const many = await query(sim, Array.from({ length: 120_000 }, () => ({})), KEY);
    expectCapRefusal(many, 'body', REQUEST_LIMITS.jsonNodes, 120_001);
    const key = await call(sim, 'POST', '/__sim/keys', { body: { name: 'n', organizationId: 'org_acme', scopes: ['read:data'], ...Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`k${i}`, 1])) } });
    expect(key.status).toBe(422);
    expect(key.text.length).toBeLessThan(2048);
    expect(key.json.details[0].message).toMatch(/^Unrecognized keys: "k0", .* and 895 more$/);
  });
});
