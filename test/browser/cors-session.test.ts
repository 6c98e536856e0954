import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { createSimulator, type Simulator } from '../../src/index.js';
import { secretOf } from '../helpers/sim.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * A real browser against the simulator: Debian's Chromium driven by playwright-core (never a
 * downloaded browser). Pages and API are on `localhost` with different ports: same-site, so the
 * SameSite=Lax session cookie travels with `credentials: 'include'`, and CORS decides whether
 * the page may read the answer.
 */

/** The page every origin serves: a dashboard that signs in and lists websites, as a browser app would. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>analytics-sim browser test</title>
<script>
  async function signIn(api, userId) {
    const response = await fetch(api + '/__sim/sessions', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId }),
    });
    return { status: response.status, body: await response.json() };
  }
  async function listWebsites(api) {
    try {
      const response = await fetch(api + '/v1/query/websites', { credentials: 'include' });
      return { ok: true, status: response.status, requestId: response.headers.get('x-request-id'), body: await response.json() };
    } catch (error) {
      return { ok: false, error: String(error) };
    }
  }
</script>
<h1>dashboard</h1>
`;

interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** A tiny static server for the page, on localhost and a free port. */
function servePage(): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, 'localhost', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://localhost:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

interface WebsitesResult {
  ok: boolean;
  status?: number;
  requestId?: string | null;
  body?: { websites: { id: string }[] };
  error?: string;
}

async function open(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  return page;
}

const signIn = (page: Page, api: string, userId: string) =>
  page.evaluate(`signIn(${JSON.stringify(api)}, ${JSON.stringify(userId)})`) as Promise<{ status: number; body: { token: string } }>;
const listWebsites = (page: Page, api: string) => page.evaluate(`listWebsites(${JSON.stringify(api)})`) as Promise<WebsitesResult>;

describe.skipIf(SKIP_BROWSER)('a real browser against the simulator (Chromium via playwright-core)', () => {
  let context: BrowserContext;
  let userDataDir: string;
  let allowedPage: PageServer;
  let foreignPage: PageServer;
  /** Default origins: any localhost port is allowed. */
  let openSim: Simulator;
  let openApi: RunningServer;
  /** Allows only `allowedPage`'s origin. */
  let strictSim: Simulator;
  let strictApi: RunningServer;

  beforeAll(async () => {
    requireChromium();
    [allowedPage, foreignPage] = await Promise.all([servePage(), servePage()]);
    openSim = createSimulator({ seed: 42 });
    strictSim = createSimulator({ seed: 42, allowedOrigins: [allowedPage.origin] });
    [openApi, strictApi] = await Promise.all([
      startServer(openSim, { port: 0, host: 'localhost' }),
      startServer(strictSim, { port: 0, host: 'localhost' }),
    ]);
    userDataDir = mkdtempSync(join(tmpdir(), 'analytics-sim-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await Promise.all([openApi?.close(), strictApi?.close(), allowedPage?.close(), foreignPage?.close()]);
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  }, 30_000);

  it('signs in from a page, keeps the cookie HttpOnly and SameSite=Lax, and lists the user’s websites with credentials', async () => {
    await context.clearCookies();
    const page = await open(context, allowedPage.origin);
    const session = await signIn(page, openApi.url, 'user_alice');
    expect(session.status).toBe(201);

    const [cookie] = await context.cookies(openApi.url);
    expect(cookie).toMatchObject({ name: 'databuddy.session_token', value: session.body.token, httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
    expect(await page.evaluate('document.cookie')).toBe('');

    const result = await listWebsites(page, openApi.url);
    expect(result.ok).toBe(true);
    expect(result.status).toBe(200);
    expect(result.requestId).toMatch(/^req_[A-Za-z0-9]{16}$/);
    const byKey = await openSim.handle({ method: 'GET', path: '/v1/query/websites', query: {}, headers: { 'x-api-key': secretOf(openSim, 'key_acme_read') } });
    const expected = (JSON.parse(byKey.body) as { websites: { id: string }[] }).websites.map((w) => w.id);
    expect(result.body?.websites.map((w) => w.id)).toEqual(expected);
    expect(openSim.journal.list().at(-2)).toMatchObject({ method: 'GET', identity: 'user:user_alice', status: 200 });
    await page.close();
  }, 30_000);

  it('blocks a page of a disallowed origin: its fetch rejects, and its cookie authenticated nothing', async () => {
    await context.clearCookies();
    const allowed = await open(context, allowedPage.origin);
    expect((await signIn(allowed, strictApi.url, 'user_bob')).status).toBe(201);
    expect((await listWebsites(allowed, strictApi.url)).status).toBe(200);

    const foreign = await open(context, foreignPage.origin);
    const before = strictSim.journal.list().length;
    const result = await listWebsites(foreign, strictApi.url);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/TypeError/);
    const seen = strictSim.journal.list().slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/v1/query/websites', status: 401 });
    expect(seen[0]?.identity).toMatch(/^anon:/);
    await Promise.all([allowed.close(), foreign.close()]);
  }, 30_000);
});
