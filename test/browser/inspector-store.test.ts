import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSimulator, type Simulator } from '../../src/index.js';
import { createRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * The inspector of a simulator on a Redis store that loses its data (restarted without
 * persistence): the page says so on its status line, with the store's own message, and keeps
 * saying it. Waiting is done with playwright's waiting functions, never sleeps.
 */
describe.skipIf(SKIP_BROWSER)('the inspector of a simulator whose Redis lost its data', () => {
  let redis: RedisServer;
  let store: RedisStore;
  let sim: Simulator;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;

  beforeAll(async () => {
    requireChromium();
    redis = await startRedis();
    store = createRedisStore({ url: redis.url, prefix: `inspector-loss-${process.pid}`, commandTimeoutMs: 1000, leaseTtlMs: 300 });
    sim = createSimulator({ seed: 42, store });
    await sim.ready();
    server = await startServer(sim, { port: 0, host: '127.0.0.1' });
    userDataDir = mkdtempSync(join(tmpdir(), 'analytics-sim-inspector-store-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = await context.newPage();
    await page.goto(`${server.url}/__sim/ui`);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await store?.close();
    await redis?.stop();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 30_000);

  it('says nothing of the store while it holds its data, then the store’s message once Redis came back empty', async () => {
    // A poll has drawn the page, and the status line is empty.
    await page.locator('body[data-polls]').waitFor({ timeout: 10_000 });
    expect(await page.locator('#status').textContent()).toBe('');

    redis.kill();
    await redis.restart();

    const status = page.locator('#status.bad', { hasText: 'lost the data it held' });
    await status.waitFor({ timeout: 15_000 });
    const text = (await status.textContent()) ?? '';
    expect(text).toMatch(/^Shared store: the store at redis:\/\/127\.0\.0\.1:\d+\/0 \(prefix inspector-loss-\d+\) lost the data it held/);
    expect(text).toContain('--appendonly yes');
    const health = (await (await fetch(`${server.url}/__sim/health`)).json()) as { store: { dataLoss: { message: string } } };
    expect(text).toBe(`Shared store: ${health.store.dataLoss.message}`);
  }, 60_000);
});
