import type { Filter } from '../../../contract/query-request.js';
import type { QueryScope, QueryTypeDefinition, Row } from './definition.js';
import { runToEnd, type PassSteps } from './pass-steps.js';

/** Computed rows of recent parameters, by everything that decides them, with their pages as JSON. */
export interface ResultCache {
  /**
   * The JSON text of rows [offset, offset + limit) for `key`, computing the rows on a miss.
   * Serialized pages are kept too: on a hit the answer costs a lookup, not a stringify.
   */
  page(key: string, compute: () => Row[], offset: number, limit: number): string;
  /** Whether {@link page} of `key` would read kept rows rather than compute them. */
  holds(key: string): boolean;
  /**
   * A value kept for `key` (made by `make` on a miss) in a small LRU of its own: partial work of
   * a computation that later computations of the same key extend, such as a fold over tracked
   * events brought up to date by the events appended since. Under a pin taken before a
   * {@link clear}, `make` runs every time and nothing is kept.
   */
  memo<T>(key: string, make: () => T): T;
  /** {@link memo} in pieces: `make`'s steps run (their yields passed on) only when nothing is kept for `key`. */
  memoSteps<T>(key: string, make: () => PassSteps<T>): PassSteps<T>;
  /** Forgets everything (after data changes). */
  clear(): void;
  /** How many times {@link clear} ran: grows exactly when cached rows may have gone stale. */
  clears(): number;
  /**
   * This cache as of now, for work that yields between pieces (a batch): after a later
   * {@link clear}, the pinned cache computes and serializes without reading or storing entries.
   */
  pin(): ResultCache;
  /** Entries kept and lookups answered so far, for `GET /__sim/health`. */
  stats(): ResultCacheStats;
}

/** Counters of a {@link ResultCache}: plain numbers, never reset except with the simulator. */
export interface ResultCacheStats {
  /** Entries kept now (at most the capacity). */
  readonly entries: number;
  /** Lookups answered from a kept entry. */
  readonly hits: number;
  /** Lookups that computed their rows. */
  readonly misses: number;
}

/** Entries kept by default. */
export const DEFAULT_RESULT_CACHE_ENTRIES = 512;

/** Values {@link ResultCache.memo} keeps. */
export const DEFAULT_MEMO_ENTRIES = 64;

/** Serialized pages kept per entry. */
const PAGES_PER_ENTRY = 16;

/** Results with more rows than this are served but not kept. */
const MAX_CACHED_ROWS = 20_000;

interface Entry {
  readonly rows: Row[];
  readonly pages: Map<string, string>;
  /** When it was last read, in lookups: the entry read longest ago is forgotten first. */
  used: number;
  /** The page read last, its offset and limit: the common case of one page asked again. */
  lastOffset: number;
  lastLimit: number;
  lastText: string | undefined;
}

/**
 * A bounded LRU of computed rows. Rows are never mutated after they are computed, so a cached
 * list can be paged and serialized by any number of requests. A hit only stamps the entry (no
 * reordering of the table); the least recently read entry is looked for when one must go, which
 * happens only on a miss, whose computation costs far more than the walk.
 */
export function createResultCache(capacity = DEFAULT_RESULT_CACHE_ENTRIES): ResultCache {
  const entries = new Map<string, Entry>();
  const memos = new Map<string, unknown>();
  let hits = 0;
  let misses = 0;
  /** Counts lookups: the stamp of {@link Entry.used}. */
  let reads = 0;
  /** Counts clears: a cache pinned under an older generation bypasses the entries. */
  let generation = 0;
  function forgetLeastRecent(): void {
    let oldestKey: string | undefined;
    let oldest = Infinity;
    for (const [key, entry] of entries) {
      if (entry.used < oldest) {
        oldest = entry.used;
        oldestKey = key;
      }
    }
    if (oldestKey !== undefined) entries.delete(oldestKey);
  }
  function page(key: string, compute: () => Row[], offset: number, limit: number, pinned: number): string {
    if (pinned !== generation) return JSON.stringify(compute().slice(offset, offset + limit));
    let entry = entries.get(key);
    if (entry) {
      hits++;
      entry.used = ++reads;
      if (entry.lastText !== undefined && entry.lastOffset === offset && entry.lastLimit === limit) return entry.lastText;
    } else {
      misses++;
      entry = { rows: compute(), pages: new Map(), used: ++reads, lastOffset: 0, lastLimit: 0, lastText: undefined };
      if (entry.rows.length > MAX_CACHED_ROWS) return JSON.stringify(entry.rows.slice(offset, offset + limit));
      entries.set(key, entry);
      if (entries.size > capacity) forgetLeastRecent();
    }
    const pageKey = `${offset}:${limit}`;
    let text = entry.pages.get(pageKey);
    if (text === undefined) {
      text = JSON.stringify(entry.rows.slice(offset, offset + limit));
      if (entry.pages.size >= PAGES_PER_ENTRY) entry.pages.clear();
      entry.pages.set(pageKey, text);
    }
    entry.lastOffset = offset;
    entry.lastLimit = limit;
    entry.lastText = text;
    return text;
  }
  function memo<T>(key: string, make: () => T, pinned: number): T {
    return runToEnd(memoSteps(key, function* () {
      return make();
    }, pinned));
  }
  function* memoSteps<T>(key: string, make: () => PassSteps<T>, pinned: number): PassSteps<T> {
    if (pinned !== generation) return yield* make();
    if (memos.has(key)) {
      const value = memos.get(key) as T;
      memos.delete(key);
      memos.set(key, value);
      return value;
    }
    const value = yield* make();
    // Other requests ran between the pieces: a clear meanwhile means the value may be stale.
    if (pinned !== generation) return value;
    memos.set(key, value);
    if (memos.size > DEFAULT_MEMO_ENTRIES) memos.delete(memos.keys().next().value as string);
    return value;
  }
  /** The cache for generation `pinned`, or for whatever generation is current when undefined. */
  function cacheOf(pinned: number | undefined): ResultCache {
    return {
      page: (key, compute, offset, limit) => page(key, compute, offset, limit, pinned ?? generation),
      holds: (key) => (pinned ?? generation) === generation && entries.has(key),
      memo: (key, make) => memo(key, make, pinned ?? generation),
      memoSteps: (key, make) => memoSteps(key, make, pinned ?? generation),
      clear() {
        entries.clear();
        memos.clear();
        generation++;
      },
      clears: () => generation,
      pin: () => cacheOf(generation),
      stats: () => ({ entries: entries.size, hits, misses }),
    };
  }
  return cacheOf(undefined);
}

/** The part of a cache key that names a scope: its websites (and organization), link or monitor. */
export function scopeKey(scope: QueryScope): string {
  switch (scope.kind) {
    case 'websites': {
      const { websites, organizationId } = scope;
      // One website, the common scope: its id without the list's map and join.
      const ids = websites.length === 1 ? (websites[0] as { id: string }).id : websites.map((w) => w.id).join(',');
      return organizationId === undefined ? `w:${ids}` : `w:${ids}|o:${organizationId}`;
    }
    case 'link':
      return `l:${scope.link.id}`;
    case 'monitor':
      return `m:${scope.monitor.id}`;
  }
}

/** The cache key of one parameter's rows: everything that decides them (`scopeText` is the scope's {@link scopeKey}, made once per request). */
export function resultKey(
  type: QueryTypeDefinition,
  scopeText: string,
  range: { fromMs: number; toMs: number; unit: string },
  timezone: string,
  filters: readonly Filter[],
): string {
  const time = `${range.fromMs}-${range.toMs}-${range.unit}`;
  return `${type.name}|${scopeText}|${time}|${timezone}|${filters.length > 0 ? JSON.stringify(filters) : ''}`;
}
