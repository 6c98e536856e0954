import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSimulator, type Simulator } from '../../src/index.js';
import { call, secretOf } from '../helpers/sim.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * What the browser tracker sends, sent by a real browser: a page on the website's own domain
 * (acme.io, mapped to this machine by Chromium's host resolver) posts a page view with `fetch`,
 * queues one with `navigator.sendBeacon` as text/plain, and loads the pixel; the same numbers
 * then come back through `/v1/query`.
 */

const T = Date.UTC(2025, 5, 2, 10, 0);

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>acme.io</title>
<script>
  const T = ${T};
  function view(eventId, path, minute) {
    return { eventId, name: 'screen_view', path: location.origin + path, anonymousId: 'anon_chromium', sessionId: 'sess_chromium', timestamp: T + minute * 60000, title: document.title };
  }
  async function sendAll(api) {
    const url = api + '/batch?client_id=web_acme_www';
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'databuddy-client-id': 'web_acme_www', 'databuddy-sdk-name': 'web', 'databuddy-sdk-version': '2.0.0' },
      body: JSON.stringify([view('cr_fetch', '/chromium-fetch', 0)]),
      credentials: 'omit',
      keepalive: true,
    });
    const fetchAnswer = { status: posted.status, body: await posted.json() };
    const queued = navigator.sendBeacon(url, new Blob([JSON.stringify([view('cr_beacon', '/chromium-beacon', 1)])], { type: 'text/plain' }));
    const pixel = await new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve({ loaded: true, width: image.naturalWidth, height: image.naturalHeight });
      image.onerror = () => resolve({ loaded: false });
      const fields = new URLSearchParams({ client_id: 'web_acme_www', sdk_name: 'web', sdk_version: '2.0.0', type: 'track', eventId: 'cr_pixel', name: 'screen_view', path: location.origin + '/chromium-pixel', anonymousId: 'anon_chromium', sessionId: 'sess_chromium', timestamp: String(T + 2 * 60000) });
      image.src = api + '/px.jpg?' + fields.toString();
    });
    return { fetchAnswer, queued, pixel };
  }
</script>
<h1>acme.io</h1>
`;

/** Serves the page on a free port of this machine. */
function servePage(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

describe.skipIf(SKIP_BROWSER)('the browser tracker’s transports from a real Chromium page', () => {
  let context: BrowserContext;
  let userDataDir: string;
  let page: { port: number; close(): Promise<void> };
  let sim: Simulator;
  let api: RunningServer;

  beforeAll(async () => {
    requireChromium();
    page = await servePage();
    sim = createSimulator({ seed: 42 });
    api = await startServer(sim, { port: 0, host: '127.0.0.1' });
    userDataDir = mkdtempSync(join(tmpdir(), 'analytics-sim-tracker-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      // A desktop Chrome's agent: the headless one names itself HeadlessChrome, which the service treats as a bot.
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP acme.io 127.0.0.1'],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await Promise.all([api?.close(), page?.close()]);
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 30_000);

  it('counts a fetch page view, a text/plain beacon and a pixel in top_pages and session_list, under the session id the page sent', async () => {
    const tab = await context.newPage();
    await tab.goto(`http://acme.io:${page.port}/`);
    const sent = (await tab.evaluate(`sendAll(${JSON.stringify(api.url.replace(/\/$/, ''))})`)) as {
      fetchAnswer: { status: number; body: { status: string; batched: { track: number } } };
      queued: boolean;
      pixel: { loaded: boolean; width?: number; height?: number };
    };
    expect(sent.fetchAnswer.status).toBe(200);
    expect(sent.fetchAnswer.body).toMatchObject({ status: 'success', batched: { track: 1 } });
    expect(sent.queued).toBe(true);
    expect(sent.pixel).toEqual({ loaded: true, width: 1, height: 1 });
    // A beacon has no answer the page can see: wait until the simulator has journaled it.
    await expect.poll(() => sim.journal.list().filter((e) => e.method === 'POST' && e.path === '/batch').length, { timeout: 15_000 }).toBe(2);
    await tab.close();

    const read = secretOf(sim, 'key_acme_read');
    const answer = await call(sim, 'POST', '/v1/query', {
      key: read,
      query: { website_id: 'web_acme_www' },
      body: { parameters: ['top_pages', 'session_list'], startDate: '2025-06-02', endDate: '2025-06-02', limit: 1000 },
    });
    const [pages, sessions] = answer.json.data as { data: Record<string, unknown>[] }[];
    for (const path of ['/chromium-fetch', '/chromium-beacon', '/chromium-pixel']) {
      expect(pages?.data.find((r) => (r.path ?? r.name) === path)).toMatchObject({ pageviews: 1, visitors: 1 });
    }
    expect(sessions?.data.find((r) => r.session_id === 'sess_chromium')).toMatchObject({ page_views: 3 });
    const journal = sim.journal.list().filter((e) => e.method !== 'OPTIONS' && (e.path === '/batch' || e.path === '/px.jpg'));
    expect(journal.map((e) => e.status)).toEqual([200, 200, 200]);
  }, 60_000);
});
