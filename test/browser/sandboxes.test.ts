import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandboxContext, type SandboxContext } from '../../examples/playwright-sandboxes/sandbox-context.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSandboxRegistry } from '../../src/http/sandboxes/sandbox-registry.js';
import { createSimulator } from '../../src/index.js';
import { SUMMARY_QUERY } from '../helpers/credentials.js';
import { secretOf } from '../helpers/sim.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * The Playwright recipe (examples/playwright-sandboxes): two browser contexts at once on one
 * server, each bound to its own sandbox, one by path prefix (baseURL) and one by header
 * (extraHTTPHeaders). Each sees its own clock in the inspector and its own rate limit.
 */

const PAGE_WAIT = { timeout: 10_000 } as const;
const START = Date.UTC(2025, 5, 2, 12);

describe.skipIf(SKIP_BROWSER)('a sandbox per browser context', () => {
  let server: RunningServer;
  let browser: Browser;
  const key = secretOf(createSimulator({ seed: 42 }), 'key_acme_read');

  beforeAll(async () => {
    requireChromium();
    const options = (o: { seed?: string; profile?: 'spec' | 'live'; clock?: 'real' | 'virtual'; startMs?: number }) =>
      createSimulator({ seed: o.seed ?? 42, clock: o.clock ?? 'virtual', startMs: o.startMs ?? START, ...(o.profile ? { profile: o.profile } : {}) });
    server = await startServer(options({}), { port: 0, sandboxes: createSandboxRegistry({ create: options }) });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The worker's part: the inspector shows the sandbox's clock, 120 queries pass and the 121st is refused, then the clock moves. */
  async function runWorker(sandbox: SandboxContext, paths: { ui: string; query: string; clock: string }, startIso: string, advanceMs: number): Promise<number[]> {
    const page = await sandbox.context.newPage();
    await page.goto(paths.ui);
    await page.getByTestId('clock-now').filter({ hasText: new RegExp(`^${startIso.replace(/[.]/g, '\\.')}$`) }).waitFor(PAGE_WAIT);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const res = await sandbox.context.request.post(paths.query, { headers: { 'x-api-key': key, 'content-type': 'application/json' }, data: SUMMARY_QUERY });
      statuses.push(res.status());
    }
    const moved = await sandbox.context.request.post(paths.clock, { data: { advanceMs } });
    expect(moved.status()).toBe(200);
    await page.getByTestId('clock-now').filter({ hasText: new Date(Date.parse(startIso) + advanceMs).toISOString() }).waitFor(PAGE_WAIT);
    return statuses;
  }

  it('gives two contexts at once their own clock and rate limit, by path prefix and by header', async () => {
    const [byPath, byHeader] = await Promise.all([
      openSandboxContext(browser, server.url, { id: 'pw-0', create: { now: '2025-01-01T00:00:00Z' } }),
      openSandboxContext(browser, server.url, { id: 'pw-1', by: 'header', create: { now: '2025-03-03T00:00:00Z' } }),
    ]);
    try {
      const [a, b] = await Promise.all([
        runWorker(byPath, { ui: '__sim/ui', query: 'v1/query?website_id=web_acme_store', clock: '__sim/clock' }, '2025-01-01T00:00:00.000Z', 60_000),
        runWorker(byHeader, { ui: '/__sim/ui', query: '/v1/query?website_id=web_acme_store', clock: '/__sim/clock' }, '2025-03-03T00:00:00.000Z', 3_600_000),
      ]);
      const expected = [...Array.from({ length: 120 }, () => 200), 429];
      expect(a).toEqual(expected);
      expect(b).toEqual(expected);
      // The server's own simulator saw none of it.
      const journal = (await (await fetch(`${server.url}/__sim/journal`)).json()) as { entries: unknown[] };
      expect(journal.entries).toEqual([]);
      expect(((await (await fetch(`${server.url}/__sim/clock`)).json()) as { now: number }).now).toBe(START);
    } finally {
      await Promise.all([byPath.close(), byHeader.close()]);
    }
    expect(((await (await fetch(`${server.url}/__sim/sandboxes`)).json()) as { sandboxes: unknown[] }).sandboxes).toEqual([]);
  }, 60_000);
});
