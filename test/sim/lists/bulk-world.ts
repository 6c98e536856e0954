import { createSeededWorld, type World } from '../../../src/index.js';
import type { Website } from '../../../src/sim/model/entities.js';

/** The first instant of the bulk websites: after every fixture website. */
const BULK_START = Date.parse('2025-01-01T00:00:00Z');

/** The id of the i-th bulk website (0-based), in creation order. */
export function bulkWebsiteId(i: number): string {
  return `web_bulk_${String(i).padStart(5, '0')}`;
}

/**
 * A world factory: the seeded world plus `count` tiny websites of Acme, created one second apart
 * after the fixtures, so that lists and organization-wide queries can be tried at scale in process.
 */
export function worldWithBulkWebsites(count: number): (seed: string) => World {
  return (seed) => {
    const world = createSeededWorld(seed);
    const bulk: Website[] = Array.from({ length: count }, (_, i) => ({
      id: bulkWebsiteId(i),
      organizationId: 'org_acme',
      name: `Bulk ${i}`,
      domain: `bulk-${i}.example.com`,
      isPublic: false,
      createdAt: BULK_START + i * 1000,
      size: 'tiny',
      baseDailySessions: 6,
    }));
    return { ...world, websites: [...world.websites, ...bulk] };
  };
}
