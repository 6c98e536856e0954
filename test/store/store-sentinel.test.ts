import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, runCli, type CliProcess } from '../helpers/cli.js';
import { expectOneSimulator, openedStores, twoSimulatorsOn } from '../helpers/one-simulator.js';
import { freePort, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startSentinelPair, type SentinelPair } from '../helpers/redis-topologies.js';
import { expectOneQuotaAcross, listeningUrls } from '../helpers/shared-serve.js';

/**
 * A master watched by two Sentinels (`redis-server --sentinel`): the store finds the master by
 * asking them (`sentinel://S1,S2/MASTER`, or the config file's Sentinel object).
 */
let pair: SentinelPair;
let guarded: SentinelPair;
let plain: RedisServer;
const running: CliProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'analytics-sim-sentinel-config-'));
const SENTINEL_PASSWORD = 'sentinel-s3cret';

beforeAll(async () => {
  [pair, guarded, plain] = await Promise.all([startSentinelPair('simmaster'), startSentinelPair('guarded', { sentinelPassword: SENTINEL_PASSWORD }), startRedis()]);
}, 60_000);
afterAll(async () => {
  for (const cli of running.splice(0)) cli.kill();
  await Promise.allSettled(openedStores.splice(0).map((s) => s.close()));
  await Promise.allSettled([pair?.stop(), guarded?.stop(), plain?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

const CLEAN_ENV = { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '', ANALYTICS_SIM_STORE_CA: '' };

describe('a Redis store found through Sentinel', () => {
  it('shares the quota, tracked events and one exact journal between two simulators on sentinel://S1,S2/MASTER', async () => {
    await expectOneSimulator(await twoSimulatorsOn({ url: pair.url }, 'sentinel'));
  });

  it('shares them on a Sentinel object whose Sentinels ask for a password', async () => {
    const config = { sentinels: guarded.sentinels.map((s) => `127.0.0.1:${s.port}`), name: guarded.name, sentinelPassword: SENTINEL_PASSWORD };
    await expectOneSimulator(await twoSimulatorsOn({ url: config }, 'sentinel-object'));
  });

  it('serves one simulator from two serve processes, one given sentinel:// and one a config file with the Sentinel object', async () => {
    const prefix = `sentinel-serve-${process.pid}`;
    const path = join(dir, 'sentinel.json');
    writeFileSync(path, JSON.stringify({ store: { sentinels: pair.sentinels.map((s) => `127.0.0.1:${s.port}`), name: pair.name }, storePrefix: prefix }));
    const processes = [
      startCli(['serve', '--store', pair.url, '--store-prefix', prefix, '--port', '0', '--clock', 'virtual'], { guardMs: 60_000, env: CLEAN_ENV }),
      startCli(['serve', '--config', path, '--port', '0', '--clock', 'virtual'], { guardMs: 60_000, env: CLEAN_ENV }),
    ];
    running.push(...processes);
    const urls = await listeningUrls(processes);
    expect(processes[1]!.stdout()).toContain(`store: ${pair.url.replace(/\/simmaster$/, '/simmaster/0')}, prefix ${prefix}`);
    await expectOneQuotaAcross(urls, urls[0]);
  }, 60_000);
});

describe('a Sentinel store that cannot be used is refused at start, naming it, in seconds', () => {
  it.concurrent('names the Sentinels nobody answers on, and exits 1', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const began = Date.now();
    const result = await runCli(['serve', '--port', '0', '--store', `sentinel://127.0.0.1:${a},127.0.0.1:${b}/simmaster`], { env: CLEAN_ENV });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^analytics-sim: cannot reach the store at sentinel://127\\.0\\.0\\.1:${a},127\\.0\\.0\\.1:${b}/simmaster/0 \\(no Sentinel answered for master simmaster.*\\): start the Sentinels or fix --store\\n$`),
    );
  });

  it.concurrent('names a master the Sentinels do not watch', async () => {
    const url = pair.url.replace(/simmaster$/, 'nosuchmaster');
    const result = await runCli(['serve', '--port', '0', '--store', url], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no Sentinel answered for master nosuchmaster/);
  });

  it.concurrent('says a Redis listed as a Sentinel is not one', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', `sentinel://127.0.0.1:${plain.port}/simmaster`], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/lists a Redis that is not a Sentinel: list the Sentinels \(redis-server --sentinel\), not the master \(ERR unknown command 'sentinel'/);
  });

  it.concurrent('says the Sentinels refused their password', async () => {
    const path = join(dir, 'wrong-sentinel-password.json');
    writeFileSync(path, JSON.stringify({ store: { sentinels: [`127.0.0.1:${guarded.sentinels[0].port}`], name: guarded.name, sentinelPassword: 'wrong' } }));
    const result = await runCli(['serve', '--port', '0', '--config', path], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused the Sentinels' user name or password: fix sentinelUsername \/ sentinelPassword \(WRONGPASS/);
  });

  it.concurrent.each([
    ['sentinel://127.0.0.1:26379', /names no master \(sentinel:\/\/HOST:PORT\/MASTER\)/],
    ['sentinel://127.0.0.1:26379/mymaster/zero', /the database in .* must be a number/],
    ['sentinel://127.0.0.1:26379/my master', /the master name in .* must be letters, digits/],
  ])('refuses the malformed %s with exit 2, naming the problem', async (url, message) => {
    const result = await runCli(['serve', '--port', '0', '--store', url], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it.concurrent('names the config file field of a Sentinel object missing its master name', async () => {
    const path = join(dir, 'no-name.json');
    writeFileSync(path, JSON.stringify({ store: { sentinels: ['127.0.0.1:26379'] } }));
    const result = await runCli(['serve', '--port', '0', '--config', path], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid config file ${path}: store`);
  });
});
