/** The groups of checks, in the order the table lists them. */
export const CONFORM_GROUPS = ['catalogue', 'shapes', 'auth', 'limits', 'errors'] as const;

export type ConformGroup = (typeof CONFORM_GROUPS)[number];

/** What one check found: the target answers as the live service does, differently, or the check could not run. */
export type Outcome = 'pass' | 'fail' | 'skip';

/** One row of the report: what the live service does, what the target did, and the verdict. */
export interface CheckResult {
  readonly group: ConformGroup;
  readonly check: string;
  readonly expected: string;
  readonly observed: string;
  readonly result: Outcome;
  /** The full list behind an aggregated row (every differing type, …), for `--json`. */
  readonly details?: readonly string[];
}

/** Counts of one group or of the whole run. */
export interface Tally {
  readonly checks: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

/** The machine-readable report `--json` prints. Never holds the key. */
export interface ConformReport {
  readonly target: string;
  readonly groups: readonly ConformGroup[];
  readonly checks: readonly CheckResult[];
  readonly summary: Tally & { readonly byGroup: Readonly<Partial<Record<ConformGroup, Tally>>> };
  /** What the run had to do on the way (waits after a 429), in order. */
  readonly notes: readonly string[];
}

/** A shorthand for rows of one verdict (`pass`, `fail`): `details` only when there are some. */
function rowsOf(result: 'pass' | 'fail') {
  return (group: ConformGroup, check: string, expected: string, observed: string, details?: readonly string[]): CheckResult => ({
    group,
    check,
    expected,
    observed,
    result,
    ...(details && details.length > 0 ? { details } : {}),
  });
}

/** Shorthands for a row. */
export const pass = rowsOf('pass');
export const fail = rowsOf('fail');
export const skip = (group: ConformGroup, check: string, expected: string, reason: string): CheckResult => ({
  group,
  check,
  expected,
  observed: reason,
  result: 'skip',
});

/** `pass` when `ok`, else `fail`. */
export const verdict = (ok: boolean, group: ConformGroup, check: string, expected: string, observed: string, details?: readonly string[]): CheckResult =>
  (ok ? pass : fail)(group, check, expected, observed, details);

function tally(checks: readonly CheckResult[]): Tally {
  return {
    checks: checks.length,
    passed: checks.filter((c) => c.result === 'pass').length,
    failed: checks.filter((c) => c.result === 'fail').length,
    skipped: checks.filter((c) => c.result === 'skip').length,
  };
}

/** The report of a run: its rows in group order (a stable sort), with the counts. */
export function buildReport(target: string, groups: readonly ConformGroup[], checks: readonly CheckResult[], notes: readonly string[]): ConformReport {
  const ordered = [...checks].sort((a, b) => CONFORM_GROUPS.indexOf(a.group) - CONFORM_GROUPS.indexOf(b.group));
  const chosen = CONFORM_GROUPS.filter((g) => groups.includes(g));
  const byGroup: Partial<Record<ConformGroup, Tally>> = {};
  for (const group of chosen) byGroup[group] = tally(ordered.filter((c) => c.group === group));
  return { target, groups: chosen, checks: ordered, summary: { ...tally(ordered), byGroup }, notes };
}

/** 0 when everything checked matches the live service, 1 when something differs. */
export function exitCodeOf(report: ConformReport): 0 | 1 {
  return report.summary.failed > 0 ? 1 : 0;
}
