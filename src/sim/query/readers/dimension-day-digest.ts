import type { Derivation } from '../../traffic-cache.js';
import { SESSION_DIMENSIONS, type SessionBatch, type SessionDimension } from '../../model/traffic.js';
import { createPairSet } from './pair-set.js';
import { packLists } from './packed-lists.js';
import { DAY_DIGEST_PREFIX } from './digest-days.js';
import { createSlots } from './slots.js';

/**
 * The visits of one website's generated sessions of one UTC day by the code of one session
 * dimension, as a breakdown without filters counts them: what a range's pass folds instead of
 * the day's sessions. Counts are of samples (multiply by `weight`); codes are in the order the
 * day's sessions first show them, and each code's visitors in the order first seen.
 */
export interface DimensionDayDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  /** Dimension codes, in the order first seen. */
  readonly codes: Uint16Array;
  readonly sessions: Uint32Array;
  readonly pageviews: Uint32Array;
  /** Where each code's visitors start in {@link visitors}; one more entry than codes. */
  readonly visitorOffsets: Uint32Array;
  /** The distinct visitor ids of each code's sessions, code after code. */
  readonly visitors: Uint32Array;
}

function digestDay(dimension: SessionDimension, batch: SessionBatch): DimensionDayDigest {
  const column = batch.dims[dimension];
  const sessions: number[] = [];
  const pageviews: number[] = [];
  const visitorLists: number[][] = [];
  const codes = createSlots<number>(() => {
    sessions.push(0);
    pageviews.push(0);
    visitorLists.push([]);
  });
  const seen = createPairSet(1024);
  for (let i = 0; i < batch.count; i++) {
    const code = column[i] as number;
    const slot = codes.slotOf(code);
    sessions[slot] = (sessions[slot] as number) + 1;
    pageviews[slot] = (pageviews[slot] as number) + (batch.pageOffsets[i + 1] as number) - (batch.pageOffsets[i] as number);
    const visitor = batch.visitor[i] as number;
    if (seen.add(code, visitor)) (visitorLists[slot] as number[]).push(visitor);
  }
  const { offsets: visitorOffsets, values: visitors } = packLists(visitorLists);
  return { weight: batch.weight, codes: Uint16Array.from(codes.keys), sessions: Uint32Array.from(sessions), pageviews: Uint32Array.from(pageviews), visitorOffsets, visitors };
}

/** The per-day digest of visits by each session dimension: shared with the traffic it is derived from. */
export const DIMENSION_DAY_DIGESTS: Readonly<Record<SessionDimension, Derivation<DimensionDayDigest>>> = Object.freeze(
  Object.fromEntries(
    SESSION_DIMENSIONS.map((dimension) => [dimension, { name: `${DAY_DIGEST_PREFIX}visits-by-${dimension}`, derive: ({ sessions }) => digestDay(dimension, sessions) } satisfies Derivation<DimensionDayDigest>]),
  ) as Record<SessionDimension, Derivation<DimensionDayDigest>>,
);
