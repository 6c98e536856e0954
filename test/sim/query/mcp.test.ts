import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf } from '../../helpers/sim.js';
import { column, rowsFor, STORE, sumOf, type Row, type Target } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const SEEDS = [42, 7];
const ACME: Target = { organization_id: 'org_acme' };

describe.each(SEEDS)('MCP tool calls with seed %i', (seed) => {
  const sim = freshSimulator({ seed });
  const rows = (type: string, body: Record<string, unknown> = {}, target: Target = STORE): Promise<Row[]> =>
    rowsFor(sim, type, { ...WEEK, limit: 10_000, ...body }, target);

  it('counts the same calls per tool, per client, per day and in the overview', async () => {
    const [summary] = await rows('mcp_summary');
    const calls = summary?.calls as number;
    expect(calls).toBeGreaterThan(0);
    expect(summary?.tracked).toBe(1);
    expect(sumOf(await rows('mcp_tools'), 'calls')).toBe(calls);
    expect(sumOf(await rows('mcp_clients'), 'calls')).toBe(calls);
    expect(sumOf(await rows('mcp_calls_series'), 'calls')).toBe(calls);
    expect(sumOf(await rows('mcp_tools'), 'errors')).toBe(summary?.errors);
    expect(sumOf(await rows('mcp_errors'), 'occurrences')).toBe(summary?.errors);
    expect(sumOf(await rows('mcp_calls_series'), 'errors')).toBe(summary?.errors);
  });

  it('aggregates every website of an organization', async () => {
    const [org] = await rows('mcp_summary', {}, ACME);
    const websites = org?.websites as string[];
    expect(websites.length).toBeGreaterThan(1);
    let total = 0;
    for (const id of websites) total += ((await rows('mcp_summary', {}, { website_id: id }))[0]?.calls as number);
    expect(org?.calls).toBe(total);
    const [one] = await rows('mcp_summary', { filters: [{ field: 'website_id', op: 'eq', value: 'web_acme_store' }] }, ACME);
    expect(one?.calls).toBe((await rows('mcp_summary'))[0]?.calls);
  });

  it('narrows the calls to one tool with a tool filter', async () => {
    const [top] = await rows('mcp_tools');
    const filters = [{ field: 'tool', op: 'eq', value: top?.tool }];
    const [summary] = await rows('mcp_summary', { filters });
    expect(summary?.calls).toBe(top?.calls);
    expect(summary?.tools).toBe(1);
    expect(column(await rows('mcp_tools', { filters }), 'tool')).toEqual([top?.tool]);
  });

  it('orders tools by calls and limits them', async () => {
    const tools = await rows('mcp_tools');
    const calls = column<number>(tools, 'calls');
    expect(calls).toEqual([...calls].sort((a, b) => b - a));
    expect(await rows('mcp_tools', { limit: 2 })).toHaveLength(2);
  });
});

describe('MCP calls over time', () => {
  it('fills every bucket with zeros up to the bucket of now and never after it', async () => {
    const startMs = Date.UTC(2025, 5, 2, 9, 30);
    const sim = freshSimulator({ startMs });
    const hours = await rowsFor(sim, 'mcp_calls_series', { startDate: '2025-06-01', endDate: '2025-06-03', granularity: 'hour' }, STORE);
    const dates = column<string>(hours, 'date');
    expect(dates[0]).toBe('2025-06-01 00:00:00');
    expect(dates.at(-1)).toBe('2025-06-02 09:00:00');
    expect(dates).toHaveLength(24 + 10);
    expect(hours.some((h) => h.calls === 0)).toBe(true);
    const days = await rowsFor(sim, 'mcp_calls_series', { startDate: '2025-05-20', endDate: '2025-06-05' }, STORE);
    expect(column(days, 'date').at(-1)).toBe('2025-06-02');
    expect(days).toHaveLength(14);
  });

  it('answers one row of zeros for a website without an MCP server', async () => {
    const sim = freshSimulator();
    const [summary] = await rowsFor(sim, 'mcp_summary', WEEK, { website_id: 'web_acme_labs' });
    expect(summary).toMatchObject({ calls: 0, errors: 0, last_call: null, tracked: 0, servers: [] });
  });

  it('says a website without an MCP server is tracked once it received a call, whatever day the range covers', async () => {
    const sim = freshSimulator();
    const lastWeek = { startDate: '2025-05-12', endDate: '2025-05-18' };
    expect(await rowsFor(sim, 'mcp_summary', lastWeek, { website_id: 'web_acme_labs' })).toMatchObject([{ calls: 0, tracked: 0 }]);
    const sent = await call(sim, 'POST', '/mcp', { key: secretOf(sim, 'key_acme_track'), body: [{ tool: 'search', durationMs: 12, websiteId: 'web_acme_labs' }] });
    expect(sent.status).toBe(202);
    expect(await rowsFor(sim, 'mcp_summary', lastWeek, { website_id: 'web_acme_labs' })).toMatchObject([{ calls: 0, tracked: 1 }]);
  });
});
