import type { Derivation } from '../../../traffic-cache.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { createPairSet } from '../../readers/pair-set.js';
import { packTallies } from '../../readers/packed-lists.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';
import { activeSecondsOf, customEventsOf, isLiveBounce, pagesOf } from '../../readers/session-visits.js';

/**
 * The totals of one website's generated sessions of one UTC day, as the summary types count
 * them without filters: what a range's pass folds instead of the day's sessions. Counts are of
 * samples (multiply by `weight`); seconds are kept as (value, count) pairs in ascending values.
 */
export interface SessionDayDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  readonly sessions: number;
  readonly pageviews: number;
  /** Custom events of the sessions. */
  readonly events: number;
  /** Live bounces: one pageview, under 10 s on it, no other event. */
  readonly liveBounces: number;
  /** Single-page sessions. */
  readonly singlePage: number;
  /** The distinct visitor ids, in the order first seen. */
  readonly visitors: Uint32Array;
  /** Seconds on pages per session, the last page included: distinct values and their counts. */
  readonly activeValues: Uint32Array;
  readonly activeCounts: Uint32Array;
  /** Durations of the sessions that have one (> 0 s): distinct values and their counts. */
  readonly durationValues: Uint32Array;
  readonly durationCounts: Uint32Array;
}

function digestDay(batch: SessionBatch): SessionDayDigest {
  let pageviews = 0;
  let events = 0;
  let liveBounces = 0;
  let singlePage = 0;
  const visitors: number[] = [];
  const seen = createPairSet(1024);
  const active = new Map<number, number>();
  const durations = new Map<number, number>();
  for (let i = 0; i < batch.count; i++) {
    pageviews += pagesOf(batch, i);
    events += customEventsOf(batch, i);
    if (isLiveBounce(batch, i)) liveBounces++;
    if (pagesOf(batch, i) === 1) singlePage++;
    const seconds = activeSecondsOf(batch, i);
    active.set(seconds, (active.get(seconds) ?? 0) + 1);
    const duration = batch.durationS[i] as number;
    if (duration > 0) durations.set(duration, (durations.get(duration) ?? 0) + 1);
    const visitor = batch.visitor[i] as number;
    if (seen.add(0, visitor)) visitors.push(visitor);
  }
  const [{ values: activeValues }, { values: activeCounts }] = packTallies([active]);
  const [{ values: durationValues }, { values: durationCounts }] = packTallies([durations]);
  return {
    weight: batch.weight,
    sessions: batch.count,
    pageviews,
    events,
    liveBounces,
    singlePage,
    visitors: Uint32Array.from(visitors),
    activeValues,
    activeCounts,
    durationValues,
    durationCounts,
  };
}

/** The per-day digest of session totals: shared with the traffic it is derived from. */
export const SESSION_DAY_DIGEST: Derivation<SessionDayDigest> = { name: `${DAY_DIGEST_PREFIX}session-totals`, derive: ({ sessions }) => digestDay(sessions) };
