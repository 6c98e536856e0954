import type { Derivation } from '../../../traffic-cache.js';
import { engagementDerivation } from '../../../model/derived/engagement.js';
import { errorDerivation } from '../../../model/derived/errors.js';
import { createPairSet } from '../../readers/pair-set.js';
import { packLists, packTallies, type PackedLists } from '../../readers/packed-lists.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';
import { pagePath } from '../../readers/vitals-labels.js';

/**
 * The engagement spans of one website's generated sessions of one UTC day by page (its path as
 * `pagePath` names it, non-empty), as frustration_by_page and engagement_quality_by_page count
 * them (they read every pageview, whatever the filters): what a range's pass folds instead of the
 * day's pageviews. Counts and sums are of samples (multiply by `weight`), all of whole numbers;
 * pages are in the order first seen.
 */
export interface SpanPageDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  readonly names: readonly string[];
  readonly views: Uint32Array;
  /** The distinct visitor ids of each page's views, page after page. */
  readonly visitors: PackedLists;
  /** Views with a rage click, with a dead click, with an error. */
  readonly rage: Uint32Array;
  readonly dead: Uint32Array;
  readonly errored: Uint32Array;
  /** Sums of the views' seconds on page, active seconds, scroll depths and interactions. */
  readonly timeOnPage: Float64Array;
  readonly active: Float64Array;
  readonly scroll: Float64Array;
  readonly interactions: Float64Array;
  /** Per page, the click-target codes of its rage (dead) clicked views, ascending, and how many views had each. */
  readonly rageTargets: PackedLists;
  readonly rageTargetCounts: PackedLists;
  readonly deadTargets: PackedLists;
  readonly deadTargetCounts: PackedLists;
  /** Per page, its positive times to first interaction (ms), ascending, and how many views had each. */
  readonly firstInteraction: PackedLists;
  readonly firstInteractionCounts: PackedLists;
}

function tally(into: Map<number, number>, key: number): void {
  into.set(key, (into.get(key) ?? 0) + 1);
}

/** The per-day digest of engagement spans by page: shared with the traffic it is derived from. */
export const SPAN_PAGE_DIGEST: Derivation<SpanPageDigest> = {
  name: `${DAY_DIGEST_PREFIX}span-pages`,
  // It derives the day's engagement and errors on the way: about 4 µs a sample.
  cost: 10,
  derive(input) {
    const { sessions: batch } = input;
    const e = engagementDerivation.derive(input);
    const errors = new Set(errorDerivation.derive(input).pageview);
    const paths = input.dictionaries.values.path;
    const nameOfCode = new Map<number, string>();
    const slotOf = new Map<string, number>();
    const names: string[] = [];
    const sums = { views: [] as number[], rage: [] as number[], dead: [] as number[], errored: [] as number[], timeOnPage: [] as number[], active: [] as number[], scroll: [] as number[], interactions: [] as number[] };
    const visitorLists: number[][] = [];
    const rageTallies: Map<number, number>[] = [];
    const deadTallies: Map<number, number>[] = [];
    const firstTallies: Map<number, number>[] = [];
    const seen = createPairSet(1024);
    for (let i = 0; i < batch.count; i++) {
      const visitor = batch.visitor[i] as number;
      for (let p = batch.pageOffsets[i] as number; p < (batch.pageOffsets[i + 1] as number); p++) {
        const code = batch.pagePaths[p] as number;
        let name = nameOfCode.get(code);
        if (name === undefined) {
          const raw = paths[code] ?? '';
          name = raw === '' ? '' : pagePath(raw);
          nameOfCode.set(code, name);
        }
        if (name === '') continue;
        let slot = slotOf.get(name);
        if (slot === undefined) {
          slot = names.length;
          slotOf.set(name, slot);
          names.push(name);
          for (const list of Object.values(sums)) list.push(0);
          visitorLists.push([]);
          rageTallies.push(new Map());
          deadTallies.push(new Map());
          firstTallies.push(new Map());
        }
        const add = (list: number[], value: number): void => void (list[slot as number] = (list[slot as number] as number) + value);
        add(sums.views, 1);
        if (seen.add(slot, visitor)) (visitorLists[slot] as number[]).push(visitor);
        if ((e.rageClicks[p] as number) > 0) {
          add(sums.rage, 1);
          tally(rageTallies[slot] as Map<number, number>, e.rageTarget[p] as number);
        }
        if ((e.deadClicks[p] as number) > 0) {
          add(sums.dead, 1);
          tally(deadTallies[slot] as Map<number, number>, e.deadTarget[p] as number);
        }
        if (errors.has(p)) add(sums.errored, 1);
        add(sums.timeOnPage, batch.pageTimeS[p] as number);
        add(sums.active, e.activeS[p] as number);
        add(sums.scroll, e.scrollDepth[p] as number);
        add(sums.interactions, e.interactions[p] as number);
        const ttfi = e.firstInteractionMs[p] as number;
        if (ttfi > 0) tally(firstTallies[slot] as Map<number, number>, ttfi);
      }
    }
    const [rageTargets, rageTargetCounts] = packTallies(rageTallies);
    const [deadTargets, deadTargetCounts] = packTallies(deadTallies);
    const [firstInteraction, firstInteractionCounts] = packTallies(firstTallies);
    return {
      weight: batch.weight,
      names,
      views: Uint32Array.from(sums.views),
      visitors: packLists(visitorLists),
      rage: Uint32Array.from(sums.rage),
      dead: Uint32Array.from(sums.dead),
      errored: Uint32Array.from(sums.errored),
      timeOnPage: Float64Array.from(sums.timeOnPage),
      active: Float64Array.from(sums.active),
      scroll: Float64Array.from(sums.scroll),
      interactions: Float64Array.from(sums.interactions),
      rageTargets,
      rageTargetCounts,
      deadTargets,
      deadTargetCounts,
      firstInteraction,
      firstInteractionCounts,
    };
  },
};
