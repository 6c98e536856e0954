import { describe, expect, it } from 'vitest';
import { call, freshSimulator, secretOf, type Answer } from '../../helpers/sim.js';
import type { Simulator } from '../../../src/index.js';
import { AI_AGENTS, matchAiAgent } from '../../../src/sim/model/derived/ai-crawlers.js';

const STORE = 'web_acme_store';
const TODAY = { startDate: '2025-06-02', endDate: '2025-06-02' };
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

function hit(sim: Simulator, body: Record<string, unknown>): Promise<Answer> {
  return call(sim, 'POST', '/ai-traffic', { body: { websiteId: STORE, host: 'store.acme.io', path: '/pricing', userAgent: GPTBOT, ...body } });
}

function expectBasket(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ success: false, status: 'error', code: `basket.${code}` });
}

async function aiRows(sim: Simulator, type: string, filters: unknown[] = []): Promise<Record<string, unknown>[]> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: STORE }, body: { parameters: [type], ...TODAY, filters, limit: 1000 } });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

/** Moves the virtual clock a minute on: query data ends at the last whole minute before now. */
async function aMinuteLater(sim: Simulator): Promise<void> {
  expect((await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 60_000 } })).status).toBe(200);
}

describe('the AI agent registry', () => {
  it("names every generated agent by its own user agent, Claude Code's Claude-User form included", () => {
    for (const agent of AI_AGENTS) expect(matchAiAgent(agent.userAgent)?.id, agent.userAgent).toBe(agent.id);
    expect(matchAiAgent('curl/8.5.0')).toBeNull();
  });
});

describe('POST /ai-traffic', () => {
  it('answers 202 with an empty body, and the request shows in ai_crawlers, ai_recent_requests, ai_agent_pages, ai_content_formats and ai_crawler_activity', async () => {
    const sim = freshSimulator();
    const before = await aiRows(sim, 'ai_crawlers');
    const gptBefore = (before.find((r) => r.agent_id === 'openai-crawler')?.requests as number | undefined) ?? 0;
    const formatsBefore = await aiRows(sim, 'ai_content_formats');
    const activityBefore = await aiRows(sim, 'ai_crawler_activity');
    const answer = await hit(sim, { path: '/docs/ai-only', format: 'markdown', accept: 'text/markdown' });
    expect(answer.status).toBe(202);
    expect(answer.text).toBe('');
    expect(answer.headers['Content-Type']).toBeUndefined();
    await aMinuteLater(sim);

    const crawlers = await aiRows(sim, 'ai_crawlers');
    expect(crawlers.find((r) => r.agent_id === 'openai-crawler')).toMatchObject({ name: 'GPTBot', product: 'ChatGPT', requests: gptBefore + 1, last_seen: '2025-06-02 12:00:00.000' });
    const [recent] = await aiRows(sim, 'ai_recent_requests');
    expect(recent).toEqual({ time: '2025-06-02 12:00:00.000', agent_id: 'openai-crawler', name: 'GPTBot', product: 'ChatGPT', page: '/docs/ai-only', format: 'markdown', status_code: 0, source: 'middleware' });
    const pages = await aiRows(sim, 'ai_agent_pages');
    expect(pages.find((p) => p.page === '/docs/ai-only')).toMatchObject({ format: 'markdown', requests: 1 });
    const markdown = (rows: Record<string, unknown>[]) => (rows.find((r) => r.format === 'markdown')?.requests as number | undefined) ?? 0;
    expect(markdown(await aiRows(sim, 'ai_content_formats'))).toBe(markdown(formatsBefore) + 1);
    const total = (rows: Record<string, unknown>[]) => rows.reduce((sum, r) => sum + (r.requests as number), 0);
    expect(total(await aiRows(sim, 'ai_crawler_activity'))).toBe(total(activityBefore) + 1);
  });

  it('accepts the website’s subdomains and a www. prefix as Host, and refuses another host with 403 basket.INGEST_ORIGIN_NOT_AUTHORIZED', async () => {
    const sim = freshSimulator();
    for (const host of ['store.acme.io', 'www.store.acme.io', 'eu.store.acme.io', 'STORE.ACME.IO:443']) expect((await hit(sim, { host })).status, host).toBe(202);
    for (const host of ['acme.io', 'evilstore.acme.io', 'store.acme.io.evil.com', 'example.com']) expectBasket(await hit(sim, { host }), 403, 'INGEST_ORIGIN_NOT_AUTHORIZED');
  });

  it('refuses an unknown website with 404 basket.TRACK_WEBSITE_NOT_FOUND and a body outside the schema with 400 INVALID_EVENT_SCHEMA', async () => {
    const sim = freshSimulator();
    expectBasket(await hit(sim, { websiteId: 'web_nope' }), 404, 'TRACK_WEBSITE_NOT_FOUND');
    for (const [body, field] of [
      [{ host: '' }, 'host'],
      [{ websiteId: 'w'.repeat(129) }, 'websiteId'],
      [{ userAgent: undefined }, 'userAgent'],
    ] as const) {
      const answer = await hit(sim, body);
      expectBasket(answer, 400, 'INVALID_EVENT_SCHEMA');
      expect(answer.json.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it('reads an unknown format as html, an unnamed client asking for markdown first as an unidentified agent, and ignores a request of no AI agent', async () => {
    const sim = freshSimulator();
    expect((await hit(sim, { path: '/p-format', format: 'pdf' })).status).toBe(202);
    expect((await hit(sim, { path: '/p-unnamed', userAgent: 'my-fetcher/0.3', accept: 'text/markdown, text/html;q=0.9' })).status).toBe(202);
    expect((await hit(sim, { path: '/p-human', userAgent: 'Mozilla/5.0 (Macintosh) Safari/605.1.15', accept: 'text/html' })).status).toBe(202);
    await aMinuteLater(sim);
    const recent = await aiRows(sim, 'ai_recent_requests');
    const mine = recent.filter((r) => String(r.page).startsWith('/p-'));
    expect(mine.map((r) => [r.page, r.agent_id, r.format])).toEqual([
      ['/p-format', 'openai-crawler', 'html'],
      ['/p-unnamed', 'unidentified:my-fetcher', 'html'],
    ]);
    const crawlers = await aiRows(sim, 'ai_crawlers');
    expect(crawlers.find((r) => r.agent_id === 'unidentified:my-fetcher')).toMatchObject({ name: 'my-fetcher', product: 'Unidentified agents', requests: 1 });
  });

  it('records a DatabuddySetupCheck/<nonce> user agent for 120 s of simulator time and writes no request', async () => {
    const sim = freshSimulator();
    const check = (nonce: string) => call(sim, 'GET', `/ai-traffic/setup-check/${STORE}/${nonce}`);
    expect((await check('n-1')).json).toEqual({ recorded: false });
    const answer = await hit(sim, { path: '/setup', userAgent: `${GPTBOT} DatabuddySetupCheck/n-1` });
    expect(answer.status).toBe(202);
    expect((await check('n-1')).json).toEqual({ recorded: true });
    expect((await check('n-2')).json).toEqual({ recorded: false });
    expect((await call(sim, 'GET', `/ai-traffic/setup-check/web_acme_www/n-1`)).json).toEqual({ recorded: false });
    await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 119_000 } });
    expect((await check('n-1')).json).toEqual({ recorded: true });
    await call(sim, 'POST', '/__sim/clock', { body: { advanceMs: 1_000 } });
    expect((await check('n-1')).json).toEqual({ recorded: false });
    expect((await aiRows(sim, 'ai_recent_requests')).find((r) => r.page === '/setup')).toBeUndefined();
  });

  it('answers the setup check {recorded: false} for ids longer than a hit can carry, as the newest service does (no length guard)', async () => {
    const sim = freshSimulator();
    const answer = await call(sim, 'GET', `/ai-traffic/setup-check/${STORE}/${'n'.repeat(65)}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ recorded: false });
  });
});
