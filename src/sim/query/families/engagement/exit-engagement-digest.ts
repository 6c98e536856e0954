import type { Derivation } from '../../../traffic-cache.js';
import { engagementDerivation, scrollRangeIndex } from '../../../model/derived/engagement.js';
import { createPairSet } from '../../readers/pair-set.js';
import { packLists } from '../../readers/packed-lists.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';
import { createSlots } from '../../readers/slots.js';

/** A path as page_scroll_performance names it: trailing slash trimmed, root becomes ''. */
export function exitPageName(path: string): string {
  return path.replace(/\/+$/, '');
}

/**
 * Groups of one day's sessions: sessions per group and the distinct visitors of each, packed group
 * after group (`visitors[visitorOffsets[k] .. visitorOffsets[k + 1]]`; flat, so the traffic cache sizes them).
 */
export interface DigestGroups {
  readonly sessions: Uint32Array;
  readonly visitorOffsets: Uint32Array;
  readonly visitors: Uint32Array;
}

/**
 * What the page_exit engagement types (scroll_depth_summary, scroll_depth_distribution,
 * page_scroll_performance, interaction_summary) count of one website's generated sessions of one
 * UTC day without filters: what a range's pass folds instead of the day's pageviews. Counts and
 * sums are of samples (multiply by `weight`); every sum is of whole numbers.
 */
export interface ExitEngagementDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  /** Interactions of every pageview; sessions with a pageview; sessions with one that had an interaction. */
  readonly interactions: number;
  readonly viewedSessions: number;
  readonly interactiveSessions: number;
  /** Pageviews with a scroll depth above 0, and the sum of their depths. */
  readonly scrolledViews: number;
  readonly depthSum: number;
  /** The one group of sessions with such a pageview. */
  readonly scrolled: DigestGroups;
  /** By scroll range index. */
  readonly ranges: DigestGroups;
  /** By exit page name (of a non-empty path), in the order first seen: views with a depth, their depths' sum, sessions and visitors. */
  readonly pageNames: readonly string[];
  readonly pageViews: Uint32Array;
  readonly pageDepthSums: Float64Array;
  readonly pages: DigestGroups;
}

/** Distinct sessions and visitors per group index, as one day's sessions are visited in order. */
function createDayGroups() {
  const sessions: number[] = [];
  const lastSession: number[] = [];
  const visitorLists: number[][] = [];
  const seen = createPairSet(256);
  return {
    add(group: number, session: number, visitor: number): void {
      while (sessions.length <= group) {
        sessions.push(0);
        lastSession.push(-1);
        visitorLists.push([]);
      }
      if (lastSession[group] === session) return;
      lastSession[group] = session;
      sessions[group] = (sessions[group] as number) + 1;
      if (seen.add(group, visitor)) (visitorLists[group] as number[]).push(visitor);
    },
    done(): DigestGroups {
      const { offsets, values } = packLists(visitorLists);
      return { sessions: Uint32Array.from(sessions), visitorOffsets: offsets, visitors: values };
    },
  };
}

/** The per-day digest of the page_exit engagement: shared with the traffic it is derived from. */
export const EXIT_ENGAGEMENT_DIGEST: Derivation<ExitEngagementDigest> = {
  name: `${DAY_DIGEST_PREFIX}exit-engagement`,
  // It derives the day's engagement on the way: about 1.1 µs a sample.
  cost: 3,
  derive(input) {
    const { sessions: batch } = input;
    const e = engagementDerivation.derive(input);
    const paths = input.dictionaries.values.path;
    let interactions = 0;
    let viewedSessions = 0;
    let interactiveSessions = 0;
    let scrolledViews = 0;
    let depthSum = 0;
    const scrolled = createDayGroups();
    const ranges = createDayGroups();
    const pages = createDayGroups();
    const pageViews: number[] = [];
    const pageDepthSums: number[] = [];
    const pageNames = createSlots<string>(() => {
      pageViews.push(0);
      pageDepthSums.push(0);
    });
    for (let i = 0; i < batch.count; i++) {
      const from = batch.pageOffsets[i] as number;
      const to = batch.pageOffsets[i + 1] as number;
      if (to > from) viewedSessions++;
      let interactive = false;
      const visitor = batch.visitor[i] as number;
      for (let p = from; p < to; p++) {
        const n = e.interactions[p] as number;
        interactions += n;
        if (n > 0) interactive = true;
        const depth = e.scrollDepth[p] as number;
        if (depth === 0) continue;
        scrolledViews++;
        depthSum += depth;
        scrolled.add(0, i, visitor);
        ranges.add(scrollRangeIndex(depth), i, visitor);
        const raw = paths[batch.pagePaths[p] as number] ?? '';
        if (raw === '') continue;
        const name = exitPageName(raw);
        const slot = pageNames.slotOf(name);
        pageViews[slot] = (pageViews[slot] as number) + 1;
        pageDepthSums[slot] = (pageDepthSums[slot] as number) + depth;
        pages.add(slot, i, visitor);
      }
      if (interactive) interactiveSessions++;
    }
    return {
      weight: batch.weight,
      interactions,
      viewedSessions,
      interactiveSessions,
      scrolledViews,
      depthSum,
      scrolled: scrolled.done(),
      ranges: ranges.done(),
      pageNames: pageNames.keys,
      pageViews: Uint32Array.from(pageViews),
      pageDepthSums: Float64Array.from(pageDepthSums),
      pages: pages.done(),
    };
  },
};
