/**
 * The rows of the fault table: for each, the Redis it runs on (fresh per row, on free loopback
 * ports, started with the tests' helpers) and the one fault it injects while the load runs.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '../../test/helpers/redis-server.js';
import { startSentinelPair } from '../../test/helpers/redis-topologies.js';
import { createTcpProxy } from './tcp-proxy.js';

/** The Redis side of one row, and the handles its fault needs. */
export interface FaultSetup {
  /** What `serve --store` is given. */
  readonly store: string;
  /** The Redis that holds the data now (the master), for administration (CONFIG SET, FLUSHALL). */
  readonly port: () => number;
  /** Stops every process and socket of the setup. */
  stop(): Promise<void>;
}

/** What a fault may touch while it runs. */
export interface FaultContext {
  readonly setup: FaultSetup;
  /** The pids of the simulator's workers (children of the `serve --workers` primary). */
  workers(): number[];
}

/** What a fault did, for the table. */
export interface Injected {
  /** When the fault began and ended (`Date.now()` ms; the same instant for a kill). */
  readonly began: number;
  readonly ended: number;
  /** One line on what was done (a pid, the new master). */
  readonly detail: string;
}

/** One row: its setup and its fault. */
export interface FaultRow {
  /** Short id (`kill-worker`), as `--only` names it. */
  readonly id: string;
  /** The row's name in the table. */
  readonly name: string;
  /** Whether Redis keeps its data through the fault (so no acknowledged record may be lost). */
  readonly keepsData: boolean;
  /** In the `--short` subset that CI runs. */
  readonly short: boolean;
  /**
   * Whether the fault itself may cut client connections: a killed worker takes the requests it
   * was answering with it (their connections reset; the client sends them again, elsewhere).
   */
  readonly dropsConnections: boolean;
  setup(): Promise<FaultSetup>;
  inject(context: FaultContext): Promise<Injected>;
}

/** How long the slow and cut rows last. */
export const FAULT_SECONDS = 3;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A short-lived admin connection to a Redis port (no retries: a failed command rejects). */
async function withRedis<T>(port: number, run: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: true });
  try {
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}

/** A single redis-server as one row's store. */
async function singleRedis(appendonly: boolean): Promise<FaultSetup & { readonly server: RedisServer }> {
  const server = await startRedis({ appendonly });
  return { server, store: server.url, port: () => server.port, stop: () => server.stop() };
}

/** A single Redis behind the proxy: the simulator's store is the proxy's port. */
async function proxiedRedis(): Promise<FaultSetup & { readonly proxy: RedisProxy }> {
  const server = await startRedis();
  const proxy = await createTcpProxy(server.port);
  return {
    proxy,
    store: `redis://127.0.0.1:${proxy.port}/0`,
    port: () => server.port,
    async stop() {
      await proxy.close();
      await server.stop();
    },
  };
}

/** The TCP proxy of a row set up by {@link proxiedRedis}. */
type RedisProxy = Awaited<ReturnType<typeof createTcpProxy>>;

/**
 * A fault on the link to Redis: `start` applied to the row's proxy for {@link FAULT_SECONDS},
 * then `end`; `detail` says what was done.
 */
function proxyFault(start: (proxy: RedisProxy) => void, end: (proxy: RedisProxy) => void, detail: string): FaultRow['inject'] {
  return async ({ setup }) => {
    const { proxy } = setup as FaultSetup & { readonly proxy: RedisProxy };
    const began = Date.now();
    start(proxy);
    await pause(FAULT_SECONDS * 1000);
    end(proxy);
    return { began, ended: Date.now(), detail };
  };
}

/** A kill -9 and a restart of the row's redis-server, as a crash and its supervisor would. */
async function crashAndRestart(setup: FaultSetup): Promise<Injected> {
  const { server } = setup as FaultSetup & { server: RedisServer };
  const began = Date.now();
  const pid = server.pid;
  server.kill();
  await server.restart();
  return { began, ended: Date.now(), detail: `redis-server pid ${pid} killed (SIGKILL), restarted on the same port` };
}

/** Every row, in table order. */
export const FAULT_ROWS: readonly FaultRow[] = [
  {
    id: 'kill-worker',
    name: 'kill -9 of a worker',
    keepsData: true,
    short: true,
    dropsConnections: true,
    setup: () => singleRedis(false),
    async inject({ workers }) {
      const pid = workers()[0];
      if (pid === undefined) throw new Error('no worker to kill: the primary has no children');
      const at = Date.now();
      process.kill(pid, 'SIGKILL');
      return { began: at, ended: at, detail: `worker pid ${pid} killed (SIGKILL)` };
    },
  },
  {
    id: 'restart-volatile',
    name: 'Redis restart, no persistence',
    keepsData: false,
    short: true,
    dropsConnections: false,
    setup: () => singleRedis(false),
    inject: ({ setup }) => crashAndRestart(setup),
  },
  {
    id: 'restart-aof',
    name: 'Redis restart, AOF (fsync always)',
    keepsData: true,
    short: true,
    dropsConnections: false,
    setup: () => singleRedis(true),
    inject: ({ setup }) => crashAndRestart(setup),
  },
  {
    id: 'sentinel-failover',
    name: 'Sentinel failover',
    keepsData: true,
    short: false,
    dropsConnections: false,
    async setup() {
      const pair = await startSentinelPair('simmaster', { replicas: 1 });
      let masterPort = pair.master.port;
      return {
        store: pair.url,
        port: () => masterPort,
        stop: () => pair.stop(),
        pair,
        promote: (port: number) => {
          masterPort = port;
        },
      } as FaultSetup;
    },
    async inject({ setup }) {
      const { pair, promote } = setup as FaultSetup & { pair: Awaited<ReturnType<typeof startSentinelPair>>; promote: (port: number) => void };
      const replica = pair.replicas[0]!;
      const began = Date.now();
      await withRedis(pair.sentinels[0].port, (sentinel) => sentinel.call('SENTINEL', 'FAILOVER', pair.name));
      // The failover ends when the replica says it is the master.
      const deadline = began + 30_000;
      await withRedis(replica.port, async (redis) => {
        while (!String(await redis.info('replication')).includes('role:master')) {
          if (Date.now() > deadline) throw new Error(`the replica on ${replica.port} was not promoted within 30 s`);
          await pause(20);
        }
      });
      promote(replica.port);
      return { began, ended: Date.now(), detail: `SENTINEL FAILOVER: port ${pair.master.port} → ${replica.port}` };
    },
  },
  {
    id: 'slow',
    name: `${FAULT_SECONDS} s of +${FAULT_SECONDS} s latency to Redis`,
    keepsData: true,
    short: false,
    dropsConnections: false,
    setup: proxiedRedis,
    inject: proxyFault((proxy) => proxy.setDelay(FAULT_SECONDS * 1000), (proxy) => proxy.setDelay(0), `every chunk between the simulator and Redis delayed ${FAULT_SECONDS} s`),
  },
  {
    id: 'slow-under-timeout',
    name: `${FAULT_SECONDS} s of +0.9 s latency to Redis`,
    keepsData: true,
    short: false,
    dropsConnections: false,
    setup: proxiedRedis,
    // Each round trip takes 1.8 s: under the command timeout (2 s), so no call gives up.
    inject: proxyFault((proxy) => proxy.setDelay(900), (proxy) => proxy.setDelay(0), 'every chunk between the simulator and Redis delayed 0.9 s (a round trip 1.8 s, under the 2 s command timeout)'),
  },
  {
    id: 'cut',
    name: `${FAULT_SECONDS} s cut to Redis`,
    keepsData: true,
    short: true,
    dropsConnections: false,
    setup: proxiedRedis,
    inject: proxyFault((proxy) => proxy.cut(), (proxy) => proxy.restore(), `no byte through for ${FAULT_SECONDS} s (held, then delivered)`),
  },
  {
    id: 'maxmemory',
    name: `Redis maxmemory reached (${FAULT_SECONDS} s)`,
    keepsData: true,
    short: false,
    dropsConnections: false,
    setup: () => singleRedis(false),
    async inject({ setup }) {
      return withRedis(setup.port(), async (redis) => {
        const used = Number(/used_memory:(\d+)/.exec(String(await redis.info('memory')))?.[1] ?? 0);
        const began = Date.now();
        await redis.config('SET', 'maxmemory-policy', 'noeviction');
        // Below what is used: every write that may grow memory is refused (OOM), reads go on.
        await redis.config('SET', 'maxmemory', String(Math.max(1, Math.floor(used / 2))));
        await pause(FAULT_SECONDS * 1000);
        await redis.config('SET', 'maxmemory', '0');
        return { began, ended: Date.now(), detail: `maxmemory ${Math.floor(used / 2)} bytes (used ${used}), noeviction` };
      });
    },
  },
];

/** The pids of the children of `pid` (Linux: /proc), e.g. the workers of a `serve --workers` primary. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
