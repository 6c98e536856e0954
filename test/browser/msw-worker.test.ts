import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../src/index.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { secretOf } from '../helpers/sim.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * The browser entry in a real page: `analytics-sim/msw/browser` (bundled with esbuild, as an
 * app's bundler would) starts MSW's Service Worker with the simulator's handlers, and the
 * page's own `fetch` to http://analytics.test gets simulated data, with no server behind it.
 */

/** What the page exposes to the test. */
const APP = `
import { setupSimulatorWorker } from './src/msw/browser.ts';

let sim;
window.startSimulator = async (options) => {
  sim = await setupSimulatorWorker(options);
  return { baseUrl: sim.baseUrl, key: sim.secretOf('key_acme_read') };
};
window.call = async (path, init) => {
  try {
    const response = await fetch(sim.url(path), init);
    const headers = {};
    response.headers.forEach((value, name) => { headers[name] = value; });
    return { ok: true, status: response.status, headers, text: await response.text() };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
};
window.control = {
  startScenario: (scenario) => sim.scenarios.start(scenario).name,
  stopScenarios: () => sim.scenarios.stop(),
  journal: () => sim.journal.list().map((e) => ({ path: e.path, status: e.status, outcome: e.outcome })),
  advance: (ms) => sim.clock.advance(ms),
};
`;

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>analytics-sim in a page</title>
<script src="/app.js"></script>
<h1>app</h1>
`;

interface Seen {
  ok: boolean;
  status?: number;
  headers?: Record<string, string>;
  text?: string;
  error?: string;
}

/** Serves the page, the bundle and MSW's worker script on localhost (a secure context for Service Workers). */
async function servePage(bundle: string, workerScript: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (path === '/app.js') res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(bundle);
    else if (path === '/mockServiceWorker.js') res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(workerScript);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, 'localhost', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

describe.skipIf(SKIP_BROWSER)('the simulator in a web page through MSW’s Service Worker (Chromium)', () => {
  let context: BrowserContext;
  let userDataDir: string;
  let site: { origin: string; close(): Promise<void> };
  let page: Page;

  const call = (path: string, init: RequestInit = {}) => page.evaluate(`call(${JSON.stringify(path)}, ${JSON.stringify(init)})`) as Promise<Seen>;

  beforeAll(async () => {
    requireChromium();
    const bundled = await build({
      stdin: { contents: APP, resolveDir: REPO_ROOT, sourcefile: 'app.js', loader: 'js' },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'silent',
    });
    const workerScript = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
    site = await servePage(bundled.outputFiles[0]?.text ?? '', workerScript);
    userDataDir = mkdtempSync(join(tmpdir(), 'analytics-sim-msw-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = await context.newPage();
    await page.goto(`${site.origin}/`);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await site?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 30_000);

  it('starts setupWorker with the simulator’s handlers and answers the page’s fetch with the bytes the simulator gives in node', async () => {
    const started = (await page.evaluate(`startSimulator({ seed: 42, baseUrl: 'http://analytics.test' })`)) as { baseUrl: string; key: string };
    const inNode = createSimulator({ seed: 42 });
    expect(started).toEqual({ baseUrl: 'http://analytics.test', key: secretOf(inNode, 'key_acme_read') });
    // MSW's Service Worker controls the page, not a fallback patch of fetch.
    expect(await page.evaluate('navigator.serviceWorker.controller?.scriptURL')).toBe(`${site.origin}/mockServiceWorker.js`);

    const body = { parameters: ['summary_metrics', 'top_pages'], preset: 'last_7d', limit: 3 };
    const seen = await call('/v1/query?website_id=web_acme_store', {
      method: 'POST',
      headers: { 'x-api-key': started.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const expected = await inNode.handle({
      method: 'POST',
      path: '/v1/query',
      query: { website_id: 'web_acme_store' },
      headers: { 'x-api-key': started.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(seen.ok, seen.error).toBe(true);
    expect(seen.status).toBe(200);
    expect(seen.headers?.['x-request-id']).toBe(expected.headers['X-Request-ID']);
    expect(seen.text).toBe(expected.body);
    expect(JSON.parse(seen.text ?? '{}')).toMatchObject({ success: true, data: [{ parameter: 'summary_metrics' }, { parameter: 'top_pages' }] });
  }, 30_000);

  it('answers refusals and the control plane in the page too', async () => {
    const refused = await call('/v1/query/websites');
    expect(refused).toMatchObject({ ok: true, status: 401 });
    expect(refused.headers?.['www-authenticate']).toMatch(/^Bearer /);
    const health = await call('/__sim/health');
    expect(JSON.parse(health.text ?? '{}')).toMatchObject({ ok: true, seed: '42', inFlight: 0 });
  }, 30_000);

  it('makes the page’s fetch reject for a reset scenario, and leaves other URLs to the network', async () => {
    await page.evaluate(`control.startScenario({ name: 'drop', steps: [{ match: { route: '/v1/query/types' }, effect: { type: 'reset' } }] })`);
    const dropped = await call('/v1/query/types');
    expect(dropped.ok).toBe(false);
    expect(dropped.error).toMatch(/TypeError/);
    await page.evaluate('control.stopScenarios()');
    expect((await call('/v1/query/types')).status).toBe(200);
    const journal = (await page.evaluate('control.journal()')) as { path: string; status: number; outcome: string }[];
    expect(journal.slice(-2)).toEqual([
      { path: '/v1/query/types', status: 0, outcome: 'scenario' },
      { path: '/v1/query/types', status: 200, outcome: 'admitted' },
    ]);
    // The page's own origin is not simulated: the worker passes it through to the real server.
    const own = (await page.evaluate(`fetch('/').then((r) => r.status)`)) as number;
    expect(own).toBe(200);
  }, 30_000);
});
