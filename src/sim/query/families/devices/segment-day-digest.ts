import type { Derivation } from '../../../traffic-cache.js';
import type { Dictionaries } from '../../../model/traffic.js';
import { deviceDetailsOf } from '../../../model/derived/device-details.js';
import { deviceLabel } from '../../engine/labels.js';
import type { KeyOf } from '../../readers/breakdown.js';
import type { SessionVisit } from '../../readers/session-visits.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';

/** The dimensions of traffic_segments, in the order the live SQL sorts them (by name). */
export const SEGMENT_DIMENSIONS = ['browser', 'browser_version', 'country', 'device', 'os'] as const;

/**
 * The key of a session in each of {@link SEGMENT_DIMENSIONS}, over the world's string tables
 * ('' for a value the session lacks, a group of its own as in the live SQL).
 */
export function segmentKeyOfs(dictionaries: Dictionaries): KeyOf<string>[] {
  const { values } = dictionaries;
  const browserOf = (s: SessionVisit): string => values.browser_name[s.batch.dims.browser_name[s.index] as number] ?? '';
  // By browser code, the key of each version string: versions repeat, so each key is built once.
  const versionKeys = new Map<number, Map<string, string>>();
  const keyOfs: Record<(typeof SEGMENT_DIMENSIONS)[number], KeyOf<string>> = {
    browser: browserOf,
    browser_version: (s) => {
      const version = s.details().browserVersion[s.index] as string;
      if (version === '') return '';
      const browser = s.batch.dims.browser_name[s.index] as number;
      let keys = versionKeys.get(browser);
      if (!keys) versionKeys.set(browser, (keys = new Map()));
      let key = keys.get(version);
      if (key === undefined) keys.set(version, (key = `${browserOf(s)} ${version.split('.')[0] as string}`));
      return key;
    },
    country: (s) => values.country[s.batch.dims.country[s.index] as number] ?? '',
    device: (s) => deviceLabel(values.device_type[s.batch.dims.device_type[s.index] as number] ?? ''),
    os: (s) => values.os_name[s.batch.dims.os_name[s.index] as number] ?? '',
  };
  return SEGMENT_DIMENSIONS.map((dimension) => keyOfs[dimension]);
}

/**
 * The sessions of one website's generated sessions of one UTC day by each segment dimension, as
 * traffic_segments counts them without filters: what a range's pass folds instead of the day's
 * sessions. Flat, dimension after dimension (so the traffic cache sizes it whole): dimension `d`
 * holds entries `offsets[d] .. offsets[d + 1]`, each key in the order first seen. Counts are of
 * samples (multiply by `weight`).
 */
export interface SegmentDayDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  /** One more entry than {@link SEGMENT_DIMENSIONS}. */
  readonly offsets: Uint32Array;
  readonly keys: readonly string[];
  readonly sessions: Uint32Array;
  readonly pageviews: Uint32Array;
}

/** The per-day digest of sessions by segment: shared with the traffic it is derived from. */
export const SEGMENT_DAY_DIGEST: Derivation<SegmentDayDigest> = {
  name: `${DAY_DIGEST_PREFIX}segments`,
  derive(input) {
    const { sessions: batch, dictionaries } = input;
    const details = deviceDetailsOf(dictionaries).derive(input);
    const keyOfs = segmentKeyOfs(dictionaries);
    const slots = keyOfs.map(() => new Map<string, number>());
    const counts = keyOfs.map(() => ({ keys: [] as string[], sessions: [] as number[], pageviews: [] as number[] }));
    const session: SessionVisit = { batch, index: 0, matched: 0, visitorKey: 0, details: () => details };
    for (let i = 0; i < batch.count; i++) {
      session.index = i;
      const pages = (batch.pageOffsets[i + 1] as number) - (batch.pageOffsets[i] as number);
      keyOfs.forEach((keyOf, d) => {
        const key = keyOf(session) as string;
        const bySlot = slots[d] as Map<string, number>;
        const into = counts[d] as (typeof counts)[number];
        let slot = bySlot.get(key);
        if (slot === undefined) {
          slot = into.keys.length;
          bySlot.set(key, slot);
          into.keys.push(key);
          into.sessions.push(0);
          into.pageviews.push(0);
        }
        into.sessions[slot] = (into.sessions[slot] as number) + 1;
        into.pageviews[slot] = (into.pageviews[slot] as number) + pages;
      });
    }
    const offsets = new Uint32Array(counts.length + 1);
    counts.forEach((c, d) => (offsets[d + 1] = (offsets[d] as number) + c.keys.length));
    return {
      weight: batch.weight,
      offsets,
      keys: counts.flatMap((c) => c.keys),
      sessions: Uint32Array.from(counts.flatMap((c) => c.sessions)),
      pageviews: Uint32Array.from(counts.flatMap((c) => c.pageviews)),
    };
  },
};
