import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type CliProcess } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { fetchAnswer } from '../helpers/wire.js';

/**
 * Sandboxes of a server on the Redis store: each sandbox is a simulator of its own under the key
 * prefix `<prefix>:sbx:<id>:<incarnation>` (its own hash tag), so its windows, journal and log
 * never mix with the server's or another sandbox's. With --workers N, creation is refused with
 * the reason (a sandbox lives in the process that made it).
 */
let redis: RedisServer;
const running: CliProcess[] = [];
const PREFIX = `sandboxes-${process.pid}`;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => {
  for (const cli of running.splice(0)) cli.kill();
});
afterAll(async () => {
  await redis?.stop();
});

async function serve(args: readonly string[]): Promise<string> {
  const cli = startCli(['serve', '--store', redis.url, '--store-prefix', PREFIX, '--port', '0', '--now', '2025-06-02T12:00:00Z', ...args], {
    guardMs: 60_000,
    env: { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '' },
  });
  running.push(cli);
  return (await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/))[1] as string;
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('sandboxes on the Redis store', () => {
  it('keeps each sandbox under its own key prefix, with its own limits, clock and journal', async () => {
    const url = await serve([]);
    expect((await fetchAnswer(`${url}/__sim/sandboxes`, post({ id: 'a' }))).status).toBe(201);
    expect((await fetchAnswer(`${url}/__sim/sandboxes`, post({ id: 'b' }))).status).toBe(201);
    const fixtures = await fetchAnswer(`${url}/__sandbox/a/__sim/fixtures`);
    const key = (fixtures.json.apiKeys as { id: string; secret: string }[]).find((k) => k.id === 'key_acme_read')!.secret;
    const query = (base: string) => fetchAnswer(`${base}/v1/query?website_id=web_acme_store`, post({ parameters: ['summary_metrics'], preset: 'last_7d' }, { 'x-api-key': key }));
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await query(`${url}/__sandbox/a`)).status);
    expect(statuses).toEqual([...Array.from({ length: 120 }, () => 200), 429]);
    expect((await query(`${url}/__sandbox/b`)).status).toBe(200);
    expect((await query(url)).status).toBe(200);

    const moved = await fetchAnswer(`${url}/__sandbox/a/__sim/clock`, post({ advanceMs: 60_000 }));
    expect(moved.json.now).toBe(Date.UTC(2025, 5, 2, 12, 1));
    expect((await fetchAnswer(`${url}/__sandbox/b/__sim/clock`)).json.now).toBe(Date.UTC(2025, 5, 2, 12));
    expect((await fetchAnswer(`${url}/__sim/clock`)).json.now).toBe(Date.UTC(2025, 5, 2, 12));

    const journalSize = async (base: string) => (await fetchAnswer(`${base}/__sim/journal`)).json.info.size as number;
    expect([await journalSize(`${url}/__sandbox/a`), await journalSize(`${url}/__sandbox/b`), await journalSize(url)]).toEqual([121, 1, 1]);

    const client = new Redis(redis.url);
    try {
      const keys = await client.keys(`{${PREFIX}*`);
      const tags = [...new Set(keys.map((k) => k.slice(0, k.indexOf('}') + 1)))].sort();
      expect(tags).toHaveLength(3);
      expect(tags[0]).toMatch(new RegExp(`^\\{${PREFIX}:sbx:a:[0-9a-f]{8}\\}$`));
      expect(tags[1]).toMatch(new RegExp(`^\\{${PREFIX}:sbx:b:[0-9a-f]{8}\\}$`));
      expect(tags[2]).toBe(`{${PREFIX}}`);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('starts a sandbox made again with the same id from its seeded state', async () => {
    const url = await serve([]);
    expect((await fetchAnswer(`${url}/__sim/sandboxes`, post({ id: 'again' }))).status).toBe(201);
    expect((await fetchAnswer(`${url}/__sandbox/again/__sim/clock`, post({ advanceMs: 5_000 }))).json.now).toBe(Date.UTC(2025, 5, 2, 12, 0, 5));
    expect((await fetchAnswer(`${url}/__sim/sandboxes/again`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetchAnswer(`${url}/__sim/sandboxes`, post({ id: 'again', seed: 7 }))).status).toBe(201);
    expect((await fetchAnswer(`${url}/__sandbox/again/__sim/clock`)).json.now).toBe(Date.UTC(2025, 5, 2, 12));
    expect((await fetchAnswer(`${url}/__sandbox/again/__sim/health`)).json.seed).toBe('7');
  }, 60_000);

  it('says in the 404 of an unknown sandbox that sandboxes are per process on a shared store', async () => {
    const url = await serve([]);
    const answer = await fetchAnswer(`${url}/__sandbox/elsewhere/__sim/clock`);
    expect(answer.status).toBe(404);
    expect(answer.json.hint).toContain('On a shared store a sandbox lives in the process that created it');
  }, 60_000);

  it('refuses to create a sandbox under --workers 2, saying why and what to do', async () => {
    const url = await serve(['--workers', '2']);
    const answer = await fetchAnswer(`${url}/__sim/sandboxes`, post({ id: 'w' }));
    expect([answer.status, answer.json.code, answer.json.error]).toEqual([409, 'CONFLICT', 'Sandboxes cannot be created on this server']);
    expect(answer.json.hint).toContain('--workers 1');
  }, 60_000);
});
