import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { event, track, trackSimulator } from '../ingest/support.js';
import { advanceClock, outcomesOf, rowsOf, runQuery, STORE, sumOf, withoutRequestId } from './support.js';
import { createAnswerMemo, type AnswerMemo, type MemoLookup, type MemoPlan } from '../../../src/sim/query/engine/answer-memo.js';
import { createResultCache } from '../../../src/sim/query/engine/result-cache.js';
import { createEventStore } from '../../../src/sim/ingest/event-store.js';
import { createIngestLedger } from '../../../src/sim/ingest/ingest-ledger.js';
import { createProfileStore } from '../../../src/sim/ingest/profile-store.js';
import type { QueryScope } from '../../../src/sim/query/engine/definition.js';

// A query asked again with the same body, over the same scope, in the same minute, is answered
// from the text its last answer had (src/sim/query/engine/answer-memo.ts). These tests change each thing
// such an answer depends on between two identical requests and expect the second to see it.

describe('answers to a repeated query', () => {
  it('are the same bytes, but for the request id, however often the query is asked', async () => {
    const sim = freshSimulator();
    const body = { parameters: ['summary_metrics', 'top_pages'], preset: 'last_7d' };
    const first = await runQuery(sim, body, STORE);
    const again = await Promise.all([runQuery(sim, body, STORE), runQuery(sim, body, STORE)]);
    expect(first.status).toBe(200);
    for (const answer of again) {
      expect(answer.json.requestId).not.toBe(first.json.requestId);
      expect(withoutRequestId(answer)).toBe(withoutRequestId(first));
    }
  });

  it('count an event tracked on the website between two identical queries', async () => {
    const sim = trackSimulator();
    const body = { parameters: ['custom_events'], preset: 'today', limit: 1000 };
    const tracked = (rows: Record<string, unknown>[]): number => sumOf(rows.filter((r) => r.name === 'memo_probe'), 'total_events');
    rowsOf(await runQuery(sim, body, STORE), 'custom_events');
    expect(tracked(rowsOf(await runQuery(sim, body, STORE), 'custom_events'))).toBe(0);
    expect((await track(sim, event('memo_probe', { websiteId: 'web_acme_store' }), { key: secretOf(sim, 'key_acme_track') })).status).toBe(200);
    expect(tracked(rowsOf(await runQuery(sim, body, STORE), 'custom_events'))).toBe(1);
  });

  it('count an event tracked on one website in the next identical organization-wide query', async () => {
    const sim = trackSimulator();
    const body = { parameters: ['custom_events'], preset: 'today', limit: 1000 };
    const org = { organization_id: 'org_acme' };
    const tracked = (rows: Record<string, unknown>[]): number => sumOf(rows.filter((r) => r.name === 'memo_org_probe'), 'total_events');
    rowsOf(await runQuery(sim, body, org), 'custom_events');
    expect(tracked(rowsOf(await runQuery(sim, body, org), 'custom_events'))).toBe(0);
    expect((await track(sim, event('memo_org_probe', { websiteId: 'web_acme_store' }), { key: secretOf(sim, 'key_acme_track') })).status).toBe(200);
    expect(tracked(rowsOf(await runQuery(sim, body, org), 'custom_events'))).toBe(1);
  });

  it("follow the clock: today's pageviews grow when the virtual clock moves on ten minutes", async () => {
    const sim = freshSimulator();
    const body = { parameters: ['summary_metrics'], preset: 'today' };
    await runQuery(sim, body, STORE);
    const before = sumOf(rowsOf(await runQuery(sim, body, STORE), 'summary_metrics'), 'pageviews');
    await advanceClock(sim, 10 * 60_000);
    const after = sumOf(rowsOf(await runQuery(sim, body, STORE), 'summary_metrics'), 'pageviews');
    expect(after).toBeGreaterThan(before);
  });

  it("follow a website's new traffic size, asked for again after the change", async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_all');
    const site = { website_id: 'web_acme_labs' };
    const body = { parameters: ['summary_metrics'], preset: 'last_7d' };
    const sessions = async (): Promise<number> => sumOf(rowsOf(await call(sim, 'POST', '/v1/query', { key, query: site, body }), 'summary_metrics'), 'sessions');
    await sessions();
    const before = await sessions();
    expect((await call(sim, 'PATCH', '/v1/websites/web_acme_labs', { key, body: { trafficSize: 'large' } })).status).toBe(200);
    expect(await sessions()).toBeGreaterThan(before);
  });

  it('list a visitor identified between two identical queries under its new profile', async () => {
    const sim = freshSimulator();
    const week = { startDate: '2025-05-26', endDate: '2025-06-01' };
    const visitor = rowsOf(await runQuery(sim, { parameters: ['profile_list'], ...week, limit: 10000 }, STORE), 'profile_list').find((r) => r.profile_id === '');
    expect(visitor, 'an anonymous visitor').toBeDefined();
    const body = { parameters: ['profile_list'], ...week, filters: [{ field: 'profile_id', op: 'eq', value: 'memo_user' }] };
    await runQuery(sim, body, STORE);
    expect(rowsOf(await runQuery(sim, body, STORE), 'profile_list')).toEqual([]);
    const identified = await call(sim, 'POST', '/identify', {
      key: secretOf(sim, 'key_acme_track'),
      body: { profileId: 'memo_user', anonymousId: visitor?.visitor_id, websiteId: 'web_acme_store' },
    });
    expect(identified.status).toBe(200);
    expect(rowsOf(await runQuery(sim, body, STORE), 'profile_list').map((r) => r.visitor_id)).toEqual(['memo_user']);
  });

  it('say a warning of execution again every time the query is repeated', async () => {
    const sim = freshSimulator();
    const body = { parameters: ['events_by_date'], preset: 'last_7d', sortBy: 'pageviews', sortOrder: 'asc' };
    for (let i = 0; i < 3; i++) {
      const answer = await runQuery(sim, body, STORE);
      expect(outcomesOf(answer)[0]?.success).toBe(true);
      expect(answer.headers.Warning).toContain('events_by_date orders its own rows; sortBy and sortOrder were ignored');
    }
  });

  it('are kept per website: the same body for two websites answers each its own rows', async () => {
    const sim = freshSimulator();
    const body = { parameters: ['summary_metrics'], preset: 'last_7d' };
    const www = await runQuery(sim, body, { website_id: 'web_acme_www' });
    const store = await runQuery(sim, body, STORE);
    expect(withoutRequestId(await runQuery(sim, body, { website_id: 'web_acme_www' }))).toBe(withoutRequestId(www));
    expect(withoutRequestId(await runQuery(sim, body, STORE))).toBe(withoutRequestId(store));
    expect(withoutRequestId(www)).not.toBe(withoutRequestId(store));
  });
});

describe('the answer memo', () => {
  const sources = () => {
    const results = createResultCache();
    return { results, trackedEvents: createEventStore(), ingested: createIngestLedger(), profiles: createProfileStore() };
  };
  const plan = (): MemoPlan => Object.freeze({ parameters: Object.freeze([{ type: { skipDateRange: false, family: 'summary' as const } }]) }) as unknown as MemoPlan;
  const scope = { kind: 'websites', websites: [{ id: 'web_a' }] } as unknown as QueryScope;
  const lookup = (memo: AnswerMemo, p: MemoPlan): MemoLookup => memo.read(p, scope, 0) as MemoLookup;

  it("keeps a website's answer while events land on another website, and forgets it at the first on its own", () => {
    const stores = sources();
    const memo = createAnswerMemo(stores);
    const p = plan();
    memo.write(lookup(memo, p), 'kept');
    const at = (websiteId: string) =>
      ({ name: 'e', websiteId, timestamp: 1_000, anonymousId: null, sessionId: null, profileId: null, namespace: null, source: null, path: null, eventId: null, propertiesJson: null }) as unknown as Parameters<
        typeof stores.trackedEvents.append
      >[0][number];
    expect(stores.trackedEvents.append([at('web_b'), at('web_c')]).ok).toBe(true);
    expect(memo.read(p, scope, 0)?.text).toBe('kept');
    expect(stores.trackedEvents.append([at('web_a')]).ok).toBe(true);
    expect(memo.read(p, scope, 0)?.text).toBeUndefined();
  });

  it('keeps at most about 4 M characters of answers in all, forgetting the older ones at once past that', () => {
    const memo = createAnswerMemo(sources());
    const text = 'x'.repeat(64 * 1024);
    const plans = Array.from({ length: 70 }, plan);
    for (const p of plans) memo.write(lookup(memo, p), text);
    expect(memo.read(plans[0] as MemoPlan, scope, 0)?.text).toBeUndefined();
    expect(memo.read(plans[69] as MemoPlan, scope, 0)?.text).toBe(text);
  });

  it('counts an answer written again for the same plan and scope once', () => {
    const memo = createAnswerMemo(sources());
    const text = 'x'.repeat(64 * 1024);
    const first = plan();
    memo.write(lookup(memo, first), text);
    const again = plan();
    for (let i = 0; i < 200; i++) memo.write(lookup(memo, again), text);
    expect(memo.read(first, scope, 0)?.text).toBe(text);
  });
});
