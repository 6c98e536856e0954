import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdsWithin, startCli, type CliProcess } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { fetchAnswer } from '../helpers/wire.js';

/**
 * `analytics-sim serve --workers 2` on a Redis restarted without persistence: each worker says
 * on stderr that the store lost its data, and `GET /__sim/health` says it too, instead of the
 * processes carrying on silently with a half-state.
 */
let redis: RedisServer;
let cli: CliProcess | undefined;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  // SIGTERM: the primary stops its workers and exits (the guard kills it past 60 s).
  cli?.child.kill('SIGTERM');
  await cli?.exited;
  await redis?.stop();
});

const LOST = /^analytics-sim: the store at redis:\/\/127\.0\.0\.1:\d+\/0 \(prefix data-loss-cli-\d+\) lost the data it held \(a Redis restarted without persistence, or flushed\), found at \S+: .*run Redis with --appendonly yes to keep them$/gm;

describe('analytics-sim serve on a Redis that comes back empty', () => {
  it('logs one line per worker naming what was lost and --appendonly yes, and health reports it', async () => {
    cli = startCli(['serve', '--store', redis.url, '--store-prefix', `data-loss-cli-${process.pid}`, '--port', '0', '--workers', '2'], {
      guardMs: 60_000,
      env: { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '' },
    });
    const [, url] = await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await cli.waitForStdout(/workers: 2 processes/);
    expect((await fetchAnswer(`${url}/__sim/health`)).json.store.dataLoss).toBeNull();

    redis.kill();
    await redis.restart();

    expect(await holdsWithin(15_000, () => (cli!.stderr().match(LOST) ?? []).length === 2)).toBe(true);
    expect(await holdsWithin(15_000, async () => (await fetchAnswer(`${url}/__sim/health`).catch(() => null))?.json?.store?.dataLoss?.count === 1)).toBe(true);
  }, 60_000);
});
