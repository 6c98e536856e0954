/**
 * The ioredis client of a {@link StoreTarget}: a `Redis` for one server or a Sentinel-watched
 * master, a `Cluster` for a Redis Cluster. Every form gets the same behaviour on failure: no
 * offline queue, a command timeout, reconnection every ≤ 500 ms, forever, and a ready check
 * repeated every ≤ 100 ms while a restarted Redis loads its data.
 */
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { StoreTarget } from './store-target.js';

/** Longest pause between reconnect attempts (to a server, a Sentinel or a cluster). */
const MAX_RECONNECT_DELAY_MS = 500;

/** Longest pause between two ready checks of a Redis still loading its data after a restart. */
export const LOADING_RETRY_MS = 100;

/** How the client waits and retries. */
export interface RedisClientOptions {
  /** How long a command (and a connection attempt, at least 500 ms) may take. */
  readonly commandTimeoutMs: number;
  /** TLS options for `rediss://`, merged over the defaults (e.g. `{ ca }`). */
  readonly tls?: ConnectionOptions | undefined;
}

const backoff = (times: number): number => Math.min(50 * times, MAX_RECONNECT_DELAY_MS);

/**
 * Creates the client, connecting at once. The caller defines the scripts and listens for
 * `ready`, `error` and `close`, which both client kinds emit.
 */
export function createRedisClient(target: StoreTarget, options: RedisClientOptions): Redis | Cluster {
  const common: NonNullable<ClusterOptions['redisOptions']> = {
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(options.commandTimeoutMs, 500),
    // Auto-pipelining was measured slower here (a request's calls are sequential, so it mostly
    // adds a tick of latency): about 0.55× at 8 concurrent callers, even at 64, 1.08× at 256.
    // The store batches a turn's operations into one script call itself (redis-batch.ts).
    enableAutoPipelining: false,
    lazyConnect: false,
    // A Redis that is still loading its data (just restarted) answers the ready check with an
    // estimate of at least a second, which ioredis would wait out whole: ask again every 100 ms.
    maxLoadingRetryTime: LOADING_RETRY_MS,
    // RESP2: what every Redis since 5 speaks (the scripts' replies are the same either way).
    protocol: 2,
  };
  if (target.username !== undefined) common.username = target.username;
  if (target.password !== undefined) common.password = target.password;

  switch (target.kind) {
    case 'redis': {
      const redisOptions: RedisOptions = {
        ...common,
        enableOfflineQueue: false,
        host: target.host,
        port: target.port,
        db: target.db,
        retryStrategy: backoff,
      };
      if (target.tls) redisOptions.tls = { ...(isIP(target.host) === 0 ? { servername: target.host } : {}), ...options.tls };
      return new Redis(redisOptions);
    }
    case 'sentinel': {
      const redisOptions: RedisOptions = {
        ...common,
        enableOfflineQueue: false,
        sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
        name: target.name,
        db: target.db,
        retryStrategy: backoff,
        sentinelRetryStrategy: backoff,
        sentinelCommandTimeout: options.commandTimeoutMs,
      };
      if (target.sentinelUsername !== undefined) redisOptions.sentinelUsername = target.sentinelUsername;
      if (target.sentinelPassword !== undefined) redisOptions.sentinelPassword = target.sentinelPassword;
      return new Redis(redisOptions);
    }
    case 'cluster': {
      const clusterOptions: ClusterOptions = {
        enableOfflineQueue: false,
        enableReadyCheck: true,
        lazyConnect: false,
        enableAutoPipelining: false,
        clusterRetryStrategy: backoff,
        slotsRefreshTimeout: Math.max(options.commandTimeoutMs, 500),
        retryDelayOnClusterDown: 100,
        retryDelayOnFailover: 100,
        retryDelayOnTryAgain: 100,
        redisOptions: common,
      };
      return new Cluster(
        target.nodes.map(({ host, port }) => ({ host, port })),
        clusterOptions,
      );
    }
  }
}
