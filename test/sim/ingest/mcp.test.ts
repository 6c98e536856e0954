import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';
import { GLOBEX_TRACK_KEY, NOW, RESTRICTED_TRACK_KEY, trackSimulator } from './support.js';

const STORE = 'web_acme_store';
const TODAY = { startDate: '2025-06-02', endDate: '2025-06-02' };
/** An hour before the virtual now: within the six hours a call keeps its own timestamp. */
const AN_HOUR_AGO = NOW - 3_600_000;

function mcp(sim: Simulator, body: unknown, key?: string): Promise<Answer> {
  return call(sim, 'POST', '/mcp', { body, ...(key ? { key } : {}) });
}

function expectBasket(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, status: 'error', code: `basket.${code}` });
}

async function mcpRows(sim: Simulator, ids: Record<string, string>, type: string, filters: unknown[] = []): Promise<Record<string, unknown>[]> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: ids, body: { parameters: [type], ...TODAY, filters, limit: 1000 } });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

const call1 = (fields: Record<string, unknown> = {}) => ({ tool: 'lookup_order', durationMs: 120, outputChars: 800, clientName: 'claude-code', clientVersion: '2.0.30', serverName: 'shop-mcp', environment: 'production', sessionId: 'mcp_s1', timestamp: AN_HOUR_AGO, ...fields });

describe('POST /mcp accepts tool calls', () => {
  it('answers 202 {status, count} and adds the calls to mcp_summary, mcp_tools, mcp_clients and mcp_calls_series of their website', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const [before] = await mcpRows(sim, { website_id: STORE }, 'mcp_summary');
    const seriesBefore = await mcpRows(sim, { website_id: STORE }, 'mcp_calls_series');
    const calls = [call1({ websiteId: STORE }), call1({ websiteId: STORE, durationMs: 40 }), call1({ websiteId: STORE, error: 'MCP error -32602: order id missing' })];
    const answer = await mcp(sim, calls, key);
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ status: 'success', count: 3 });

    const [after] = await mcpRows(sim, { website_id: STORE }, 'mcp_summary');
    expect(after?.calls).toBe((before?.calls as number) + 3);
    expect(after?.errors).toBe((before?.errors as number) + 1);
    expect(after?.servers).toContain('shop-mcp');
    expect(after?.tracked).toBe(1);
    const tools = await mcpRows(sim, { website_id: STORE }, 'mcp_tools');
    expect(tools.find((t) => t.tool === 'lookup_order')).toMatchObject({ calls: 3, errors: 1, sessions: 1, clients: ['Claude Code'] });
    const clients = await mcpRows(sim, { website_id: STORE }, 'mcp_clients', [{ field: 'tool', op: 'eq', value: 'lookup_order' }]);
    expect(clients).toEqual([expect.objectContaining({ client: 'Claude Code', calls: 3, versions: ['2.0.30'] })]);
    const errors = await mcpRows(sim, { website_id: STORE }, 'mcp_errors', [{ field: 'tool', op: 'eq', value: 'lookup_order' }]);
    expect(errors).toEqual([expect.objectContaining({ tool: 'lookup_order', error: 'order id missing', occurrences: 1 })]);
    const series = await mcpRows(sim, { website_id: STORE }, 'mcp_calls_series');
    const total = (rows: Record<string, unknown>[]) => rows.reduce((sum, r) => sum + (r.calls as number), 0);
    expect(total(series)).toBe(total(seriesBefore) + 3);
  });

  it('counts a call without a websiteId for the organization: an organization scope reads it, a website scope does not', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const [orgBefore] = await mcpRows(sim, { organization_id: 'org_acme' }, 'mcp_summary');
    const [siteBefore] = await mcpRows(sim, { website_id: STORE }, 'mcp_summary');
    expect((await mcp(sim, [call1({ tool: 'org_level_tool' })], key)).status).toBe(202);
    const [orgAfter] = await mcpRows(sim, { organization_id: 'org_acme' }, 'mcp_summary');
    const [siteAfter] = await mcpRows(sim, { website_id: STORE }, 'mcp_summary');
    expect(orgAfter?.calls).toBe((orgBefore?.calls as number) + 1);
    expect(orgAfter?.websites).toEqual(orgBefore?.websites);
    expect(siteAfter).toEqual(siteBefore);
    const tools = await mcpRows(sim, { organization_id: 'org_acme' }, 'mcp_tools', [{ field: 'tool', op: 'eq', value: 'org_level_tool' }]);
    expect(tools).toEqual([expect.objectContaining({ tool: 'org_level_tool', calls: 1 })]);
    // A website_id filter names websites: the organization's own call has none.
    expect(await mcpRows(sim, { organization_id: 'org_acme' }, 'mcp_tools', [{ field: 'website_id', op: 'eq', value: STORE }, { field: 'tool', op: 'eq', value: 'org_level_tool' }])).toEqual([]);
  });

  it('reads the client product from the handshake name or the user agent, and keeps an unknown client name as sent', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    await mcp(sim, [
      call1({ websiteId: STORE, tool: 't_client', clientName: 'cursor-vscode' }),
      call1({ websiteId: STORE, tool: 't_client', clientName: undefined, userAgent: 'openai-mcp/1.0.0' }),
      call1({ websiteId: STORE, tool: 't_client', clientName: 'my-own-agent' }),
    ], key);
    const clients = await mcpRows(sim, { website_id: STORE }, 'mcp_clients', [{ field: 'tool', op: 'eq', value: 't_client' }]);
    expect(clients.map((c) => c.client).sort()).toEqual(['ChatGPT', 'Cursor', 'my-own-agent']);
  });

  it('keeps a timestamp within the last six hours and replaces an older one with the arrival instant', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    await mcp(sim, [call1({ websiteId: STORE, tool: 't_time', timestamp: NOW - 7 * 3_600_000 }), call1({ websiteId: STORE, tool: 't_time', timestamp: NOW - 5 * 3_600_000 })], key);
    await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 } });
    const [tool] = await mcpRows(sim, { website_id: STORE }, 'mcp_tools', [{ field: 'tool', op: 'eq', value: 't_time' }]);
    expect(tool).toMatchObject({ calls: 2, last_called: '2025-06-02 12:00:00' });
  });
});

describe('POST /mcp refuses', () => {
  it('a request without a usable API key with 401 basket.MCP_INVALID_API_KEY', async () => {
    const sim = freshSimulator();
    expectBasket(await mcp(sim, [call1()]), 401, 'MCP_INVALID_API_KEY');
    expectBasket(await mcp(sim, [call1()], `dbdy_${'0'.repeat(48)}`), 401, 'MCP_INVALID_API_KEY');
    expectBasket(await mcp(sim, [call1()], secretOf(sim, 'key_acme_revoked')), 401, 'MCP_INVALID_API_KEY');
  });

  it('a key without track:events, or not reaching a website a call names, with 403 TRACK_MISSING_SCOPE; another organization’s website with 403 TRACK_WEBSITE_SCOPE_MISMATCH; an unknown one with 404', async () => {
    const sim = trackSimulator();
    expectBasket(await mcp(sim, [call1({ websiteId: STORE })], secretOf(sim, 'key_acme_read')), 403, 'TRACK_MISSING_SCOPE');
    expectBasket(await mcp(sim, [call1({ websiteId: 'web_acme_www' })], RESTRICTED_TRACK_KEY.secret), 403, 'TRACK_MISSING_SCOPE');
    expectBasket(await mcp(sim, [call1({ websiteId: STORE })], GLOBEX_TRACK_KEY.secret), 403, 'TRACK_WEBSITE_SCOPE_MISMATCH');
    expectBasket(await mcp(sim, [call1({ websiteId: 'web_missing' })], secretOf(sim, 'key_acme_track')), 404, 'TRACK_WEBSITE_NOT_FOUND');
    expect((await mcp(sim, [call1({ websiteId: STORE })], RESTRICTED_TRACK_KEY.secret)).status).toBe(202);
  });

  it('a body that is not 1 to 100 calls of the accepted shape with 400 INVALID_EVENT_SCHEMA, storing none of them', async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const [before] = await mcpRows(sim, { organization_id: 'org_acme' }, 'mcp_summary');
    for (const [body, field] of [
      [[], ''],
      [Array.from({ length: 101 }, () => call1()), ''],
      [{ tool: 'not_an_array', durationMs: 1 }, ''],
      [[call1(), { durationMs: 1 }], '1.tool'],
      [[call1({ durationMs: -1 })], '0.durationMs'],
      [[call1({ outputChars: 4_294_967_296 })], '0.outputChars'],
      [[call1({ websiteId: '' })], '0.websiteId'],
    ] as const) {
      const answer = await mcp(sim, body, key);
      expectBasket(answer, 400, 'INVALID_EVENT_SCHEMA');
      expect(answer.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await mcpRows(sim, { organization_id: 'org_acme' }, 'mcp_summary'))[0]).toEqual(before);
  });

  it('the 6001st request of a key in 60 s with 429 basket.TRACK_RATE_LIMITED', { timeout: 60_000 }, async () => {
    const sim = freshSimulator();
    const key = secretOf(sim, 'key_acme_track');
    const body = [{ tool: 'ping', durationMs: 1, websiteId: STORE }];
    for (let i = 0; i < 6000; i++) {
      const answer = await mcp(sim, body, key);
      if (answer.status !== 202) throw new Error(`request ${i} answered ${answer.status}`);
    }
    const refused = await mcp(sim, body, key);
    expectBasket(refused, 429, 'TRACK_RATE_LIMITED');
    expect(sim.journal.list({ route: '/mcp', outcome: 'ingest_limit' })).toHaveLength(1);
  });
});
