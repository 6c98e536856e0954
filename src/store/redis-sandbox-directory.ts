import type { ConnectionOptions } from 'node:tls';
import type { Cluster, Redis } from 'ioredis';
import type { DirectoryEntry, SandboxDirectory, SandboxRecord } from '../http/sandboxes/sandbox-directory.js';
import { createRedisClient } from './redis-client.js';
import { parseStoreTarget, STORE_FORMS, type StoreTarget } from './store-target.js';
import type { SentinelStoreConfig } from '../contract/config.js';

/**
 * Removes the records idle for `idle` ms (0: never) at `at`. KEYS: records, used, requests.
 * Shared by every script below; `at` and `idle` are numbers.
 */
const SWEEP = `
local function sweep(at, idle)
  if idle <= 0 then return end
  local used = redis.call('HGETALL', KEYS[2])
  for i = 1, #used, 2 do
    if at - tonumber(used[i + 1]) >= idle then
      redis.call('HDEL', KEYS[1], used[i]); redis.call('HDEL', KEYS[2], used[i]); redis.call('HDEL', KEYS[3], used[i])
    end
  end
end
`;

/** ARGV: id, record, max, idle, at. */
const CLAIM = `${SWEEP}
sweep(tonumber(ARGV[5]), tonumber(ARGV[4]))
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 'taken' end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[5])
redis.call('HSET', KEYS[3], ARGV[1], 0)
return 'claimed'`;

/** ARGV: id, at, idle. */
const USE = `
local record = redis.call('HGET', KEYS[1], ARGV[1])
if not record then return false end
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or ARGV[2])
local idle = tonumber(ARGV[3])
if idle > 0 and tonumber(ARGV[2]) - last >= idle then
  redis.call('HDEL', KEYS[1], ARGV[1]); redis.call('HDEL', KEYS[2], ARGV[1]); redis.call('HDEL', KEYS[3], ARGV[1])
  return false
end
if tonumber(ARGV[2]) > last then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
redis.call('HINCRBY', KEYS[3], ARGV[1], 1)
return record`;

/** ARGV: id. */
const RELEASE = `
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1]); redis.call('HDEL', KEYS[3], ARGV[1])
return removed`;

/** ARGV: idle, at. Returns records, used, requests as three flat lists. */
const LIST = `${SWEEP}
sweep(tonumber(ARGV[2]), tonumber(ARGV[1]))
return { redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3]) }`;

/** Options of {@link createRedisSandboxDirectory}. */
export interface RedisSandboxDirectoryOptions {
  /** The store's URL or Sentinel object, as `--store` gives it. */
  readonly url: string | SentinelStoreConfig;
  /** The server's store prefix: the directory is `{<prefix>}:sandboxes` (and `:used`, `:requests`), in the server's slot. */
  readonly prefix: string;
  readonly tls?: ConnectionOptions;
  /** Milliseconds a command may take (default 2,000). */
  readonly commandTimeoutMs?: number;
}

type Scripted = (Redis | Cluster) & {
  sbxClaim(k1: string, k2: string, k3: string, ...argv: (string | number)[]): Promise<string>;
  sbxUse(k1: string, k2: string, k3: string, ...argv: (string | number)[]): Promise<string | null>;
  sbxRelease(k1: string, k2: string, k3: string, ...argv: (string | number)[]): Promise<number>;
  sbxList(k1: string, k2: string, k3: string, ...argv: (string | number)[]): Promise<[string[], string[], string[]]>;
};

/** Pairs of a flat HGETALL answer, as a map. */
function pairs(flat: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i] as string, flat[i + 1] as string);
  return map;
}

/**
 * The directory of sandboxes on the Redis store, so every process of `--workers N` (or separate
 * `serve` processes on one store and prefix) knows every sandbox: three hashes under the server's
 * hash tag, `{<prefix>}:sandboxes` (id → record), `…:used` (id → last use, wall ms) and
 * `…:requests` (id → requests), each change one Lua script (the cap and the id check atomic over
 * processes). Its own connection.
 */
export function createRedisSandboxDirectory(options: RedisSandboxDirectoryOptions): SandboxDirectory {
  const parsed = parseStoreTarget(options.url, STORE_FORMS);
  if ('error' in parsed) throw new Error(parsed.error);
  const client = createRedisClient(parsed as StoreTarget, { commandTimeoutMs: options.commandTimeoutMs ?? 2000, tls: options.tls }) as Scripted;
  client.defineCommand('sbxClaim', { lua: CLAIM, numberOfKeys: 3 });
  client.defineCommand('sbxUse', { lua: USE, numberOfKeys: 3 });
  client.defineCommand('sbxRelease', { lua: RELEASE, numberOfKeys: 3 });
  client.defineCommand('sbxList', { lua: LIST, numberOfKeys: 3 });
  // Errors are answered per call; the client reconnects by itself.
  client.on('error', () => undefined);
  const timeoutMs = options.commandTimeoutMs ?? 2000;
  /** Resolves once the client is connected (at once when it is), rejects after the command timeout: no offline queue. */
  const connected = (): Promise<void> =>
    client.status === 'ready'
      ? Promise.resolve()
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            client.off('ready', ready);
            reject(new Error(`the sandbox directory's Redis did not answer within ${timeoutMs} ms`));
          }, timeoutMs);
          const ready = (): void => {
            clearTimeout(timer);
            resolve();
          };
          client.once('ready', ready);
        });
  const base = `{${options.prefix}}:sandboxes`;
  const keys = [base, `${base}:used`, `${base}:requests`] as const;
  return {
    async claim(record, max, idleMs, at) {
      await connected();
      return (await client.sbxClaim(...keys, record.id, JSON.stringify(record), max, idleMs, at)) as 'claimed' | 'taken' | 'full';
    },
    async use(id, at, idleMs) {
      await connected();
      const record = await client.sbxUse(...keys, id, at, idleMs);
      return record === null ? null : (JSON.parse(record) as SandboxRecord);
    },
    async release(id) {
      await connected();
      return (await client.sbxRelease(...keys, id)) === 1;
    },
    async list(idleMs, at) {
      await connected();
      const [records, used, requests] = await client.sbxList(...keys, idleMs, at);
      const usedBy = pairs(used);
      const requestsBy = pairs(requests);
      const entries: DirectoryEntry[] = [...pairs(records)].map(([id, text]) => ({
        record: JSON.parse(text) as SandboxRecord,
        lastUsed: Number(usedBy.get(id) ?? 0),
        requests: Number(requestsBy.get(id) ?? 0),
      }));
      return entries.sort((a, b) => a.record.createdAt - b.record.createdAt || (a.record.id < b.record.id ? -1 : 1));
    },
    async close() {
      client.disconnect();
    },
  };
}
