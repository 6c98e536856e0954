import type { JournalEntry } from '../journal/journal.js';
import { consumeSlot, createSlidingLog, type SlidingLog } from './sliding-log.js';

/** A decision the rules would have made differently. */
export interface Disagreement {
  readonly seq: number;
  readonly requestId: string;
  readonly rule: string;
  readonly id: string;
  /** What the simulator decided. */
  readonly recorded: 'allowed' | 'refused';
  /** What the rule says. */
  readonly expected: 'allowed' | 'refused';
  /** `over-admission` when the simulator let through what the rule refuses. */
  readonly kind: 'over-admission' | 'under-admission';
}

/** The verdict of a replay. */
export interface OracleReport {
  /** Window and in-flight checks judged. */
  readonly checked: number;
  /** Checks not judged because the journal did not hold their whole window. */
  readonly skipped: number;
  readonly disagreements: Disagreement[];
  readonly overAdmissions: number;
  readonly underAdmissions: number;
  /** Share of judged checks the simulator got right, in percent (100 when none were judged). */
  readonly accuracy: number;
}

/**
 * Replays a journal against the admission rules and returns every decision it disagrees with.
 * Pure. Window checks are replayed with exact sliding logs in the order the store saw them
 * (`order`), so pass the whole journal: a filtered one misses checks that share a window.
 * When the journal is not `complete` (it was cleared, or dropped entries), checks are judged
 * only once their whole window lies after `since`. In-flight decisions are judged against the
 * count the gate saw; that count itself cannot be rebuilt from a journal on a virtual clock.
 */
export function replayJournal(
  entries: readonly JournalEntry[],
  options: { complete?: boolean; since?: number } = {},
): OracleReport {
  const complete = options.complete ?? true;
  const since = options.since ?? entries[0]?.at ?? 0;
  const logs = new Map<string, SlidingLog>();
  const disagreements: Disagreement[] = [];
  let checked = 0;
  let skipped = 0;

  const judge = (entry: JournalEntry, rule: string, id: string, recordedAllowed: boolean, expectedAllowed: boolean): void => {
    checked++;
    if (recordedAllowed === expectedAllowed) return;
    disagreements.push({
      seq: entry.seq,
      requestId: entry.requestId,
      rule,
      id,
      recorded: recordedAllowed ? 'allowed' : 'refused',
      expected: expectedAllowed ? 'allowed' : 'refused',
      kind: recordedAllowed ? 'over-admission' : 'under-admission',
    });
  };

  for (const entry of entries) {
    if (entry.inFlight !== null && entry.inFlightCap !== null) {
      judge(entry, 'concurrency', entry.keyId ?? entry.identity, entry.outcome !== 'concurrency', entry.inFlight < entry.inFlightCap);
    }
  }
  const checks = entries
    .flatMap((entry) => entry.checks.map((check) => ({ entry, check })))
    .sort((a, b) => a.check.order - b.check.order);
  for (const { entry, check } of checks) {
    let log = logs.get(check.id);
    if (!log) {
      log = createSlidingLog();
      logs.set(check.id, log);
    }
    const at = check.at ?? entry.at;
    const expected = consumeSlot(log, at, check.limit, check.windowMs).allowed;
    if (expected && !check.allowed) log.times.pop();
    if (!expected && check.allowed) log.times.push(at);
    if (!complete && at < since + check.windowMs) {
      skipped++;
      continue;
    }
    judge(entry, check.rule, check.id, check.allowed, expected);
  }
  const overAdmissions = disagreements.filter((d) => d.kind === 'over-admission').length;
  return {
    checked,
    skipped,
    disagreements,
    overAdmissions,
    underAdmissions: disagreements.length - overAdmissions,
    accuracy: checked === 0 ? 100 : Math.round(((checked - disagreements.length) / checked) * 10000) / 100,
  };
}
