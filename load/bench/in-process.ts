/**
 * What one request costs in process, with no socket: `sim.handle()` (plain objects),
 * `sim.fetch()` (WHATWG Request and Response) and MSW (`setupSimulator`, the global fetch
 * intercepted), beside MSW answering a canned JSON body. Sequential requests, a cheap query
 * (`summary_metrics` today, limits off), microseconds per request after a warm-up.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSimulator } from '../../src/index.js';
import { setupSimulator } from '../../src/msw/index.js';
import { emitSection } from './section-channel.js';

const WARM = 2_000;
const COUNT = 10_000;
const body = JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' });

async function perRequestUs(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARM; i++) await run();
  const began = performance.now();
  for (let i = 0; i < COUNT; i++) await run();
  return ((performance.now() - began) * 1000) / COUNT;
}

const sim = createSimulator({ seed: 42, limits: 'off' });
const key = (sim.fixtures() as { apiKeys: { id: string; secret: string }[] }).apiKeys.find((k) => k.id === 'key_acme_read')?.secret ?? '';
const headers = { 'content-type': 'application/json', 'x-api-key': key };

const handleUs = await perRequestUs(() =>
  sim.handle({ method: 'POST', path: '/v1/query', query: { website_id: 'web_acme_store' }, headers: { ...headers, host: 'analytics.test' }, body }),
);
const fetchUs = await perRequestUs(async () => (await sim.fetch('/v1/query?website_id=web_acme_store', { method: 'POST', headers, body })).text());

const msw = setupSimulator({ seed: 42, limits: 'off', baseUrl: 'http://bench.test' });
const mswUs = await perRequestUs(async () => (await fetch('http://bench.test/v1/query?website_id=web_acme_store', { method: 'POST', headers, body })).text());
msw.close();

const canned = setupServer(http.all('http://canned.test/*', () => HttpResponse.json({ success: true })));
canned.listen({ onUnhandledRequest: 'bypass' });
const cannedUs = await perRequestUs(async () => (await fetch('http://canned.test/v1/query', { method: 'POST', headers, body })).text());
canned.close();

const perRequest = (name: string, us: number): { name: string; cells: { us: number } } => ({ name, cells: { us } });
await emitSection({
  kind: 'table',
  id: 'in-process',
  title: `in process, summary_metrics today, per request (${COUNT} sequential)`,
  nameLabel: 'how',
  columns: [{ key: 'us', label: 'µs', digits: 1 }],
  rows: [
    perRequest('sim.handle()', handleUs),
    perRequest('sim.fetch()', fetchUs),
    perRequest('MSW setupSimulator + fetch', mswUs),
    perRequest('MSW alone, canned JSON handler', cannedUs),
  ],
});
