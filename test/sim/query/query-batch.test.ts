import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { runQuery } from './support.js';

const sim = freshSimulator();
const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };

describe('POST /v1/query, batch (array body)', () => {
  it('answers success, batch:true and one result per query, in order', async () => {
    const res = await runQuery(sim, [
      { id: 'overview', parameters: ['summary_metrics'], ...WEEK },
      { id: 'pages', parameters: ['top_pages', 'entry_pages'], preset: 'last_7d', limit: 5 },
      { parameters: ['browser_name'], ...WEEK },
    ]);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['success', 'requestId', 'batch', 'results']);
    expect(res.json.success).toBe(true);
    expect(res.json.batch).toBe(true);
    expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
    const results = res.json.results as { queryId: string; data: { parameter: string }[]; meta: Record<string, unknown> }[];
    expect(results.map((r) => r.queryId)).toEqual(['overview', 'pages', '']);
    expect(results.map((r) => r.data.map((d) => d.parameter))).toEqual([['summary_metrics'], ['top_pages', 'entry_pages'], ['browser_name']]);
  });

  it('gives each result exactly queryId, data and meta', async () => {
    const res = await runQuery(sim, [{ id: 'a', parameters: ['summary_metrics'], ...WEEK }]);
    for (const result of res.json.results) expect(Object.keys(result)).toEqual(['queryId', 'data', 'meta']);
  });

  it('gives each query its own meta: page, limit, filters_applied and parameters', async () => {
    const res = await runQuery(sim, [
      { parameters: ['top_pages'], ...WEEK, limit: 3, page: 2, filters: [{ field: 'country', op: 'eq', value: 'US' }] },
      { parameters: ['summary_metrics', 'browser_name'], ...WEEK },
    ]);
    expect(res.json.results[0].meta).toEqual({ parameters: ['top_pages'], total_parameters: 1, page: 2, limit: 3, filters_applied: 1 });
    expect(res.json.results[1].meta).toEqual({ parameters: ['summary_metrics', 'browser_name'], total_parameters: 2, page: 1, limit: 100, filters_applied: 0 });
  });

  it('gives each query of a batch the same data and meta as when it is sent alone', async () => {
    const queries = [
      { id: 'q1', parameters: ['summary_metrics', 'top_pages'], ...WEEK, limit: 7 },
      { id: 'q2', parameters: ['country'], preset: 'last_14d', filters: [{ field: 'device_type', op: 'eq', value: 'mobile' }] },
      { id: 'q3', parameters: [{ name: 'events_by_date', id: 'hours' }], startDate: '2025-06-01', endDate: '2025-06-01', granularity: 'hourly' },
    ];
    const batch = await runQuery(sim, queries);
    for (const [i, query] of queries.entries()) {
      const single = await runQuery(sim, query);
      expect(batch.json.results[i], query.id).toEqual({ queryId: single.json.queryId, data: single.json.data, meta: single.json.meta });
    }
  });

  it('keeps failed parameters inside their own query result', async () => {
    const res = await runQuery(sim, [
      { parameters: ['link_total_clicks', 'summary_metrics'], ...WEEK },
      { parameters: ['top_pages'], ...WEEK },
    ]);
    expect(res.json.results[0].data.map((d: { parameter: string; success: boolean }) => [d.parameter, d.success])).toEqual([
      ['summary_metrics', true],
      ['link_total_clicks', false],
    ]);
    expect(res.json.results[1].data[0].success).toBe(true);
  });

  it('rejects the whole batch when one query is invalid, naming the field with its batch[i]. prefix', async () => {
    const res = await runQuery(sim, [
      { parameters: ['summary_metrics'], ...WEEK },
      { parameters: ['summary_metrics', 'qqqq_zzzz'], ...WEEK },
    ]);
    expect(res.status).toBe(400);
    expect(res.json).toEqual(
      expect.objectContaining({ success: false, code: 'VALIDATION_ERROR', error: 'Unknown query type: qqqq_zzzz', requestId: res.headers['X-Request-ID'] }),
    );
    expect(res.json.details).toEqual([{ field: 'batch[1].parameters[1]', message: 'Unknown query type: qqqq_zzzz' }]);
  });

  it('prefixes date, limit and page problems with batch[i]. as well', async () => {
    const res = await runQuery(sim, [
      { parameters: ['summary_metrics'], ...WEEK, limit: 0 },
      { parameters: ['summary_metrics'] },
      { parameters: ['summary_metrics'], ...WEEK, page: 0 },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('VALIDATION_ERROR');
    expect(res.json.error).toBe('Limit must be at least 1');
    const fields = (res.json.details as { field: string }[]).map((d) => d.field);
    expect(fields).toEqual(['batch[0].limit', 'batch[1].startDate', 'batch[1].endDate', 'batch[2].page']);
  });

  it('prefixes an empty parameters list with batch[i]. too', async () => {
    const res = await runQuery(sim, [{ parameters: ['summary_metrics'], ...WEEK }, { parameters: [], ...WEEK }]);
    expect(res.status).toBe(400);
    expect(res.json.details).toEqual([{ field: 'batch[1].parameters', message: 'At least one parameter is required' }]);
  });

  it('rejects an empty batch with 400 VALIDATION_ERROR on the batch field, without crashing', async () => {
    const res = await runQuery(sim, []);
    expect(res.status).toBe(400);
    expect(res.json.success).toBe(false);
    expect(res.json.code).toBe('VALIDATION_ERROR');
    expect(res.json.requestId).toBe(res.headers['X-Request-ID']);
    expect((res.json.details as { field: string }[]).map((d) => d.field)).toEqual(['batch']);
  });

  it('reports a schema problem inside a batch item with its array index in the 422 details', async () => {
    const res = await runQuery(sim, [{ parameters: ['summary_metrics'], ...WEEK }, { parameters: ['summary_metrics'], ...WEEK, limit: 'ten' }]);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('VALIDATION');
    expect(res.json.details).toEqual([expect.objectContaining({ field: 'body[1].limit' })]);
  });
});
