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
  /** Whether {@link sessions} of `website` on `day` would be read from the cache rather than generated. */
  hasSessions(website: Website, day: number): boolean;
  clicks(link: ShortLink, day: number): ClickBatch;
  checks(monitor: UptimeMonitor, day: number): CheckBatch;
  /** `derivation` applied to the sessions of `website` on `day`, memoized with the batches. */
  derived<T>(derivation: Derivation<T>, website: Website, day: number): T;
  /** Whether {@link derived} of `derivation` on `website` and `day` would be read from the cache rather than derived. */
  hasDerived(derivation: Derivation<unknown>, website: Website, day: number): boolean;
  /** {@link hashString} of the world seed. */
  readonly seedHash: number;
  /** Forgets every batch (after a change to what drives an entity's traffic). */
  clear(): void;
  /**
   * This cache as of now, for work that yields to the event loop between pieces (a batch): once
   * a {@link clear} happens after the pin, the pinned reader neither reads nor stores entries, so
   * what it generates from entities read before the change never fills the cache.
   */
  pin(): TrafficReader;
  /** Entries kept and their estimated bytes, for `GET /__sim/health`. */
  stats(): TrafficCacheStats;
}

/** What a traffic cache holds now. */
export interface TrafficCacheStats {
  /** Batches and derived values kept (at most the entry cap). */
  readonly entries: number;
  /** Their estimated size in bytes (at most the byte cap, but for one entry larger than it). */
  readonly bytes: number;
}

/** Entries kept by default: about 90 days of every fixture website, link and monitor. */
export const DEFAULT_TRAFFIC_CACHE_ENTRIES = 4000;

/** Bytes kept by default (estimated from the entries' typed arrays): a bound on resident memory. */
export const DEFAULT_TRAFFIC_CACHE_BYTES = 128 * 1024 * 1024;

/** Bytes counted for an entry besides its arrays (object headers, the key). */
const ENTRY_OVERHEAD = 256;

/**
 * An estimate of what a batch or derived value holds: its typed arrays and arrays, two levels
 * deep (a batch's `dims` record is one level down). Bounded work per entry.
 */
function estimateBytes(value: unknown, depth = 0): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value === 'string') return value.length * 2;
  if (value === null || typeof value !== 'object' || depth > 2) return 8;
  if (Array.isArray(value)) {
    const sampled = value.length > 0 ? estimateBytes(value[0], depth + 1) : 0;
    return 16 + value.length * Math.max(8, sampled);
  }
  let bytes = 32;
  for (const field of Object.values(value)) bytes += estimateBytes(field, depth + 1);
  return bytes;
}

/**
 * Memoizes the world's pure traffic functions in an LRU bounded both in entries and in
 * estimated bytes, so repeated and overlapping date ranges are generated once while a long
 * range cannot hold more than the byte cap. Eviction never changes an answer, only its cost.
 */
export function createTrafficCache(
  world: World,
  capacity = DEFAULT_TRAFFIC_CACHE_ENTRIES,
  maxBytes = DEFAULT_TRAFFIC_CACHE_BYTES,
): TrafficReader {
  const entries = new Map<string, { readonly value: unknown; readonly bytes: number }>();
  let bytes = 0;
  /** Counts clears: a reader pinned under an older generation bypasses the entries. */
  let generation = 0;
  const seedHash = hashString(world.seed);
  function remember<T>(key: string, make: () => T, pinned = generation): T {
    if (pinned !== generation) return make();
    const hit = entries.get(key);
    if (hit !== undefined) {
      entries.delete(key);
      entries.set(key, hit);
      return hit.value as T;
    }
    const value = make();
    const size = ENTRY_OVERHEAD + estimateBytes(value);
    entries.set(key, { value, bytes: size });
    bytes += size;
    while (entries.size > 1 && (entries.size > capacity || bytes > maxBytes)) {
      const [oldest, entry] = entries.entries().next().value as [string, { bytes: number }];
      entries.delete(oldest);
      bytes -= entry.bytes;
    }
    return value;
  }
  /** The reader for generation `pinned`, or for whatever generation is current when undefined. */
  function readerOf(pinned: number | undefined): TrafficReader {
    const at = (): number => pinned ?? generation;
    return {
      sessions: (website, day) => remember(`s:${website.id}:${day}`, () => world.sessions(website, day), at()),
      hasSessions: (website, day) => at() === generation && entries.has(`s:${website.id}:${day}`),
      clicks: (link, day) => remember(`c:${link.id}:${day}`, () => world.clicks(link, day), at()),
      checks: (monitor, day) => remember(`u:${monitor.id}:${day}`, () => world.checks(monitor, day), at()),
      derived(derivation, website, day) {
        return remember(
          `d:${derivation.name}:${website.id}:${day}`,
          () => {
            const sessions = remember(`s:${website.id}:${day}`, () => world.sessions(website, day), at());
            return derivation.derive({ seedHash, website, day, sessions, dictionaries: world.dictionaries });
          },
          at(),
        );
      },
      hasDerived: (derivation, website, day) => at() === generation && entries.has(`d:${derivation.name}:${website.id}:${day}`),
      seedHash,
      clear() {
        entries.clear();
        bytes = 0;
        generation++;
      },
      pin: () => readerOf(generation),
      stats: () => ({ entries: entries.size, bytes }),
    };
  }
  return readerOf(undefined);
}
