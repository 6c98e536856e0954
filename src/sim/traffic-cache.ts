import type { ShortLink, UptimeMonitor, Website } from './model/entities.js';
import type { CheckBatch, ClickBatch, SessionBatch } from './model/traffic.js';
import type { World } from './model/world.js';

/** Reads generated traffic by (entity, day). Batches are immutable and may be shared. */
export interface TrafficReader {
  sessions(website: Website, day: number): SessionBatch;
  clicks(link: ShortLink, day: number): ClickBatch;
  checks(monitor: UptimeMonitor, day: number): CheckBatch;
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
  const entries = new Map<string, SessionBatch | ClickBatch | CheckBatch>();
  function remember<T extends SessionBatch | ClickBatch | CheckBatch>(key: string, make: () => T): T {
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
    clear: () => entries.clear(),
  };
}
