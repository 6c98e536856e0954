import { deviceDetailsOf, type DeviceDetails } from '../../model/derived/device-details.js';
import type { SessionBatch } from '../../model/traffic.js';
import type { RunContext } from '../engine/definition.js';

const byBatch = new WeakMap<SessionBatch, DeviceDetails>();

/**
 * The browser and OS versions of sample `index` of a session batch: the per-visitor values of
 * the device details derivation, so every type (browser_versions, error rows, segments) names
 * the same version for one visitor. '' when the batch's website is not in the query's scope.
 */
export function clientVersionsAt(ctx: RunContext, batch: SessionBatch, index: number): { readonly browser: string; readonly os: string } {
  let details = byBatch.get(batch);
  if (!details) {
    const website = ctx.scope.kind === 'websites' ? ctx.scope.websites.find((w) => w.id === batch.websiteId) : undefined;
    if (!website) return { browser: '', os: '' };
    details = ctx.traffic.derived(deviceDetailsOf(ctx.dictionaries), website, batch.day);
    byBatch.set(batch, details);
  }
  return { browser: details.browserVersion[index] ?? '', os: details.osVersion[index] ?? '' };
}
