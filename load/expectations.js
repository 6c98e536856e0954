// @ts-check
/**
 * The expectation math shared by the k6 scripts (load/k6/*.js) and the Node runner
 * (load/run.ts): what the SPEC section 8 rules admit, and a summary of a journal against them.
 * A plain ES module with no imports, so k6 (goja) and Node load the same file.
 *
 * Semantics are those of src/sim/admission/sliding-log.ts: a request admitted at `t` holds a
 * slot of its identity's window during [t, t + window); a request is admitted when fewer than
 * `limit` slots are held at its instant, and refused otherwise.
 */

/** The limits of SPEC section 8, as src/sim/admission/rules.ts has them. */
export const LIMITS = Object.freeze({
  endpoint: Object.freeze({
    'query:execute': Object.freeze({ authenticated: 120, anonymous: 60, windowMs: 60000 }),
    'query:compile': Object.freeze({ authenticated: 300, anonymous: 60, windowMs: 60000 }),
  }),
  keyQuotaDefault: Object.freeze({ limit: 300, windowMs: 60000 }),
  concurrency: 20,
  ingest: Object.freeze({ limit: 600, windowMs: 60000 }),
});

/** The rules the journal names, in the order the report lists them. */
export const RULES = Object.freeze(['concurrency', 'key_quota', 'endpoint_limit', 'ingest_limit', 'degraded', 'scenario']);

/**
 * What an exact sliding log admits of one identity's arrivals.
 * @param {readonly number[]} times arrival instants (ms), not decreasing
 * @param {number} limit
 * @param {number} windowMs
 * @returns {{ admitted: number, refused: number, decisions: boolean[] }}
 */
export function admitSlidingLog(times, limit, windowMs) {
  /** @type {number[]} */
  const held = [];
  let head = 0;
  /** @type {boolean[]} */
  const decisions = [];
  let admitted = 0;
  for (const t of times) {
    while (head < held.length && /** @type {number} */ (held[head]) <= t - windowMs) head++;
    const ok = held.length - head < limit;
    if (ok) {
      held.push(t);
      admitted++;
    }
    decisions.push(ok);
  }
  return { admitted, refused: times.length - admitted, decisions };
}

/**
 * What the rules admit of several identities' arrivals, by rule.
 * @param {readonly { rule: string, id: string, limit: number, windowMs: number, times: readonly number[] }[]} streams
 * @returns {Record<string, { offered: number, admitted: number, refused: number }>}
 */
export function expectedForArrivals(streams) {
  /** @type {Record<string, { offered: number, admitted: number, refused: number }>} */
  const out = {};
  for (const s of streams) {
    const r = admitSlidingLog(s.times, s.limit, s.windowMs);
    const row = out[s.rule] ?? { offered: 0, admitted: 0, refused: 0 };
    row.offered += s.times.length;
    row.admitted += r.admitted;
    row.refused += r.refused;
    out[s.rule] = row;
  }
  return out;
}

/**
 * @typedef {{ rule: string, id: string, limit: number, windowMs: number, allowed: boolean, order: number }} Check
 * @typedef {{ seq: number, at: number, requestId: string, identity: string, keyId: string | null, outcome: string,
 *   status: number, checks: readonly Check[], inFlight: number | null, inFlightCap: number | null }} Entry
 * @typedef {{ seq: number, requestId: string, rule: string, id: string, kind: 'over-admission' | 'under-admission' }} Disagreement
 * @typedef {{ offered: number, admitted: number, refusedByRule: Record<string, number>, expectedByRule: Record<string, number>,
 *   checked: number, skipped: number, overAdmissions: number, underAdmissions: number, accuracy: number,
 *   disagreements: Disagreement[] }} JournalSummary
 */

/**
 * Summarizes a journal against the rules: offered requests, admitted, refused by each rule,
 * refusals each rule calls for, over- and under-admissions and the accuracy (%), judged as
 * `replayJournal` (src/sim/admission/oracle.ts) judges them. Window checks are replayed in
 * the order the store saw them, each against the recorded history; in-flight decisions against
 * the count the gate saw. Scenario refusals are injected faults: counted, never judged.
 * @param {readonly Entry[]} entries the whole journal (`GET /__sim/journal`)
 * @param {{ complete?: boolean, since?: number }} [info] the journal's `info`
 * @returns {JournalSummary}
 */
export function summarizeJournal(entries, info = {}) {
  const complete = info.complete ?? true;
  const since = info.since ?? (entries[0] ? entries[0].at : 0);
  /** @type {Record<string, number>} */
  const refusedByRule = {};
  /** @type {Record<string, number>} */
  const expectedByRule = {};
  for (const rule of RULES) {
    refusedByRule[rule] = 0;
    expectedByRule[rule] = 0;
  }
  /** @type {Disagreement[]} */
  const disagreements = [];
  let checked = 0;
  let skipped = 0;
  let admitted = 0;
  /**
   * @param {Entry} entry
   * @param {string} rule
   * @param {string} id
   * @param {boolean} recorded
   * @param {boolean} expected
   */
  const judge = (entry, rule, id, recorded, expected) => {
    checked++;
    if (recorded === expected) return;
    disagreements.push({ seq: entry.seq, requestId: entry.requestId, rule, id, kind: recorded ? 'over-admission' : 'under-admission' });
  };
  for (const entry of entries) {
    if (entry.outcome === 'admitted') admitted++;
    else refusedByRule[entry.outcome] = (refusedByRule[entry.outcome] ?? 0) + 1;
    if (entry.outcome === 'scenario' || entry.outcome === 'degraded') {
      expectedByRule[entry.outcome] = (expectedByRule[entry.outcome] ?? 0) + 1;
    }
    if (entry.inFlight !== null && entry.inFlightCap !== null) {
      const expected = entry.inFlight < entry.inFlightCap;
      if (!expected) expectedByRule.concurrency = (expectedByRule.concurrency ?? 0) + 1;
      judge(entry, 'concurrency', entry.keyId ?? entry.identity, entry.outcome !== 'concurrency', expected);
    }
  }
  /** @type {{ entry: Entry, check: Check }[]} */
  const checks = [];
  for (const entry of entries) for (const check of entry.checks) checks.push({ entry, check });
  checks.sort((a, b) => a.check.order - b.check.order);
  /** @type {Map<string, { times: number[], head: number }>} */
  const logs = new Map();
  for (const { entry, check } of checks) {
    let log = logs.get(check.id);
    if (!log) {
      log = { times: [], head: 0 };
      logs.set(check.id, log);
    }
    while (log.head < log.times.length && /** @type {number} */ (log.times[log.head]) <= entry.at - check.windowMs) log.head++;
    const expected = log.times.length - log.head < check.limit;
    // Follow the recorded history, so one early mistake is not counted again downstream.
    if (check.allowed) log.times.push(entry.at);
    if (!expected) expectedByRule[check.rule] = (expectedByRule[check.rule] ?? 0) + 1;
    if (!complete && entry.at < since + check.windowMs) {
      skipped++;
      continue;
    }
    judge(entry, check.rule, check.id, check.allowed, expected);
  }
  const overAdmissions = disagreements.filter((d) => d.kind === 'over-admission').length;
  return {
    offered: entries.length,
    admitted,
    refusedByRule,
    expectedByRule,
    checked,
    skipped,
    overAdmissions,
    underAdmissions: disagreements.length - overAdmissions,
    accuracy: checked === 0 ? 100 : Math.round(((checked - disagreements.length) / checked) * 10000) / 100,
    disagreements: disagreements.slice(0, 20),
  };
}

/**
 * Arrival streams of a journal's window checks, grouped by identity, for `expectedForArrivals`:
 * the arrivals each window saw, in the order the store saw them.
 * @param {readonly Entry[]} entries
 */
export function arrivalStreams(entries) {
  /** @type {Map<string, { rule: string, id: string, limit: number, windowMs: number, times: number[], order: number[] }>} */
  const streams = new Map();
  for (const entry of entries) {
    for (const check of entry.checks) {
      let s = streams.get(check.id);
      if (!s) {
        s = { rule: check.rule, id: check.id, limit: check.limit, windowMs: check.windowMs, times: [], order: [] };
        streams.set(check.id, s);
      }
      s.times.push(entry.at);
      s.order.push(check.order);
    }
  }
  return [...streams.values()].map((s) => {
    const idx = s.order.map((_, i) => i).sort((a, b) => /** @type {number} */ (s.order[a]) - /** @type {number} */ (s.order[b]));
    return { rule: s.rule, id: s.id, limit: s.limit, windowMs: s.windowMs, times: idx.map((i) => /** @type {number} */ (s.times[i])) };
  });
}

/**
 * The value at quantile `q` (0..1) of ascending numbers (nearest rank), 0 when empty.
 * @param {readonly number[]} sorted
 * @param {number} q
 */
export function quantile(sorted, q) {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return /** @type {number} */ (sorted[rank]);
}

/**
 * True when a summary shows exact admission: 100% accuracy and no over-admission.
 * @param {{ accuracy: number, overAdmissions: number }} summary
 */
export function isExact(summary) {
  return summary.accuracy === 100 && summary.overAdmissions === 0;
}

/**
 * The report table as text lines: one row per figure.
 * @param {string} plan
 * @param {JournalSummary} s
 * @param {{ p50?: number, p99?: number, rps?: number, oracleAccuracy?: number | null }} [extra]
 */
export function formatReport(plan, s, extra = {}) {
  /** @type {[string, string][]} */
  const rows = [
    ['offered (journaled)', String(s.offered)],
    ['admitted', String(s.admitted)],
  ];
  for (const rule of RULES) {
    const refused = s.refusedByRule[rule] ?? 0;
    const expected = s.expectedByRule[rule] ?? 0;
    if (refused === 0 && expected === 0) continue;
    rows.push([`refused by ${rule} (expected)`, `${refused} (${expected})`]);
  }
  rows.push(
    ['checks judged (skipped)', `${s.checked} (${s.skipped})`],
    ['over-admissions', String(s.overAdmissions)],
    ['under-admissions', String(s.underAdmissions)],
    ['accuracy', `${s.accuracy.toFixed(2)} %`],
  );
  if (extra.oracleAccuracy !== undefined && extra.oracleAccuracy !== null) rows.push(['server oracle accuracy', `${extra.oracleAccuracy.toFixed(2)} %`]);
  if (extra.p50 !== undefined) rows.push(['latency p50 / p99', `${extra.p50.toFixed(1)} / ${(extra.p99 ?? 0).toFixed(1)} ms`]);
  if (extra.rps !== undefined) rows.push(['requests/s', extra.rps.toFixed(0)]);
  const width = Math.max(36, ...rows.map((r) => r[0].length));
  return [`plan ${plan}: ${isExact(s) ? 'EXACT' : 'NOT EXACT'}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)];
}
