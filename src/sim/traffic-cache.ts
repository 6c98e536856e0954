import type { ShortLink, UptimeMonitor, Website } from './model/entities.js';
import type { CheckBatch, ClickBatch, Dictionaries, SessionBatch } from './model/traffic.js';
import type { World } from './model/world.js';
import { hashString } from './model/hash.js';

/** What a derivation reads: the world's seed, one website and day, and that day's sessions. */
export interface DeriveInput {
  /** {@link hashString} of the world seed: the first word of every derived value. */
  readonly seedHash: number;
  readonly website: Website;
  readonly day: number;
  readonly sessions: SessionBatch;
  /** The world's string tables, to read what the sessions' codes stand for. */
  readonly dictionaries: Dictionaries;
}

/**
 * Activity derived from a website's sessions of one day (errors, vitals, revenue …): a pure
 * function of its input, so it is computed once per (website, day) and shared like a batch.
 */
export interface Derivation<T> {
  /** Unique among derivations: part of the cache key. */
  readonly name: string;
  derive(input: DeriveInput): T;
}

/** Reads generated traffic by (entity, day). Batches are immutable and may be shared. */
export interface TrafficReader {
  sessions(website: Website, day: number): SessionBatch;
  clicks(link: ShortLink, day: number): ClickBatch;
  checks(monitor: UptimeMonitor, day: number): CheckBatch;
  /** `derivation` applied to the sessions of `website` on `day`, memoized with the batches. */
  derived<T>(derivation: Derivation<T>, website: Website, day: number): T;
  /** {@link hashString} of the world seed. */
  readonly seedHash: number;
  /** Forgets every batch (after a change to what drives an entity's traffic). */
  clear(): void;
}

/** Entries kept by default: about 90 days of every fixture website, link and monitor. */
export const DEFAULT_TRAFFIC_CACHE_ENTRIES = 4000;

/**
 * Memoizes the world's pure traffic functions in a bounded LRU, so repeated and overlapping
 * date ranges are generated once. Eviction never changes an answer, only its cost.
 */
export function createTrafficCache(world: World, capacity = DEFAULT_TRAFFIC_CACHE_ENTRIES): TrafficReader {
  const entries = new Map<string, unknown>();
  const seedHash = hashString(world.seed);
  function remember<T>(key: string, make: () => T): T {
    const hit = entries.get(key);
    if (hit !== undefined) {
      entries.delete(key);
      entries.set(key, hit);
      return hit as T;
    }
    const value = make();
    entries.set(key, value);
    if (entries.size > capacity) {
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    return value;
  }
  return {
    sessions: (website, day) => remember(`s:${website.id}:${day}`, () => world.sessions(website, day)),
    clicks: (link, day) => remember(`c:${link.id}:${day}`, () => world.clicks(link, day)),
    checks: (monitor, day) => remember(`u:${monitor.id}:${day}`, () => world.checks(monitor, day)),
    derived(derivation, website, day) {
      return remember(`d:${derivation.name}:${website.id}:${day}`, () => {
        const sessions = remember(`s:${website.id}:${day}`, () => world.sessions(website, day));
        return derivation.derive({ seedHash, website, day, sessions, dictionaries: world.dictionaries });
      });
    },
    seedHash,
    clear: () => entries.clear(),
  };
}
