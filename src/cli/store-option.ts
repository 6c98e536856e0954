import { readFileSync } from 'node:fs';
import { DEFAULT_STORE_PREFIX, type SentinelStoreConfig } from '../contract/config.js';
import type { ServeOptions } from './args.js';
import { UsageError } from './read-json-file.js';

/** The store `serve` runs on, checked: this process's memory, or a Redis store shared by every process using it. */
export type StoreChoice =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'redis';
      /** The URL or Sentinel object as given (it may hold a password: never print it; print `location`). */
      readonly url: string | SentinelStoreConfig;
      /** Where the store is, without credentials, e.g. `redis://127.0.0.1:6379/0`. */
      readonly location: string;
      /** The port of a single Redis (for the hint to start one); null for Sentinel and Cluster. */
      readonly port: number | null;
      readonly prefix: string;
      /** The CA certificates of `--store-ca`, read at start; undefined: the system CAs. */
      readonly ca?: Buffer;
    };

/** Where each store option came from, for error messages: a flag, an environment variable or a config file field. */
export interface StoreOptionSources {
  readonly store: string;
  readonly storePrefix: string;
  /** Where `storeCa` came from (default `--store-ca`). */
  readonly storeCa?: string;
}

/** A store that cannot be used at start (unreachable, or holding another simulator): the CLI prints it and exits 1. */
export class StoreError extends Error {}

/** The forms `--store` accepts, as its usage error lists them. */
const ACCEPTED_STORES =
  'memory, redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB] (or sentinel://HOST:PORT[,HOST:PORT…]/MASTER[/DB] or redis-cluster://HOST:PORT[,HOST:PORT…]';

/** The message of `--workers N` on the memory store: each process would keep its own limits. */
export const WORKERS_NEED_SHARED_STORE =
  '--workers needs a shared store: with --store memory each process would keep its own limits (admitting N times the quota); add --store redis://HOST:PORT';

/**
 * Checks the store options together and resolves the store. `memory` (the default) needs no
 * prefix and allows one process; anything else must be a Redis store (`parseStoreTarget`,
 * loaded only then, so the memory store never loads the Redis client): a URL or a Sentinel
 * object. `--store-ca` goes with a `rediss://` store only, and its file is read here. Throws
 * {@link UsageError} (one line, naming where the value came from) for anything else.
 */
export async function resolveStore(options: ServeOptions, sources: StoreOptionSources): Promise<StoreChoice> {
  if (options.store === 'memory') {
    if (options.storePrefix !== undefined) {
      throw new UsageError(
        `${sources.storePrefix} names the keys of a Redis store, and with --store memory there is none: add --store redis://HOST:PORT, or drop it.`,
      );
    }
    if (options.workers > 1) throw new UsageError(WORKERS_NEED_SHARED_STORE);
    if (options.storeCa !== undefined) throw new UsageError(`${sources.storeCa ?? '--store-ca'} is the CA of a rediss:// store, and with --store memory there is none: drop it.`);
    return { kind: 'memory' };
  }
  const { parseStoreTarget } = await import('../store/redis-store.js');
  const parsed = parseStoreTarget(options.store);
  if ('error' in parsed) {
    // The parser's reason names the value (never its password) and the Redis forms; say them once, with memory.
    const reason = parsed.error.replace(/:\s*use redis:\/\/.*$/, '').replace(/\.$/, '');
    if (typeof options.store !== 'string') throw new UsageError(`${sources.store}: ${reason}.`);
    throw new UsageError(`${sources.store} must be ${ACCEPTED_STORES}; ${reason}).`);
  }
  let ca: Buffer | undefined;
  if (options.storeCa !== undefined) {
    const source = sources.storeCa ?? '--store-ca';
    if (parsed.kind !== 'redis' || !parsed.tls) throw new UsageError(`${source} is the CA of a rediss:// store, and ${parsed.location} is not one: use rediss://, or drop it.`);
    try {
      ca = readFileSync(options.storeCa);
    } catch (error) {
      throw new UsageError(`${source} ${options.storeCa} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    if (!ca.toString('latin1').includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`${source} ${options.storeCa} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  }
  return {
    kind: 'redis',
    url: options.store,
    location: parsed.location,
    port: parsed.kind === 'redis' ? parsed.port : null,
    prefix: options.storePrefix ?? DEFAULT_STORE_PREFIX,
    ...(ca !== undefined ? { ca } : {}),
  };
}

/** Error codes and messages that mean the store could not be reached (rather than refused us). */
const UNREACHABLE =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE|timed? ?out|Connection is closed|isn't writeable|not connected|MaxRetriesPerRequest/i;

/**
 * One line for a store that failed `simulator.ready()` at start. Unreachable: `cannot reach the
 * store at LOCATION (REASON): start Redis (redis-server --port PORT) or fix --store`, where REASON
 * is the client's message without the address (already in LOCATION). A refusal the store words
 * itself (`the store at LOCATION …`: credentials, TLS, topology, another simulator's settings
 * under this prefix) is that line; anything else is the store's message after where it is.
 */
export function describeStoreFailure(error: unknown, store: Extract<StoreChoice, { kind: 'redis' }>): string {
  const raw = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const message = raw.replace(/\s+/g, ' ').trim();
  // A refusal the store words itself names the problem and its fix already.
  if (message.startsWith(`the store at ${store.location} `)) return message;
  // The Redis store words it `cannot reach the store at LOCATION (REASON)`; the CLI adds what to do.
  const said = /cannot reach the store at \S+ \(([^)]*)\)/.exec(message)?.[1];
  if (said !== undefined || UNREACHABLE.test(message) || (typeof code === 'string' && UNREACHABLE.test(code))) {
    const reason = said ?? (message.replace(/\s+\[?[\w.:-]*\]?:\d+$/, '') || String(code));
    const start = store.port !== null ? `start Redis (redis-server --port ${store.port})` : store.location.startsWith('sentinel:') ? 'start the Sentinels' : 'start the cluster';
    return `cannot reach the store at ${store.location} (${reason}): ${start} or fix --store`;
  }
  return `the store at ${store.location}, prefix ${store.prefix}, cannot be used: ${message}`;
}

/** The banner line of a Redis store. */
export function describeStoreLine(store: Extract<StoreChoice, { kind: 'redis' }>): string {
  return `  store: ${store.location}, prefix ${store.prefix} (shared by every process using it)`;
}
