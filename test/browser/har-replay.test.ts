import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { har as validateHar } from 'har-validator';
import { startServer } from '../../src/http/node-server.js';
import { createSimulator } from '../../src/index.js';
import { secretOf } from '../helpers/sim.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, SKIP_BROWSER } from './chromium.js';

/**
 * The journal's HAR in the tool that reads HAR: a browser run against the simulator is recorded
 * by `GET /__sim/journal.har`, and Playwright's `routeFromHAR` answers the same requests from
 * that file once the simulator is gone.
 */
describe.skipIf(SKIP_BROWSER)('the journal as HAR in Playwright', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    requireChromium();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    dir = mkdtempSync(join(tmpdir(), 'har-'));
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('replays the answers of a run with routeFromHAR after the simulator stopped', async () => {
    const sim = createSimulator({ seed: 42, harBodies: 65_536 });
    const server = await startServer(sim, { port: 0 });
    const key = secretOf(sim, 'key_acme_read');
    const urls = [`${server.url}/v1/query/websites`, `${server.url}/health?probe=1`];

    const live = await browser.newContext({ extraHTTPHeaders: { 'x-api-key': key } });
    const seen: string[] = [];
    for (const url of urls) {
      const page = await live.newPage();
      const answer = await page.goto(url);
      expect(answer?.status()).toBe(200);
      seen.push((await answer?.text()) ?? '');
    }
    await live.close();

    const har = await (await fetch(`${server.url}/__sim/journal.har`)).json();
    await expect(validateHar(har)).resolves.toBeDefined();
    expect(JSON.stringify(har)).not.toContain(key);
    const file = join(dir, 'run.har');
    writeFileSync(file, JSON.stringify(har));
    await server.close();

    const replay = await browser.newContext();
    await replay.routeFromHAR(file, { notFound: 'abort' });
    for (const [i, url] of urls.entries()) {
      const page = await replay.newPage();
      const answer = await page.goto(url);
      expect(answer?.status()).toBe(200);
      expect((await answer?.text()) === seen[i], `the replayed answer of ${url}`).toBe(true);
    }
    await replay.close();
  }, 60_000);
});
