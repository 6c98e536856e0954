import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { fetchAnswer } from '../helpers/wire.js';

/**
 * Separate `analytics-sim serve` processes on one redis-server, as a load balancer or a CI farm
 * runs them: every limit, the clock, tracked events and in-flight leases are one across them.
 */
let redis: RedisServer;
const running: CliProcess[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => {
  for (const cli of running.splice(0)) cli.kill();
});
afterAll(async () => {
  await redis?.stop();
});

/** `count` processes serving one simulator through a fresh prefix; their base URLs. */
async function serveShared(count: number, clock: 'virtual' | 'real' = 'virtual'): Promise<{ urls: string[]; processes: CliProcess[] }> {
  const prefix = `processes-${process.pid}-${++prefixes}`;
  const processes = Array.from({ length: count }, () => {
    const cli = startCli(['serve', '--store', redis.url, '--store-prefix', prefix, '--port', '0', '--clock', clock], {
      guardMs: 60_000,
      env: { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '' },
    });
    running.push(cli);
    return cli;
  });
  const urls = await Promise.all(processes.map(async (cli) => (await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1] as string));
  return { urls, processes };
}

async function secretOf(url: string, keyId: string): Promise<string> {
  const fixtures = await fetchAnswer(`${url}/__sim/fixtures`);
  return (fixtures.json.apiKeys as { id: string; secret: string }[]).find((k) => k.id === keyId)!.secret;
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('separate serve processes sharing one Redis store', () => {
  it('refuses the 11th request of a quota of 10 over three processes, and the merged journal judges every check right', async () => {
    const { urls } = await serveShared(3);
    const key = await secretOf(urls[0]!, 'key_acme_quota');
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await fetchAnswer(`${urls[i % 3]}/v1/query/websites`, { headers: { 'x-api-key': key } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    const oracle = await fetchAnswer(`${urls[1]}/__sim/journal/oracle`);
    expect(oracle.json).toMatchObject({ overAdmissions: 0, underAdmissions: 0, accuracy: 100 });
  }, 60_000);

  it('shows the clock advanced on A on B, and answers on B with an event tracked on A', async () => {
    const { urls } = await serveShared(2);
    const [a, b] = urls as [string, string];
    const before = (await fetchAnswer(`${b}/__sim/clock`)).json.now as number;
    expect((await fetchAnswer(`${a}/__sim/clock`, post({ advanceMs: 3_600_000 }))).status).toBe(200);
    expect((await fetchAnswer(`${b}/__sim/clock`)).json.now).toBe(before + 3_600_000);

    const tracked = await fetchAnswer(`${a}/track?website_id=web_acme_www`, post({ name: 'across_processes', timestamp: before + 60_000 }, { 'x-api-key': await secretOf(a, 'key_acme_track') }));
    expect(tracked.status).toBe(200);
    const day = new Date(before).toISOString().slice(0, 10);
    const answer = await fetchAnswer(
      `${b}/v1/query?website_id=web_acme_www`,
      post({ parameters: ['custom_events'], startDate: day, endDate: day, limit: 1000 }, { 'x-api-key': await secretOf(b, 'key_acme_read') }),
    );
    expect(answer.status).toBe(200);
    expect((answer.json.data[0].data as { name: string; total_events: number }[]).find((row) => row.name === 'across_processes')?.total_events).toBe(1);
  }, 60_000);

  it.each(['virtual', 'real'] as const)('answers on B, at once, an event tracked on A at this instant of the %s clock', async (clock) => {
    const { urls } = await serveShared(2, clock);
    const [a, b] = urls as [string, string];
    // The clock is frozen (virtual) or the wall clock (real): nothing moves it between the POST and the query.
    const now = (await fetchAnswer(`${a}/__sim/clock`)).json.now as number;
    const tracked = await fetchAnswer(`${a}/track?website_id=web_acme_www`, post({ name: 'now_across_processes', timestamp: now }, { 'x-api-key': await secretOf(a, 'key_acme_track') }));
    expect(tracked.status, tracked.text).toBe(200);
    const day = new Date(now).toISOString().slice(0, 10);
    const answer = await fetchAnswer(
      `${b}/v1/query?website_id=web_acme_www`,
      post({ parameters: ['custom_events'], startDate: day, endDate: day, filters: [{ field: 'event_name', op: 'eq', value: 'now_across_processes' }] }, { 'x-api-key': await secretOf(b, 'key_acme_read') }),
    );
    expect(answer.status).toBe(200);
    expect((answer.json.data[0].data as { name: string; total_events: number }[]).map((row) => [row.name, row.total_events])).toEqual([['now_across_processes', 1]]);
  }, 60_000);

  it('frees the in-flight slot of a process killed in the middle of a request within a few seconds', async () => {
    const { urls, processes } = await serveShared(2);
    const [a, b] = urls as [string, string];
    const key = await secretOf(a, 'key_acme_read');
    // Every request of the key is held 30 s by injected latency: its slot is held meanwhile.
    const slow = { name: 'slow', steps: [{ match: { keyId: 'key_acme_read' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 30_000 } } }] };
    expect((await fetchAnswer(`${b}/__sim/scenarios`, post({ scenario: slow }))).status).toBe(201);
    fetch(`${a}/v1/query/websites`, { headers: { 'x-api-key': key } }).catch(() => undefined);
    const held = Date.now();
    let inFlight = 0;
    while (inFlight === 0 && Date.now() - held < 10_000) inFlight = (await fetchAnswer(`${b}/__sim/health`)).json.inFlight as number;
    expect(inFlight).toBe(1);

    processes[0]!.child.kill('SIGKILL');
    await processes[0]!.exited;
    const killed = Date.now();
    while (inFlight > 0 && Date.now() - killed < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      inFlight = (await fetchAnswer(`${b}/__sim/health`)).json.inFlight as number;
    }
    expect(inFlight).toBe(0);
    expect(Date.now() - killed).toBeLessThan(10_000);
  }, 60_000);
});
