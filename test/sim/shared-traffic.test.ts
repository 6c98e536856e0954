import { describe, expect, it } from 'vitest';
import { createSeededWorld, createSimulator, type Simulator } from '../../src/index.js';
import type { World } from '../../src/sim/model/world.js';
import { sharedResultStats, sharedTrafficStats } from '../../src/sim/traffic-cache.js';
import { call, freshSimulator, secretOf } from '../helpers/sim.js';

/**
 * Generated traffic is kept in a process-wide store shared by every simulator of the same world
 * functions and seed (src/sim/traffic-cache.ts). Sharing may change what an answer costs, never
 * its bytes: a simulator answers as one alone in a fresh process (`trafficCacheBytes: 0` shares
 * nothing, so it generates everything itself).
 */

const BODY = { parameters: ['summary_metrics', 'top_pages'], preset: 'last_30d', limit: 10 };

/** The answer's text but its request id. */
async function last30Days(sim: Simulator, websiteId = 'web_acme_store'): Promise<string> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: websiteId }, body: BODY });
  expect(answer.status).toBe(200);
  // The request id follows the simulator's request count; everything else is the data's.
  return answer.text.replace(/"requestId":"[^"]*"/, '');
}

/** The answer of a simulator that shares nothing with any other. */
const alone = (options: Parameters<typeof freshSimulator>[0] = {}): Promise<string> => last30Days(freshSimulator({ ...options, trafficCacheBytes: 0 }));

describe('traffic shared between simulators', () => {
  it('gives two simulators of a seed byte-identical answers, the second reading what the first generated', async () => {
    const first = await last30Days(freshSimulator());
    const kept = sharedTrafficStats().entries;
    expect(kept).toBeGreaterThan(0);
    const second = await last30Days(freshSimulator());
    expect(second).toBe(first);
    expect(sharedTrafficStats().entries).toBe(kept);
    expect(await alone()).toBe(first);
  });

  it('reuses the traffic across a reset, with the same answer', async () => {
    const sim = freshSimulator();
    const before = await last30Days(sim);
    const kept = sharedTrafficStats().entries;
    await sim.reset();
    expect(await last30Days(sim)).toBe(before);
    expect(sharedTrafficStats().entries).toBe(kept);
  });

  it('gives a simulator of another seed its own traffic, as a fresh process would', async () => {
    const of42 = await last30Days(freshSimulator());
    const of43 = await last30Days(freshSimulator({ seed: 43 }));
    expect(of43).not.toBe(of42);
    expect(of43).toBe(await alone({ seed: 43 }));
  });

  it('gives a world of other websites or other traffic functions its own traffic', async () => {
    const seeded = await last30Days(freshSimulator());
    const smallerStore = (seed: string): World => {
      const world = createSeededWorld(seed);
      return { ...world, websites: world.websites.map((w) => (w.id === 'web_acme_store' ? { ...w, size: 'small', baseDailySessions: 300 } : w)) };
    };
    const resized = await last30Days(freshSimulator({ createWorld: smallerStore }));
    expect(resized).not.toBe(seeded);
    expect(resized).toBe(await alone({ createWorld: smallerStore }));

    const doubled = (seed: string): World => {
      const world = createSeededWorld(seed);
      return { ...world, sessions: (website, day) => world.sessions({ ...website, baseDailySessions: website.baseDailySessions * 2 }, day) };
    };
    const busier = await last30Days(freshSimulator({ createWorld: doubled }));
    expect(busier).not.toBe(seeded);
    expect(busier).toBe(await alone({ createWorld: doubled }));
  });

  it('never shows one simulator a website size another changed at run time', async () => {
    const original = await last30Days(freshSimulator());
    const changed = freshSimulator();
    const untouched = freshSimulator();
    expect(await last30Days(untouched)).toBe(original);
    const patch = { key: secretOf(changed, 'key_acme_all'), body: { trafficSize: 'tiny' } };
    expect((await call(changed, 'PATCH', '/v1/websites/web_acme_store', patch)).status).toBe(200);
    const tiny = await last30Days(changed);
    expect(tiny).not.toBe(original);
    expect(await last30Days(untouched)).toBe(original);
    expect(await last30Days(freshSimulator())).toBe(original);

    // The same change made alone, with nothing shared, answers the same bytes.
    const lone = freshSimulator({ trafficCacheBytes: 0 });
    await call(lone, 'PATCH', '/v1/websites/web_acme_store', { key: secretOf(lone, 'key_acme_all'), body: { trafficSize: 'tiny' } });
    expect(await last30Days(lone)).toBe(tiny);
  });
});

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The text of `body`'s answer on web_acme_www, but its request id. */
async function onWww(sim: Simulator, body: object): Promise<string> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: 'web_acme_www' }, body });
  expect(answer.status).toBe(200);
  return answer.text.replace(/"requestId":"[^"]*"/, '');
}

describe('rows of seeded traffic shared between simulators', () => {
  const today = { parameters: ['top_pages', 'summary_metrics'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 };

  it("answers a fresh simulator's first query with the rows another computed, byte-identical to a simulator alone", async () => {
    const first = await last30Days(freshSimulator());
    const kept = sharedResultStats().entries;
    expect(kept).toBeGreaterThan(0);
    expect(await last30Days(freshSimulator())).toBe(first);
    expect(sharedResultStats().entries).toBe(kept);
    expect(await alone()).toBe(first);
  });

  it('never shows one simulator the page views or events another ingested, nor serves one that ingested the seeded rows', async () => {
    const seeded = await onWww(freshSimulator(), today);
    const ingesting = freshSimulator();
    expect(await onWww(ingesting, today)).toBe(seeded);
    const view = { eventId: 'ev_shared_1', name: 'screen_view', path: 'https://acme.io/only-here', timestamp: Date.UTC(2025, 5, 2, 10) };
    expect((await call(ingesting, 'POST', '/batch', { query: { client_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: [view] })).status).toBeLessThan(300);
    const tracked = await call(ingesting, 'POST', '/track', { query: { website_id: 'web_acme_www' }, headers: { 'user-agent': CHROME }, body: { name: 'signup' } });
    expect(tracked.status).toBeLessThan(300);
    const own = await onWww(ingesting, today);
    expect(own).toContain('/only-here');
    expect(await onWww(freshSimulator(), today)).toBe(seeded);
    expect(await onWww(freshSimulator({ trafficCacheBytes: 0 }), today)).toBe(seeded);
  });

  it('gives a simulator whose clock moved the answer of one alone at that instant', async () => {
    await onWww(freshSimulator(), today);
    const later = freshSimulator();
    expect(later.clock.advance(3_600_000).ok).toBe(true);
    const lone = freshSimulator({ trafficCacheBytes: 0 });
    lone.clock.advance(3_600_000);
    expect(await onWww(later, today)).toBe(await onWww(lone, today));
  });
});

/** The rows of `body`'s only parameter on `websiteId`. */
async function rowsOf(sim: Simulator, websiteId: string, body: object): Promise<unknown> {
  const answer = await call(sim, 'POST', '/v1/query', { key: secretOf(sim, 'key_acme_read'), query: { website_id: websiteId }, body });
  expect(answer.status).toBe(200);
  return answer.json.data[0].data;
}

describe('what a shared seeded result keys on', () => {
  it("never serves a fresh simulator rows another computed after receiving records of its own on other days", async () => {
    // mcp_summary says whether the website ever received a tool call, whatever the range: web_acme_labs
    // (tiny) has no MCP server of its own, so only a received call makes it tracked.
    const lastWeek = { parameters: ['mcp_summary'], startDate: '2025-05-12', endDate: '2025-05-18' };
    const receiving = freshSimulator();
    const sent = await call(receiving, 'POST', '/mcp', { key: secretOf(receiving, 'key_acme_track'), body: [{ tool: 'search', durationMs: 12, websiteId: 'web_acme_labs' }] });
    expect(sent.status).toBe(202);
    expect(await rowsOf(receiving, 'web_acme_labs', lastWeek)).toMatchObject([{ calls: 0, tracked: 1 }]);
    const lone = await rowsOf(freshSimulator({ trafficCacheBytes: 0 }), 'web_acme_labs', lastWeek);
    expect(lone).toMatchObject([{ calls: 0, tracked: 0 }]);
    expect(await rowsOf(freshSimulator(), 'web_acme_labs', lastWeek)).toEqual(lone);
  });

  it('gives a range that ends after now the rows of its own end, not those of another end cut at the same instant', async () => {
    // ai_weekly_digest compares the range with the one before it, as long as the range asked.
    const untilFriday = { parameters: ['ai_weekly_digest'], startDate: '2025-05-28', endDate: '2025-06-06' };
    const untilMonthEnd = { ...untilFriday, endDate: '2025-06-30' };
    const lone = await rowsOf(freshSimulator({ trafficCacheBytes: 0 }), 'web_acme_www', untilMonthEnd);
    expect(lone).not.toEqual(await rowsOf(freshSimulator({ trafficCacheBytes: 0 }), 'web_acme_www', untilFriday));
    const sim = freshSimulator();
    await rowsOf(sim, 'web_acme_www', untilFriday);
    expect(await rowsOf(sim, 'web_acme_www', untilMonthEnd)).toEqual(lone);
    expect(await rowsOf(freshSimulator(), 'web_acme_www', untilMonthEnd)).toEqual(lone);
  });
});

describe('seeded results of one profile', () => {
  it('gives a simulator under the live profile the rows of one alone under it, after a spec simulator answered the same query', async () => {
    const body = { parameters: ['top_pages', 'summary_metrics', 'error_types'], startDate: '2025-05-19', endDate: '2025-05-25' };
    const spec = await onWww(freshSimulator(), body);
    const live = await onWww(freshSimulator({ profile: 'live' }), body);
    expect(live).not.toBe(spec);
    expect(live).toBe(await onWww(freshSimulator({ profile: 'live', trafficCacheBytes: 0 }), body));
    expect(await onWww(freshSimulator(), body)).toBe(spec);
  });
});

describe('seeded results of a declared world', () => {
  /** A world of one declared website whose pages are `paths`: the website's own fields are the same whatever they are. */
  const worldOf = (paths: readonly string[]) => ({
    organizations: [{ id: 'org_mine', plan: 'pro' as const }],
    websites: [{ id: 'web_mine_shop', organizationId: 'org_mine', domain: 'shop.mine.dev', kind: 'shop' as const, pages: paths.map((path) => ({ path, weight: 1 })) }],
    keys: [{ id: 'key_mine_read', organizationId: 'org_mine', scopes: ['read:data' as const] }],
  });

  /** The top pages' paths of web_mine_shop, last week. */
  async function pathsOf(sim: Simulator): Promise<string[]> {
    const answer = await call(sim, 'POST', '/v1/query', {
      key: secretOf(sim, 'key_mine_read'),
      query: { website_id: 'web_mine_shop' },
      body: { parameters: ['top_pages'], startDate: '2025-05-19', endDate: '2025-05-25', limit: 1000 },
    });
    expect(answer.status).toBe(200);
    return (answer.json.data[0].data as { path: string }[]).map((row) => row.path).sort();
  }

  it("never serves a world the rows of another world's website of the same id and fields", async () => {
    const shop = await pathsOf(createSimulator({ seed: 42, world: worldOf(['/kits', '/pricing']) }));
    expect(shop).toContain('/kits');
    const other = await pathsOf(createSimulator({ seed: 42, world: worldOf(['/docs', '/blog']) }));
    expect(other).toContain('/docs');
    expect(other).not.toContain('/kits');
    expect(other).toEqual(await pathsOf(createSimulator({ seed: 42, world: worldOf(['/docs', '/blog']), trafficCacheBytes: 0 })));
  });
});
