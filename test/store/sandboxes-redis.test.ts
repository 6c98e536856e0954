import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSharedSandboxRegistry } from '../../src/http/sandboxes/shared-sandbox-registry.js';
import { createSimulator } from '../../src/index.js';
import { createRedisSandboxDirectory } from '../../src/store/redis-sandbox-directory.js';
import { createRedisStore } from '../../src/store/redis-store.js';
import { startCli, type CliProcess } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { fetchAnswer } from '../helpers/wire.js';

/**
 * Sandboxes of a server on the Redis store: each sandbox is a simulator of its own under the key
 * prefix `<prefix>:sbx:<id>:<incarnation>` (its own hash tag), so its windows, journal and log
 * never mix with the server's or another sandbox's; the live sandboxes are a directory in the
 * store, so every process of the store (--workers N, or separate serve processes) serves each.
 */
let redis: RedisServer;
const running: CliProcess[] = [];
let PREFIX = `sandboxes-${process.pid}`;
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(() => {
  for (const cli of running.splice(0)) cli.kill();
  // Each test its own store prefix: the live sandboxes of the last one stay in its directory.
  PREFIX = `sandboxes-${process.pid}-${++prefixes}`;
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

  it('serves a sandbox from every process of the store: made on one, used and deleted on another', async () => {
    const [first, second] = await Promise.all([serve([]), serve([])]);
    expect((await fetchAnswer(`${first}/__sim/sandboxes`, post({ id: 'shared', seed: 9 }))).status).toBe(201);
    expect((await fetchAnswer(`${second}/__sim/sandboxes`, post({ id: 'shared' }))).status).toBe(409);
    const fixtures = await fetchAnswer(`${second}/__sandbox/shared/__sim/fixtures`);
    const key = (fixtures.json.apiKeys as { id: string; secret: string }[]).find((k) => k.id === 'key_acme_read')!.secret;
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const url = i % 2 === 0 ? first : second;
      statuses.push((await fetchAnswer(`${url}/__sandbox/shared/v1/query?website_id=web_acme_store`, post({ parameters: ['summary_metrics'], preset: 'last_7d' }, { 'x-api-key': key }))).status);
    }
    expect(statuses).toEqual([...Array.from({ length: 120 }, () => 200), 429]);
    expect((await fetchAnswer(`${first}/__sandbox/shared/__sim/clock`, post({ advanceMs: 60_000 }))).status).toBe(200);
    expect((await fetchAnswer(`${second}/__sandbox/shared/__sim/clock`)).json.now).toBe(Date.UTC(2025, 5, 2, 12, 1));
    const listed = await fetchAnswer(`${second}/__sim/sandboxes`);
    expect(listed.json.sandboxes.map((s: { id: string; seed: string; requests: number }) => [s.id, s.seed, s.requests])).toEqual([['shared', '9', 124]]);

    expect((await fetchAnswer(`${second}/__sim/sandboxes/shared`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetchAnswer(`${first}/__sandbox/shared/__sim/clock`)).status).toBe(404);
    expect((await fetchAnswer(`${second}/__sandbox/shared/__sim/clock`)).status).toBe(404);
  }, 60_000);

  it('serves sandboxes under --workers 2, each worker answering every sandbox', async () => {
    const url = await serve(['--workers', '2']);
    for (const id of ['w1', 'w2']) expect((await fetchAnswer(`${url}/__sim/sandboxes`, post({ id }))).status).toBe(201);
    const fixtures = await fetchAnswer(`${url}/__sandbox/w1/__sim/fixtures`);
    const key = (fixtures.json.apiKeys as { id: string; secret: string }[]).find((k) => k.id === 'key_acme_read')!.secret;
    const query = (id: string) => fetchAnswer(`${url}/__sandbox/${id}/v1/query?website_id=web_acme_store`, post({ parameters: ['summary_metrics'], preset: 'last_7d' }, { 'x-api-key': key, connection: 'close' }));
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await query('w1')).status);
    expect(statuses).toEqual([...Array.from({ length: 120 }, () => 200), 429]);
    expect((await query('w2')).status).toBe(200);
    expect((await fetchAnswer(`${url}/__sim/sandboxes/w1`, { method: 'DELETE' })).status).toBe(204);
    const after = await Promise.all([0, 1, 2, 3].map(() => fetchAnswer(`${url}/__sandbox/w1/__sim/clock`, { headers: { connection: 'close' } })));
    expect(after.map((a) => a.status)).toEqual([404, 404, 404, 404]);
  }, 60_000);

  it('refuses a sandbox past the cap on any process, and removes one idle past the timeout for every process', async () => {
    let wallMs = 5_000_000;
    const registryOf = () =>
      createSharedSandboxRegistry({
        create: (o) => createSimulator({ seed: 42, store: createRedisStore({ url: redis.url, prefix: o.storePrefix as string }) }),
        directory: createRedisSandboxDirectory({ url: redis.url, prefix: PREFIX }),
        storePrefixOf: (id) => `${PREFIX}:sbx:${id}:${wallMs}`,
        defaults: { seed: '42', profile: 'spec' },
        maxSandboxes: 1,
        idleMs: 60_000,
        now: () => wallMs,
      });
    const [one, two] = [registryOf(), registryOf()];
    try {
      const created = await one.create({ id: 'only' }, 'http://one');
      expect('id' in created && created.id).toBe('only');
      const refused = await two.create({ id: 'another' }, 'http://two');
      expect(['status' in refused && refused.status, 'message' in refused && refused.message]).toEqual([429, 'Too many sandboxes: 1 are live, the cap of this server (--max-sandboxes 1)']);
      wallMs += 59_999;
      const taken = await two.take('only');
      expect('status' in taken).toBe(false);
      wallMs += 60_000;
      const expired = await one.take('only');
      expect('status' in expired && expired.status).toBe(404);
      expect((await two.list()).sandboxes).toEqual([]);
      const again = await two.create({ id: 'another' }, 'http://two');
      expect('id' in again && again.id).toBe('another');
    } finally {
      await one.closeAll();
      await two.closeAll();
    }
  }, 60_000);
});
