import type { ManagedWebsite, TrafficSizeName } from '../../contract/manage/websites.js';
import type { TrafficSize, Website } from '../model/entities.js';
import type { SimState } from '../state.js';
import { iso } from './kit.js';

/** Mean weekday sessions of a website by traffic size (before trend and seasonality). */
export const SESSIONS_BY_SIZE: Readonly<Record<TrafficSize, number>> = {
  tiny: 6,
  small: 150,
  medium: 1_800,
  large: 26_000,
  huge: 120_000,
};

/** The traffic size of a website created without one. */
export const DEFAULT_TRAFFIC_SIZE: TrafficSizeName = 'small';

/** A website as the management routes return it. */
export function websiteWire(website: Website): ManagedWebsite {
  return {
    id: website.id,
    organizationId: website.organizationId,
    name: website.name,
    domain: website.domain,
    isPublic: website.isPublic,
    trafficSize: website.size,
    createdAt: iso(website.createdAt),
    updatedAt: iso(website.updatedAt ?? website.createdAt),
  };
}

/** Whether another website of the organization already uses `domain`. */
export function domainTaken(state: SimState, organizationId: string, domain: string, exceptId?: string): boolean {
  for (const w of state.websites.values()) {
    if (w.organizationId === organizationId && w.domain === domain && w.id !== exceptId) return true;
  }
  return false;
}

/**
 * Removes a website. What was attached to it (links, monitors, status pages, flags) stays in the
 * organization, detached (`websiteId: null`), and the organization's default website is unset.
 */
export function deleteWebsite(state: SimState, websiteId: string, now: number): void {
  state.websites.delete(websiteId);
  for (const link of state.links.values()) {
    if (link.websiteId === websiteId) state.links.set(link.id, { ...link, websiteId: null, updatedAt: now });
  }
  for (const monitor of state.monitors.values()) {
    if (monitor.websiteId === websiteId) state.monitors.set(monitor.id, { ...monitor, websiteId: null, updatedAt: now });
  }
  const { manage } = state;
  for (const page of manage.statusPages.values()) {
    if (page.websiteId === websiteId) manage.statusPages.set(page.id, { ...page, websiteId: null, updatedAt: now });
  }
  for (const flag of manage.flags.values()) {
    if (flag.websiteId === websiteId) manage.flags.set(flag.id, { ...flag, websiteId: null, updatedAt: now });
  }
  for (const settings of manage.settings.values()) {
    if (settings.defaultWebsiteId === websiteId) manage.settings.set(settings.organizationId, { ...settings, defaultWebsiteId: null, updatedAt: now });
  }
}
