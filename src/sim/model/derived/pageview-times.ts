import type { SessionBatch } from '../traffic.js';

/**
 * When each pageview of a session sample starts and how long it lasts, as the derived activity
 * places its records: pageviews follow each other from the session start, each lasting its time
 * on page (at least one second).
 */

/** How long pageview `p` (an index into the batch's page columns) lasts, in ms. */
export function pageStayMs(sessions: SessionBatch, p: number): number {
  return Math.max(1, sessions.pageTimeS[p] as number) * 1000;
}

/** Start times (epoch ms) of the pageviews of session sample `index`, in visit order. */
export function pageviewStartsMs(sessions: SessionBatch, index: number): number[] {
  const from = sessions.pageOffsets[index] as number;
  const to = sessions.pageOffsets[index + 1] as number;
  const starts: number[] = [];
  let at = sessions.startMs[index] as number;
  for (let p = from; p < to; p++) {
    starts.push(at);
    at += pageStayMs(sessions, p);
  }
  return starts;
}
