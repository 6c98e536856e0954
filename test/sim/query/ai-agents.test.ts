import { describe, expect, it } from 'vitest';
import { freshSimulator } from '../../helpers/sim.js';
import { column, rowsFor, STORE, sumOf, type Row } from './support.js';

const WEEK = { startDate: '2025-05-26', endDate: '2025-06-01' };
const SEEDS = [42, 7];

describe.each(SEEDS)('AI agents with seed %i', (seed) => {
  const sim = freshSimulator({ seed });
  const rows = (type: string, body: Record<string, unknown> = {}): Promise<Row[]> => rowsFor(sim, type, { ...WEEK, limit: 10_000, ...body }, STORE);

  it('counts the same successful crawler requests per day, per agent, per format and per product', async () => {
    const total = sumOf(await rows('ai_crawlers'), 'requests');
    expect(total).toBeGreaterThan(0);
    expect(sumOf(await rows('ai_crawler_activity'), 'requests')).toBe(total);
    expect(sumOf(await rows('ai_content_formats'), 'requests')).toBe(total);
    expect(sumOf(await rows('ai_products'), 'requests')).toBe(total);
    for (const day of await rows('ai_crawler_activity')) {
      expect((day.markdown as number) + (day.llms as number) + (day.html as number)).toBe(day.requests);
    }
  });

  it('lists failed requests with a status of 400 or above, each one among the individual requests', async () => {
    const failed = await rows('ai_failed_requests');
    expect(failed.length).toBeGreaterThan(0);
    const recent = await rows('ai_recent_requests');
    for (const row of failed) {
      expect(row.status_code as number).toBeGreaterThanOrEqual(400);
      const matching = recent.filter((r) => r.page === row.page && r.format === row.format && r.status_code === row.status_code);
      expect(matching.length).toBeGreaterThan(0);
      const agents = new Set(matching.map((r) => r.agent_id));
      for (const agent of row.agents as { agent_id: string }[]) expect(agents.has(agent.agent_id)).toBe(true);
    }
    const formats = column<string>(failed, 'format');
    const firstHtml = formats.indexOf('html');
    if (firstHtml >= 0) expect(formats.slice(firstHtml).every((f) => f === 'html')).toBe(true);
  });

  it('narrows the requests to one agent with an agent_id filter', async () => {
    const [top] = await rows('ai_crawlers');
    const agent = top?.agent_id as string;
    const filters = [{ field: 'agent_id', op: 'eq', value: agent }];
    const activity = await rows('ai_crawler_activity', { filters });
    expect(sumOf(activity, 'requests')).toBe(top?.requests);
    const pages = await rows('ai_agent_pages', { filters });
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect((page.agents as { agent_id: string }[]).map((a) => a.agent_id)).toEqual([agent]);
  });

  it('credits AI visitors to the same products everywhere', async () => {
    const outcomes = await rows('ai_visitor_outcomes');
    expect(column(outcomes, 'product').slice(0, 2)).toEqual(['All visitors', 'All AI visitors']);
    const perProduct = outcomes.slice(2);
    expect(perProduct.length).toBeGreaterThan(0);
    const products = new Map((await rows('ai_products')).map((r) => [r.product as string, r.visitors as number]));
    for (const row of perProduct) expect(products.get(row.product as string)).toBe(row.visitors);
    const allAi = outcomes[1]?.visitors as number;
    expect(allAi).toBeLessThanOrEqual(sumOf(perProduct, 'visitors'));
    expect(allAi).toBeLessThanOrEqual(outcomes[0]?.visitors as number);
    expect(sumOf(await rows('ai_landing_pages'), 'visitors')).toBeGreaterThanOrEqual(allAi);
    const [digest] = await rows('ai_weekly_digest');
    expect(digest?.site_visitors).toBe(allAi);
  });

  it('pages the latest requests itself, newest first', async () => {
    const recent = await rows('ai_recent_requests', { limit: 5 });
    expect(recent).toHaveLength(5);
    const times = column<string>(recent, 'time');
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe('AI visitors over time', () => {
  it('has no bucket after now', async () => {
    const startMs = Date.UTC(2025, 5, 2, 9, 30);
    const sim = freshSimulator({ startMs });
    const hours = await rowsFor(sim, 'ai_product_visitors', { startDate: '2025-05-30', endDate: '2025-06-03', granularity: 'hour' }, STORE);
    expect(hours.length).toBeGreaterThan(0);
    for (const date of column<string>(hours, 'date')) expect(date <= '2025-06-02 09:00:00').toBe(true);
    const activity = await rowsFor(sim, 'ai_crawler_activity', { startDate: '2025-05-30', endDate: '2025-06-03' }, STORE);
    expect(column<string>(activity, 'date').at(-1)).toBe('2025-06-02');
  });
});
