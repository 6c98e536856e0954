import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsReportSchema, type LimitsReport } from '../../src/contract/limits.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSimulator, type Simulator } from '../../src/index.js';
import { SUMMARY_QUERY } from '../helpers/credentials.js';
import { secretOf } from '../helpers/sim.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * The inspector (`/__sim/ui`) in a real browser: Debian's Chromium driven by playwright-core,
 * against the node:http server on a virtual clock. The page's figures are compared with what
 * the JSON routes answer; waiting is done with playwright's waiting functions, never sleeps.
 */

/** An identity that would run script if the page wrote data as markup. */
const HOSTILE_IP = '<img src=x onerror="window.__pwned=1">';

const PAGE_WAIT = { timeout: 10_000 } as const;

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

/**
 * The text of `[data-testid=<id>]`, once it equals `expected`. Locators wait without evaluating
 * script text, which the page's Content-Security-Policy (no 'unsafe-eval') would refuse.
 */
async function waitForText(page: Page, testId: string, expected: string): Promise<string> {
  const exact = new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await page.getByTestId(testId).filter({ hasText: exact }).waitFor(PAGE_WAIT);
  return (await page.getByTestId(testId).textContent()) ?? '';
}

describe.skipIf(SKIP_BROWSER)('the inspector page in Chromium', () => {
  let sim: Simulator;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  const held = new AbortController();
  const pageErrors: string[] = [];

  const send = (key: string, path = '/v1/query', extra: RequestInit = {}) =>
    fetch(`${server.url}${path}${path === '/v1/query' ? '?website_id=web_acme_store' : ''}`, {
      method: path === '/v1/query' ? 'POST' : 'GET',
      headers: { 'content-type': 'application/json', 'x-api-key': secretOf(sim, key) },
      ...(path === '/v1/query' ? { body: JSON.stringify(SUMMARY_QUERY) } : {}),
      ...extra,
    });

  beforeAll(async () => {
    requireChromium();
    sim = createSimulator({ seed: 42 });
    server = await startServer(sim, { port: 0, host: '127.0.0.1', trustProxy: true });

    // 12 queries on a key with a quota of 10 per 60 s: 10 admitted, 2 refused by key_quota.
    for (let i = 0; i < 12; i++) await (await send('key_acme_quota')).arrayBuffer();
    // 3 more admitted on another key, and one anonymous 401 from a hostile-looking client address.
    for (let i = 0; i < 3; i++) await (await send('key_acme_read')).arrayBuffer();
    await (await fetch(`${server.url}/v1/query/websites`, { headers: { 'x-forwarded-for': HOSTILE_IP } })).arrayBuffer();

    // Two requests held in flight for a minute by a running scenario.
    const start = await fetch(`${server.url}/__sim/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        scenario: {
          name: 'hold-types',
          description: 'GET /v1/query/types of key_acme_all waits 60 s',
          steps: [{ name: 'hold', match: { route: '/v1/query/types', keyId: 'key_acme_all' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 60_000 } } }],
        },
      }),
    });
    expect(start.status).toBe(201);
    for (let i = 0; i < 2; i++) send('key_acme_all', '/v1/query/types', { signal: held.signal }).catch(() => undefined);

    userDataDir = mkdtempSync(join(tmpdir(), 'analytics-sim-inspector-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(`${server.url}/__sim/ui`);
  }, 60_000);

  afterAll(async () => {
    held.abort();
    await context?.close();
    await server?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 30_000);

  it('shows the admitted and refused counts that the journal API reports', async () => {
    // The held requests are journaled when admitted: wait until the page has read all 18 decisions.
    await page.locator('#requests-body tr[data-seq="18"]').waitFor(PAGE_WAIT);
    const { entries } = await getJson<{ entries: { outcome: string }[] }>(`${server.url}/__sim/journal`);
    const admitted = entries.filter((e) => e.outcome === 'admitted').length;
    const byQuota = entries.filter((e) => e.outcome === 'key_quota').length;
    expect([admitted, byQuota]).toEqual([16, 2]);

    expect(await waitForText(page, 'count-admitted', String(admitted))).toBe('16');
    expect(await waitForText(page, 'count-key_quota', String(byQuota))).toBe('2');
    expect(await page.getByTestId('count-refused').textContent()).toBe(String(entries.length - admitted));
    expect(await page.getByTestId('count-endpoint_limit').textContent()).toBe('0');
    expect(await page.locator('#requests-body tr').count()).toBe(entries.length);
  });

  it('shows why a route refused a request, as the journal keeps it: the 401 of the anonymous request names AUTH_REQUIRED and its fix', async () => {
    const { entries } = await getJson<{ entries: { seq: number; reason: { code: string; fix: string | null } | null }[] }>(`${server.url}/__sim/journal`);
    const refused = entries.find((e) => e.reason?.code === 'AUTH_REQUIRED');
    expect(refused).toBeDefined();
    const cell = page.locator(`#requests-body tr[data-seq="${refused?.seq}"] td.reason`);
    await cell.waitFor(PAGE_WAIT);
    const text = (await cell.textContent()) ?? '';
    expect(text).toContain('admitted, then answered 401 by the route');
    expect(text).toContain('AUTH_REQUIRED');
    if (refused?.reason?.fix) expect(text).toContain(refused.reason.fix.slice(0, 40));
  });

  it('shows each key’s remaining quota and in-flight count as GET /__sim/limits answers them', async () => {
    await waitForText(page, 'inflight-key_acme_all', '2');
    const limits: LimitsReport = limitsReportSchema.parse(await getJson(`${server.url}/__sim/limits`));
    const quotaKey = limits.keys.find((k) => k.id === 'key_acme_quota');
    const allKey = limits.keys.find((k) => k.id === 'key_acme_all');
    expect(quotaKey?.quota?.remaining).toBe(0);
    expect(allKey?.inFlight).toBe(2);

    expect(await waitForText(page, 'quota-remaining-key_acme_quota', String(quotaKey?.quota?.remaining))).toBe('0');
    expect(await page.getByTestId('inflight-key_acme_all').textContent()).toBe(String(allKey?.inFlight));
    expect(await page.getByTestId('inflight-key_acme_quota').textContent()).toBe('0');
    expect(await page.getByTestId('inflight-total').textContent()).toBe(String(limits.inFlight.total));
    expect(await page.getByTestId('quota-remaining-key_acme_quota_default').textContent()).toBe('300');
  });

  it('shows the running scenario with its step on the timeline', async () => {
    const card = page.locator('[data-scenario="hold-types"]');
    await card.waitFor(PAGE_WAIT);
    expect(await card.locator('.step-active .bar').count()).toBe(1);
    expect(await card.textContent()).toContain('latency 60000 ms');
  });

  it('draws the chart with uPlot, served by the HTTP server from the installed package', async () => {
    await page.locator('#chart canvas').waitFor(PAGE_WAIT);
    const asset = await fetch(`${server.url}/__sim/ui/assets/uPlot.iife.min.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toMatch(/max-age=\d{6,}/);
    const css = await fetch(`${server.url}/__sim/ui/assets/uPlot.min.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('.uplot');
  });

  it('writes what requests carry as text, never as markup', async () => {
    const cell = page.locator('#requests-body td', { hasText: 'onerror' });
    await cell.waitFor(PAGE_WAIT);
    expect(await cell.textContent()).toBe(`anon:${HOSTILE_IP}`);
    expect(await page.locator('#requests-body img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
  });

  it('moves the clock by the amount the button states', async () => {
    const before = (await getJson<{ now: number }>(`${server.url}/__sim/clock`)).now;
    const button = page.getByTestId('advance-10000');
    expect(await button.textContent()).toBe('+10 s');
    await button.click();
    await page.locator(`#clock-iso[data-now="${before + 10_000}"]`).waitFor(PAGE_WAIT);
    expect((await getJson<{ now: number }>(`${server.url}/__sim/clock`)).now).toBe(before + 10_000);
    expect(await page.getByTestId('clock-now').textContent()).toBe(new Date(before + 10_000).toISOString());
    expect(await page.locator('#status').textContent()).toContain('Advanced the clock by 10 s');
  });

  it('ran without a script error and sent nothing to the simulated API', () => {
    expect(pageErrors).toEqual([]);
    expect(sim.journal.list().filter((e) => e.path.startsWith('/favicon'))).toEqual([]);
  });
});
