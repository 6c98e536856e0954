import type { Derivation } from '../../../traffic-cache.js';
import { createPairSet } from '../../readers/pair-set.js';
import { packLists, packTallies } from '../../readers/packed-lists.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';
import { createSlots } from '../../readers/slots.js';

/**
 * Which views of a session a page breakdown counts: all of them, only its first or last, or
 * (`timed`) those whose time on page page_time_analysis reads (strictly between 1 and 3600 s).
 */
export type PageViewMode = 'all' | 'entry' | 'exit' | 'timed';

/**
 * The page views of one website's generated sessions of one UTC day, by path, as a page
 * breakdown without filters counts them: what a range's pass folds instead of the day's
 * sessions. Counts are of samples (multiply by `weight`); paths are in the order the day's
 * sessions first show them, and each path's visitors in the order first seen.
 */
export interface PageDayDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  /** Path codes, in the order first seen. */
  readonly paths: Uint16Array;
  /** Views counted per path. */
  readonly views: Uint32Array;
  /** Sessions with a counted view per path. */
  readonly sessions: Uint32Array;
  /** Where each path's visitors start in {@link visitors}; one more entry than paths. */
  readonly visitorOffsets: Uint32Array;
  /** The distinct visitor ids of each path's counted views, path after path. */
  readonly visitors: Uint32Array;
  /** `timed` only (else empty): where each path's seconds start in {@link timeValues}; one more entry than paths. */
  readonly timeOffsets: Uint32Array;
  /** `timed` only: each path's distinct seconds on page, ascending, path after path, and how many views had each. */
  readonly timeValues: Uint32Array;
  readonly timeCounts: Uint32Array;
}

/** The digest of a day: the day's sessions visited in order, as `groupPageViewsSteps` visits them. */
function digestDay(mode: PageViewMode, batch: Parameters<Derivation<PageDayDigest>['derive']>[0]['sessions']): PageDayDigest {
  const views: number[] = [];
  const sessions: number[] = [];
  const lastSession: number[] = [];
  const visitorLists: number[][] = [];
  const timeLists: Map<number, number>[] = [];
  const paths = createSlots<number>(() => {
    views.push(0);
    sessions.push(0);
    lastSession.push(-1);
    visitorLists.push([]);
    if (mode === 'timed') timeLists.push(new Map());
  });
  const seen = createPairSet(1024);
  const count = (path: number, session: number, visitor: number, seconds: number): void => {
    if (mode === 'timed' && !(seconds > 1 && seconds < 3600)) return;
    const slot = paths.slotOf(path);
    if (mode === 'timed') {
      const times = timeLists[slot] as Map<number, number>;
      times.set(seconds, (times.get(seconds) ?? 0) + 1);
    }
    views[slot] = (views[slot] as number) + 1;
    if (lastSession[slot] !== session) {
      lastSession[slot] = session;
      sessions[slot] = (sessions[slot] as number) + 1;
      if (seen.add(path, visitor)) (visitorLists[slot] as number[]).push(visitor);
    }
  };
  const { pageOffsets, pagePaths, pageTimeS, visitor } = batch;
  for (let i = 0; i < batch.count; i++) {
    const first = pageOffsets[i] as number;
    const end = pageOffsets[i + 1] as number;
    const v = visitor[i] as number;
    if (mode === 'all' || mode === 'timed') for (let p = first; p < end; p++) count(pagePaths[p] as number, i, v, pageTimeS[p] as number);
    else if (end > first) {
      const p = mode === 'entry' ? first : end - 1;
      count(pagePaths[p] as number, i, v, pageTimeS[p] as number);
    }
  }
  const { offsets: visitorOffsets, values: visitors } = packLists(visitorLists);
  const [{ offsets: timeOffsets, values: timeValues }, { values: timeCounts }] = packTallies(timeLists);
  return {
    weight: batch.weight,
    paths: Uint16Array.from(paths.keys),
    views: Uint32Array.from(views),
    sessions: Uint32Array.from(sessions),
    visitorOffsets,
    visitors,
    timeOffsets,
    timeValues,
    timeCounts,
  };
}

function pageDigestOf(mode: PageViewMode): Derivation<PageDayDigest> {
  return { name: `${DAY_DIGEST_PREFIX}page-views-${mode}`, derive: ({ sessions }) => digestDay(mode, sessions) };
}

/** The per-day digests of page views, by mode: shared with the traffic they are derived from. */
export const PAGE_DAY_DIGESTS: Readonly<Record<PageViewMode, Derivation<PageDayDigest>>> = {
  all: pageDigestOf('all'),
  entry: pageDigestOf('entry'),
  exit: pageDigestOf('exit'),
  timed: pageDigestOf('timed'),
};
