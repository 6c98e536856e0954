import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startCli, runCli, type CliProcess } from '../helpers/cli.js';
import { expectOneSimulator, openedStores, twoSimulatorsOn } from '../helpers/one-simulator.js';
import { freePort, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startCluster, type RedisCluster } from '../helpers/redis-topologies.js';
import { expectOneQuotaAcross, listeningUrls } from '../helpers/shared-serve.js';

/**
 * One simulator on a three-node Redis Cluster (`--store redis-cluster://…`): every key of a
 * simulator carries the hash tag `{prefix}`, so its scripts run on one node, and simulators
 * with other prefixes land on other nodes.
 */
let cluster: RedisCluster;
let single: RedisServer;
const running: CliProcess[] = [];

beforeAll(async () => {
  [cluster, single] = await Promise.all([startCluster(3), startRedis()]);
}, 60_000);
afterAll(async () => {
  for (const cli of running.splice(0)) cli.kill();
  await Promise.allSettled(openedStores.splice(0).map((s) => s.close()));
  await Promise.allSettled([cluster?.stop(), single?.stop()]);
});

const CLEAN_ENV = { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '', ANALYTICS_SIM_STORE_CA: '' };

/** The node (port) serving each key of the cluster that starts with `{prefix}`. */
async function nodesHolding(prefix: string): Promise<Map<string, number>> {
  const holders = new Map<string, number>();
  for (const node of cluster.nodes) {
    const client = new Redis({ host: '127.0.0.1', port: node.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      for (const key of await client.keys(`{${prefix}}:*`)) holders.set(key, node.port);
    } finally {
      client.disconnect();
    }
  }
  return holders;
}

describe('a simulator on a Redis Cluster', () => {
  it('shares the quota, tracked events and one exact journal between two simulators on redis-cluster://', async () => {
    await expectOneSimulator(await twoSimulatorsOn({ url: cluster.url }, 'cluster'));
  });

  it('keeps every key of one simulator on one node, and simulators of other prefixes on several nodes', async () => {
    const sims = await twoSimulatorsOn({ url: cluster.url }, 'slot');
    await expectOneSimulator(sims);
    const prefix = openedStores[openedStores.length - 1]!.prefix;
    const holders = await nodesHolding(prefix);
    expect(holders.size).toBeGreaterThanOrEqual(10);
    expect(new Set(holders.values()).size).toBe(1);

    const client = new Redis({ host: '127.0.0.1', port: cluster.nodes[0]!.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      const slots = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const nodeOf = (slot: number): number => slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
      const nodes = new Set<number>();
      for (let job = 1; job <= 12; job++) nodes.add(nodeOf(Number(await client.call('CLUSTER', 'KEYSLOT', `{ci-job-${job}}:meta`))));
      expect(nodes.size).toBeGreaterThan(1);
    } finally {
      client.disconnect();
    }
  });

  it('serves one simulator from two serve processes on --store redis-cluster://: the 11th request of the quota is refused on the other', async () => {
    const prefix = `cluster-serve-${process.pid}`;
    const processes = [0, 1].map(() => {
      const cli = startCli(['serve', '--store', cluster.url, '--store-prefix', prefix, '--port', '0', '--clock', 'virtual'], { guardMs: 60_000, env: CLEAN_ENV });
      running.push(cli);
      return cli;
    });
    const urls = await listeningUrls(processes);
    expect(processes[0]!.stdout()).toContain(`store: ${cluster.url}, prefix ${prefix}`);
    await expectOneQuotaAcross(urls);
  }, 60_000);
});

describe('a cluster store that cannot be used is refused at start, in seconds', () => {
  it.concurrent('names the cluster nobody answers on, and exits 1', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const began = Date.now();
    const result = await runCli(['serve', '--port', '0', '--store', `redis-cluster://127.0.0.1:${a},127.0.0.1:${b}`], { env: CLEAN_ENV });
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^analytics-sim: cannot reach the store at redis-cluster://127\\.0\\.0\\.1:${a},127\\.0\\.0\\.1:${b} \\(no node of the cluster answered.*\\): start the cluster or fix --store\\n$`),
    );
  });

  it.concurrent('says a single Redis is not a cluster', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', `redis-cluster://127.0.0.1:${single.port}`], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `analytics-sim: the store at redis-cluster://127.0.0.1:${single.port} is not a Redis Cluster: use redis://HOST:PORT for a single Redis (ERR This instance has cluster support disabled)\n`,
    );
  });

  it.concurrent('says a cluster node given as redis:// is a cluster node when the prefix lives on another', async () => {
    const node = cluster.nodes[0]!;
    const client = new Redis({ host: '127.0.0.1', port: node.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    let prefix = '';
    try {
      const slots = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      for (let n = 1; n <= 50 && prefix === ''; n++) {
        const slot = Number(await client.call('CLUSTER', 'KEYSLOT', `{moved-${n}}:meta`));
        if (slots.find(([from, to]) => slot >= from && slot <= to)![2][1] !== node.port) prefix = `moved-${n}`;
      }
    } finally {
      client.disconnect();
    }
    const result = await runCli(['serve', '--port', '0', '--store', `redis://127.0.0.1:${node.port}`, '--store-prefix', prefix], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^analytics-sim: the store at redis://127\\.0\\.0\\.1:${node.port}/0 is a Redis Cluster node: use redis-cluster://HOST:PORT\\[,HOST:PORT…\\] \\(MOVED \\d+ `),
    );
  });

  it.concurrent.each([
    ['redis-cluster://127.0.0.1:7000,,127.0.0.1:7001', /'' in redis-cluster:\/\/127\.0\.0\.1:7000,,127\.0\.0\.1:7001 is not HOST:PORT/],
    ['redis-cluster://127.0.0.1:7000/0', /a cluster has only database 0/],
    ['redis-cluster://127.0.0.1:99999', /'127\.0\.0\.1:99999' in .* is not HOST:PORT/],
  ])('refuses the malformed %s with exit 2, naming the problem', async (url, message) => {
    const result = await runCli(['serve', '--port', '0', '--store', url], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^analytics-sim: --store must be memory, redis:\/\/HOST:PORT\[\/DB\] or rediss:\/\/HOST:PORT\[\/DB\] \(or sentinel:\/\//);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('refuses a process with another seed on a prefix a simulator holds, naming both settings', async () => {
    const [a] = await twoSimulatorsOn({ url: cluster.url }, 'taken');
    const prefix = openedStores[openedStores.length - 1]!.prefix;
    expect(a.seed).toBe('42');
    const result = await runCli(['serve', '--port', '0', '--store', cluster.url, '--store-prefix', prefix, '--seed', '7'], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^analytics-sim: the store at redis-cluster://\\S+ \\(prefix ${prefix}\\) holds a simulator with seed 42\\b.*; this process has seed 7\\b.*: use another --store-prefix or the same settings\\n$`),
    );
  });
});
