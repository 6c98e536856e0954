import type { Derivation } from '../../../traffic-cache.js';
import type { SessionBatch } from '../../../model/traffic.js';
import { DAY_MS } from '../../../model/world.js';
import { pageStayMs } from '../../../model/derived/pageview-times.js';
import { createPairSet } from '../../readers/pair-set.js';
import { DAY_DIGEST_PREFIX } from '../../readers/digest-days.js';
import { packLists } from '../../readers/packed-lists.js';

/**
 * The days one website's generated sessions of one UTC day have pages on, as
 * `sessions_time_series` counts them without filters (a session that runs past midnight counts
 * on both days): by day offset (0, the sessions' own day; 1, the next …), the sessions with a
 * page that day and their distinct visitors. Counts are of samples (multiply by `weight`).
 */
export interface SessionSpreadDigest {
  /** The sample weight of the day's sessions. */
  readonly weight: number;
  /** Sessions with a page on the day of each offset; its length is the furthest offset plus one. */
  readonly sessions: Uint32Array;
  /** Where each offset's visitors start in {@link visitors}; one more entry than offsets. */
  readonly visitorOffsets: Uint32Array;
  /** The distinct visitor ids of each offset's sessions, offset after offset. */
  readonly visitors: Uint32Array;
}

function digestDay(batch: SessionBatch): SessionSpreadDigest {
  const sessions: number[] = [];
  const visitorLists: number[][] = [];
  const seen = createPairSet(1024);
  const { startMs, pageOffsets, visitor } = batch;
  for (let i = 0; i < batch.count; i++) {
    let at = startMs[i] as number;
    let last = -1;
    const v = visitor[i] as number;
    for (let p = pageOffsets[i] as number; p < (pageOffsets[i + 1] as number); p++) {
      const offset = Math.floor(at / DAY_MS) - batch.day;
      at += pageStayMs(batch, p);
      if (offset === last) continue;
      last = offset;
      while (sessions.length <= offset) {
        sessions.push(0);
        visitorLists.push([]);
      }
      sessions[offset] = (sessions[offset] as number) + 1;
      if (seen.add(offset, v)) (visitorLists[offset] as number[]).push(v);
    }
  }
  const { offsets: visitorOffsets, values: visitors } = packLists(visitorLists);
  return { weight: batch.weight, sessions: Uint32Array.from(sessions), visitorOffsets, visitors };
}

/** The per-day digest of the days sessions have pages on: shared with the traffic it is derived from. */
export const SESSION_SPREAD_DIGEST: Derivation<SessionSpreadDigest> = { name: `${DAY_DIGEST_PREFIX}session-spread`, derive: ({ sessions }) => digestDay(sessions) };
