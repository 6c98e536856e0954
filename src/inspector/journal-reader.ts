/**
 * What the page has read of the decision journal: `GET /__sim/journal` incrementally (`since`
 * the newest decision seen, at most {@link PAGE_LIMIT} per poll), tallied. Everything it keeps
 * is bounded: per-second counts of the last {@link SPAN_S} s of simulator time, the last
 * {@link RECENT} decisions, and one total per outcome.
 */
import type { DecisionSeries } from './chart-data.js';
import { OUTCOMES } from './charts.js';
import { getJson } from './control-api.js';
import type { JournalEntry, JournalInfo, JournalListing } from './wire.js';

/** Seconds of simulator time the chart shows. */
export const SPAN_S = 120;
/** Decisions the table of last requests shows. */
export const RECENT = 20;
/** Decisions read per poll at most. */
const PAGE_LIMIT = 2000;

/** The tally of the decisions read since the page opened, or since the journal started over. */
export interface Tally {
  /** The newest decision read, by sequence number and instant. */
  lastSeq: number;
  lastAt: number | null;
  /** The journal's `since`, `size` and the clock's instant at the previous poll: a change backwards means it started over. */
  since: number | null;
  size: number;
  clockNow: number | null;
  /** Counts by outcome per second of simulator time. */
  readonly buckets: Map<number, Record<string, number>>;
  readonly totals: Record<string, number>;
  readonly recent: JournalEntry[];
  /** Decisions that went by between two polls (more than a page of them). */
  unseen: number;
  seen: number;
}

function freshTally(): Tally {
  return { lastSeq: 0, lastAt: null, since: null, size: 0, clockNow: null, buckets: new Map(), totals: Object.fromEntries(OUTCOMES.map((o) => [o, 0])), recent: [], unseen: 0, seen: 0 };
}

function record(tally: Tally, entry: JournalEntry): void {
  tally.seen++;
  tally.totals[entry.outcome] = (tally.totals[entry.outcome] ?? 0) + 1;
  const second = Math.floor(entry.at / 1000);
  let counts = tally.buckets.get(second);
  if (!counts) {
    counts = {};
    tally.buckets.set(second, counts);
  }
  counts[entry.outcome] = (counts[entry.outcome] ?? 0) + 1;
  tally.recent.push(entry);
  if (tally.recent.length > RECENT) tally.recent.shift();
  tally.lastSeq = entry.seq;
  tally.lastAt = entry.at;
}

/** Reads the journal's new decisions into a tally. */
export class JournalReader {
  tally: Tally = freshTally();

  /** Forgets everything read (after a reset of the simulator). */
  reset(): void {
    this.tally = freshTally();
  }

  /**
   * Reads the decisions since the newest one seen, at the clock's instant `clockNow`. A journal
   * that started over (a reset, a restart, a clock set back) is read again from its start.
   */
  async poll(clockNow: number): Promise<JournalInfo> {
    const tally = this.tally;
    const query = `?limit=${PAGE_LIMIT}${tally.lastAt !== null ? `&since=${tally.lastAt}` : ''}`;
    const { info, entries } = await getJson<JournalListing>(`/__sim/journal${query}`);
    const newest = entries.length ? (entries[entries.length - 1] as JournalEntry).seq : tally.lastSeq;
    const restarted =
      tally.since !== null && (info.since !== tally.since || info.size < tally.size || newest < tally.lastSeq || (tally.clockNow !== null && clockNow < tally.clockNow));
    if (restarted) {
      this.reset();
      return this.poll(clockNow);
    }
    const fresher = entries.filter((e) => e.seq > tally.lastSeq);
    const first = fresher[0];
    if (first && tally.since !== null && first.seq > tally.lastSeq + 1 && entries.length >= PAGE_LIMIT) {
      tally.unseen += first.seq - tally.lastSeq - 1;
    }
    for (const entry of fresher) record(tally, entry);
    tally.since = info.since;
    tally.size = info.size;
    tally.clockNow = clockNow;
    return info;
  }

  /** The chart's series: counts per second of the last {@link SPAN_S} s up to `nowMs`, older seconds forgotten. */
  chartData(nowMs: number): DecisionSeries {
    const { buckets } = this.tally;
    const end = Math.floor(nowMs / 1000);
    const start = end - SPAN_S + 1;
    for (const second of buckets.keys()) if (second < start) buckets.delete(second);
    const t: number[] = [];
    const series: Record<string, number[]> = Object.fromEntries(OUTCOMES.map((o) => [o, []]));
    for (let s = start; s <= end; s++) {
      t.push(s);
      const counts = buckets.get(s) ?? {};
      for (const o of OUTCOMES) series[o]?.push(counts[o] ?? 0);
    }
    return { t, series };
  }
}
