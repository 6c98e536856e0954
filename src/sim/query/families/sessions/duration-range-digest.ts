import type { Derivation } from '../../../traffic-cache.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { createPairSet } from '../../readers/pair-set.js';
import { packLists } from '../../readers/packed-lists.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';

/** The `time_on_page` ranges of session_duration_distribution: label and exclusive upper bound (s). */
export const DURATION_RANGES: readonly [string, number][] = [
  ['0-30s', 30],
  ['30s-1m', 60],
  ['1m-5m', 300],
  ['5m-15m', 900],
  ['15m-1h', 3600],
  ['1h+', Number.POSITIVE_INFINITY],
];

/** Index into {@link DURATION_RANGES} of a time on page. */
export function durationRange(seconds: number): number {
  return DURATION_RANGES.findIndex(([, upper]) => seconds < upper);
}

/**
 * The pageviews of one website's generated sessions of one UTC day by their range of time on
 * page ({@link DURATION_RANGES}; views without a time are left out), as
 * session_duration_distribution counts them without filters: by range, the sessions with a view
 * in it and their distinct visitors. Counts are of samples (multiply by `weight`).
 */
export interface DurationRangeDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  /** Sessions with a view in each range, by range index. */
  readonly sessions: Uint32Array;
  /** Where each range's visitors start in {@link visitors}; one more entry than ranges. */
  readonly visitorOffsets: Uint32Array;
  /** The distinct visitor ids of each range's sessions, range after range. */
  readonly visitors: Uint32Array;
}

function digestDay(batch: SessionBatch): DurationRangeDigest {
  const sessions = new Uint32Array(DURATION_RANGES.length);
  const lastSession = new Int32Array(DURATION_RANGES.length).fill(-1);
  const visitorLists: number[][] = DURATION_RANGES.map(() => []);
  const seen = createPairSet(1024);
  const { pageOffsets, pageTimeS, visitor } = batch;
  for (let i = 0; i < batch.count; i++) {
    for (let p = pageOffsets[i] as number; p < (pageOffsets[i + 1] as number); p++) {
      const seconds = pageTimeS[p] as number;
      if (!(seconds > 0)) continue;
      const range = durationRange(seconds);
      if (lastSession[range] === i) continue;
      lastSession[range] = i;
      sessions[range] = (sessions[range] as number) + 1;
      const v = visitor[i] as number;
      if (seen.add(range, v)) (visitorLists[range] as number[]).push(v);
    }
  }
  const { offsets: visitorOffsets, values: visitors } = packLists(visitorLists);
  return { weight: batch.weight, sessions, visitorOffsets, visitors };
}

/** The per-day digest of views by range of time on page: shared with the traffic it is derived from. */
export const DURATION_RANGE_DIGEST: Derivation<DurationRangeDigest> = { name: `${DAY_DIGEST_PREFIX}duration-ranges`, derive: ({ sessions }) => digestDay(sessions) };
