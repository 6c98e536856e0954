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
  /**
   * What deriving it costs per session sample of the day, against generating the sample (about
   * 0.4 µs): 1 when unset. The work the prefetch weighs its pieces by (`prefetch-traffic.ts`).
   */
  readonly cost?: number;
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
  /**
   * The session samples, clicks and checks this cache generated so far, a derivation's counted
   * times its cost ({@link Derivation.cost}): what a pass in pieces counts as work when it read
   * through derivations it cannot name (the difference across a piece of it).
   */
  generatedWork(): number;
  /** {@link hashString} of the world seed. */
  readonly seedHash: number;
  /**
   * Forgets every batch this simulator keeps (after a change to what drives an entity's traffic).
   * The process-wide store needs no forgetting: its keys hold every field of the entity.
   */
  clear(): void;
  /**
   * This cache as of now, for work that yields to the event loop between pieces (a batch): once
   * a {@link clear} happens after the pin, the pinned reader neither reads nor stores entries, so
   * what it generates from entities read before the change never fills the cache.
   */
  pin(): TrafficReader;
  /** Entries kept and their estimated bytes, for `GET /__sim/health`. */
  stats(): TrafficCacheStats;
  /**
   * `make()`, kept in the process-wide store of seeded results ({@link SHARED_RESULT_BYTES}) and
   * shared with every simulator of the same world functions and seed: for a value computed from
   * generated traffic alone (no ingested record, tracked event or identify in it) whose every
   * other input `key` names. `entities` are the scope's: their every field is part of the key;
   * `tables` are the string tables the value is decoded with. Tables grown by ingestion (not the
   * world's own), a scope of more than {@link MAX_SHARED_SCOPE} entities, a reader that shares
   * nothing, or a pinned reader after a {@link clear} compute without the store.
   */
  seeded<T>(entities: readonly (Website | ShortLink | UptimeMonitor)[], tables: Dictionaries, key: string, make: () => T): T;
  /** Whether {@link seeded} with these arguments would answer from the store rather than call `make`. */
  holdsSeeded(entities: readonly (Website | ShortLink | UptimeMonitor)[], tables: Dictionaries, key: string): boolean;
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

/** Entries the process-wide store of generated traffic keeps, whatever the number of simulators. */
export const SHARED_TRAFFIC_CACHE_ENTRIES = 16_000;

/**
 * Estimated bytes the process-wide store of generated traffic keeps, whatever the number of
 * simulators and seeds: with each live simulator's own bound ({@link DEFAULT_TRAFFIC_CACHE_BYTES}
 * unless told otherwise), a bound on the traffic resident in the process. The same batch held by
 * both is one object, counted twice.
 */
export const SHARED_TRAFFIC_CACHE_BYTES = 128 * 1024 * 1024;

/** Results the process-wide store of seeded results keeps, whatever the number of simulators. */
export const SHARED_RESULT_ENTRIES = 2048;

/**
 * Estimated bytes the process-wide store of seeded results keeps (the rows of parameters computed
 * from generated traffic alone), whatever the number of simulators and seeds. A result larger
 * than a sixteenth of it is not kept there.
 */
export const SHARED_RESULT_BYTES = 32 * 1024 * 1024;

/** Scopes of more entities than this (organizations) are not kept in the store of seeded results: their key would be long. */
export const MAX_SHARED_SCOPE = 16;

/** Bytes counted for an entry besides its arrays and its key (object headers). */
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

/** A kept value and its estimated size. */
interface Entry {
  readonly value: unknown;
  readonly bytes: number;
}

/** An LRU of immutable values bounded in entries and in estimated bytes (one entry larger than the byte cap stays alone). */
interface BoundedEntries {
  /** The entry under `key`, made the most recent; undefined when absent. */
  get(key: string): Entry | undefined;
  has(key: string): boolean;
  set(key: string, entry: Entry): void;
  clear(): void;
  stats(): TrafficCacheStats;
}

function createBoundedEntries(capacity: number, maxBytes: number): BoundedEntries {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    has: (key) => entries.has(key),
    set(key, entry) {
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        bytes -= old.bytes;
      }
      entries.set(key, entry);
      bytes += entry.bytes;
      while (entries.size > 1 && (entries.size > capacity || bytes > maxBytes)) {
        const [oldest, evicted] = entries.entries().next().value as [string, Entry];
        entries.delete(oldest);
        bytes -= evicted.bytes;
      }
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    stats: () => ({ entries: entries.size, bytes }),
  };
}

/**
 * The process-wide store of generated traffic: a memo of the world's pure traffic functions,
 * shared by every simulator (and every reset) of the process. Its keys name everything a value
 * is computed from ({@link sourceKey}, {@link fingerprintOf}), so a simulator only ever reads
 * what it would have generated itself; it never holds ingested data (the ingest ledger's).
 */
const shared = createBoundedEntries(SHARED_TRAFFIC_CACHE_ENTRIES, SHARED_TRAFFIC_CACHE_BYTES);

/**
 * The process-wide store of seeded results: rows computed from generated traffic alone, under a
 * key naming the world ({@link sourceKey}), the scope's entities ({@link fingerprintOf}) and
 * everything else that decides them, so a fresh simulator answers what another computed.
 */
const sharedResults = createBoundedEntries(SHARED_RESULT_ENTRIES, SHARED_RESULT_BYTES);

/** What the process-wide store holds now (tests and benchmarks). */
export function sharedTrafficStats(): TrafficCacheStats {
  return shared.stats();
}

/** What the process-wide store of seeded results holds now (tests and benchmarks). */
export function sharedResultStats(): TrafficCacheStats {
  return sharedResults.stats();
}

const identities = new WeakMap<object, number>();
let identitiesGiven = 0;

/** A number for the object `value` is, never given to another object of the process. */
function identityOf(value: object): number {
  let id = identities.get(value);
  if (id === undefined) {
    id = ++identitiesGiven;
    identities.set(value, id);
  }
  return id;
}

/**
 * What decides a world's traffic, as a key prefix: its seed and the identity of its traffic
 * functions and string tables. Two worlds share entries only when they generate with the same
 * functions (`createSeededWorld` gives every world of a seed the same ones) over the same tables.
 */
function sourceKey(world: World): string {
  return `${identityOf(world.sessions)}.${identityOf(world.clicks)}.${identityOf(world.checks)}.${identityOf(world.dictionaries)}.${JSON.stringify(world.seed)}`;
}

const fingerprints = new WeakMap<object, string>();

/**
 * An entity as a key: every field of it, so an entity changed at run time (a website's traffic
 * size, a monitor's interval, a rename) is another key, in this simulator and in any other.
 * Entities are immutable: a change makes a new object.
 */
function fingerprintOf(entity: Website | ShortLink | UptimeMonitor): string {
  let fingerprint = fingerprints.get(entity);
  if (fingerprint === undefined) {
    fingerprint = JSON.stringify(entity);
    fingerprints.set(entity, fingerprint);
  }
  return fingerprint;
}

/**
 * Memoizes the world's pure traffic functions for one simulator in an LRU bounded both in
 * entries and in estimated bytes, so repeated and overlapping date ranges are generated once
 * while a long range cannot hold more than the byte cap. Behind it, the process-wide store
 * ({@link SHARED_TRAFFIC_CACHE_BYTES}) is shared with every other simulator of the same world
 * functions and seed, so a fresh simulator reads what another generated (a cap of 0 bytes opts
 * out: nothing is shared). Eviction never changes an answer, only its cost.
 */
export function createTrafficCache(
  world: World,
  capacity = DEFAULT_TRAFFIC_CACHE_ENTRIES,
  maxBytes = DEFAULT_TRAFFIC_CACHE_BYTES,
): TrafficReader {
  const own = createBoundedEntries(capacity, maxBytes);
  const share = maxBytes > 0;
  /** Counts clears: a reader pinned under an older generation bypasses the entries. */
  let generation = 0;
  /** Session samples generated so far, a derivation's weighed by its cost ({@link TrafficReader.generatedWork}). */
  let generatedWork = 0;
  /** `make`, its batch's records counted in {@link generatedWork} when it runs. */
  const counted =
    <B extends { readonly count: number }>(make: () => B) =>
    (): B => {
      const batch = make();
      generatedWork += batch.count;
      return batch;
    };
  const seedHash = hashString(world.seed);
  const source = sourceKey(world);
  const sessionsKey = (website: Website, day: number): string => `${source}|s|${day}|${fingerprintOf(website)}`;
  const derivedKey = (derivation: Derivation<unknown>, website: Website, day: number): string =>
    `${source}|d|${derivation.name}|${day}|${fingerprintOf(website)}`;
  function remember<T>(key: string, make: () => T, pinned = generation): T {
    if (pinned !== generation) return make();
    const hit = own.get(key);
    if (hit !== undefined) return hit.value as T;
    const sharedHit = share ? shared.get(key) : undefined;
    if (sharedHit !== undefined) {
      own.set(key, sharedHit);
      return sharedHit.value as T;
    }
    const value = make();
    const entry = { value, bytes: ENTRY_OVERHEAD + key.length + estimateBytes(value) };
    own.set(key, entry);
    if (share) shared.set(key, entry);
    return value;
  }
  const kept = (key: string): boolean => own.has(key) || (share && shared.has(key));
  /** The reader for generation `pinned`, or for whatever generation is current when undefined. */
  function readerOf(pinned: number | undefined): TrafficReader {
    const at = (): number => pinned ?? generation;
    /** The store's key of a seeded result, or null when this reader does not use the store for it ({@link TrafficReader.seeded}). */
    const seededKey = (entities: readonly (Website | ShortLink | UptimeMonitor)[], tables: Dictionaries, key: string): string | null =>
      !share || at() !== generation || tables !== world.dictionaries || entities.length > MAX_SHARED_SCOPE
        ? null
        : `${source}|r|${entities.map(fingerprintOf).join('|')}|${key}`;
    const sessions = (website: Website, day: number): SessionBatch =>
      remember(
        sessionsKey(website, day),
        counted(() => world.sessions(website, day)),
        at(),
      );
    return {
      sessions,
      hasSessions: (website, day) => at() === generation && kept(sessionsKey(website, day)),
      clicks: (link, day) =>
        remember(
          `${source}|c|${day}|${fingerprintOf(link)}`,
          counted(() => world.clicks(link, day)),
          at(),
        ),
      checks: (monitor, day) =>
        remember(
          `${source}|u|${day}|${fingerprintOf(monitor)}`,
          counted(() => world.checks(monitor, day)),
          at(),
        ),
      derived(derivation, website, day) {
        return remember(
          derivedKey(derivation, website, day),
          () => {
            const batch = sessions(website, day);
            generatedWork += batch.count * (derivation.cost ?? 1);
            return derivation.derive({ seedHash, website, day, sessions: batch, dictionaries: world.dictionaries });
          },
          at(),
        );
      },
      hasDerived: (derivation, website, day) => at() === generation && kept(derivedKey(derivation, website, day)),
      generatedWork: () => generatedWork,
      seedHash,
      clear() {
        own.clear();
        generation++;
      },
      pin: () => readerOf(generation),
      stats: () => own.stats(),
      seeded(entities, tables, key, make) {
        const fullKey = seededKey(entities, tables, key);
        if (fullKey === null) return make();
        const hit = sharedResults.get(fullKey);
        if (hit !== undefined) return hit.value as ReturnType<typeof make>;
        const value = make();
        const bytes = ENTRY_OVERHEAD + fullKey.length * 2 + estimateBytes(value);
        if (bytes <= SHARED_RESULT_BYTES / 16) sharedResults.set(fullKey, { value, bytes });
        return value;
      },
      holdsSeeded(entities, tables, key) {
        const fullKey = seededKey(entities, tables, key);
        return fullKey !== null && sharedResults.get(fullKey) !== undefined;
      },
    };
  }
  return readerOf(undefined);
}
