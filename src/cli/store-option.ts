import { DEFAULT_STORE_PREFIX } from '../contract/config.js';
import type { ServeOptions } from './args.js';
import { UsageError } from './read-json-file.js';

/** The store `serve` runs on, checked: this process's memory, or a Redis store shared by every process using it. */
export type StoreChoice =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'redis';
      /** The URL as given (it may hold a password: never print it; print `location`). */
      readonly url: string;
      /** Where the store is, without credentials, e.g. `redis://127.0.0.1:6379/0`. */
      readonly location: string;
      readonly port: number;
      readonly prefix: string;
    };

/** Where each store option came from, for error messages: a flag, an environment variable or a config file field. */
export interface StoreOptionSources {
  readonly store: string;
  readonly storePrefix: string;
}

/** A store that cannot be used at start (unreachable, or holding another simulator): the CLI prints it and exits 1. */
export class StoreError extends Error {}

/** The forms `--store` accepts, as its usage error lists them. */
const ACCEPTED_STORES = 'memory, redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]';

/** The message of `--workers N` on the memory store: each process would keep its own limits. */
export const WORKERS_NEED_SHARED_STORE =
  '--workers needs a shared store: with --store memory each process would keep its own limits (admitting N times the quota); add --store redis://HOST:PORT';

/**
 * Checks the store options together and resolves the store. `memory` (the default) needs no
 * prefix and allows one process; anything else must be a Redis URL (`parseStoreUrl`, loaded
 * only then, so the memory store never loads the Redis client). Throws {@link UsageError}
 * (one line, naming where the value came from) for anything else.
 */
export async function resolveStore(options: ServeOptions, sources: StoreOptionSources): Promise<StoreChoice> {
  if (options.store === 'memory') {
    if (options.storePrefix !== undefined) {
      throw new UsageError(
        `${sources.storePrefix} names the keys of a Redis store, and with --store memory there is none: add --store redis://HOST:PORT, or drop it.`,
      );
    }
    if (options.workers > 1) throw new UsageError(WORKERS_NEED_SHARED_STORE);
    return { kind: 'memory' };
  }
  const { parseStoreUrl } = await import('../store/redis-store.js');
  const parsed = parseStoreUrl(options.store);
  if ('error' in parsed) {
    // The parser's reason names the value (never its password) and the Redis forms; say them once, with memory.
    const reason = parsed.error.replace(/:\s*use redis:\/\/.*$/, '').replace(/\.$/, '');
    throw new UsageError(`${sources.store} must be ${ACCEPTED_STORES} (${reason}).`);
  }
  return { kind: 'redis', url: options.store, location: parsed.location, port: parsed.port, prefix: options.storePrefix ?? DEFAULT_STORE_PREFIX };
}

/** Error codes and messages that mean the store could not be reached (rather than refused us). */
const UNREACHABLE =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ECONNRESET|EPIPE|timed? ?out|Connection is closed|isn't writeable|not connected|MaxRetriesPerRequest/i;

/**
 * One line for a store that failed `simulator.ready()` at start. Unreachable: `cannot reach the
 * store at LOCATION (REASON): start Redis (redis-server --port PORT) or fix --store`, where REASON
 * is the client's message without the address (already in LOCATION). Any other refusal (another
 * simulator's settings under this prefix, a password Redis refused) is the store's own message
 * after where the store is.
 */
export function describeStoreFailure(error: unknown, store: Extract<StoreChoice, { kind: 'redis' }>): string {
  const raw = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const message = raw.replace(/\s+/g, ' ').trim();
  // The Redis store words it `cannot reach the store at LOCATION (REASON)`; the CLI adds what to do.
  const said = /cannot reach the store at \S+ \(([^)]*)\)/.exec(message)?.[1];
  if (said !== undefined || UNREACHABLE.test(message) || (typeof code === 'string' && UNREACHABLE.test(code))) {
    const reason = said ?? (message.replace(/\s+\[?[\w.:-]*\]?:\d+$/, '') || String(code));
    return `cannot reach the store at ${store.location} (${reason}): start Redis (redis-server --port ${store.port}) or fix --store`;
  }
  return `the store at ${store.location}, prefix ${store.prefix}, cannot be used: ${message}`;
}

/** The banner line of a Redis store. */
export function describeStoreLine(store: Extract<StoreChoice, { kind: 'redis' }>): string {
  return `  store: ${store.location}, prefix ${store.prefix} (shared by every process using it)`;
}
