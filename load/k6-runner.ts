/**
 * Runs a load plan with real k6 (`load/k6/PLAN.js`, built by `npm run k6:install` into
 * `.tools/bin/k6`) against one simulator, as one k6 process or as N execution segments at once,
 * then puts k6's own summary (answers by status, latency, thresholds) beside the simulator's
 * journal and oracle. The table names every difference; the run fails on any over-admission,
 * wrong refusal, disagreement or failed k6 threshold.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarizeJournal, type Entry, type JournalSummary } from './expectations.js';
import { PLANS, type PlanName } from './runner.js';

/** The project's root (this file is in load/). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The k6 `npm run k6:install` builds; `K6_BIN` in the environment names another. */
export function k6Binary(): string {
  return process.env.K6_BIN ?? join(ROOT, '.tools', 'bin', 'k6');
}

/** Seconds of load of each plan's short form (`--short`, CI): long enough to pass each limit. */
export const SHORT_SECONDS: Record<PlanName, number> = {
  smoke: 3,
  'endpoint-limit': 6,
  'key-quota': 3,
  concurrency: 4,
  outage: 10,
  'ingest-burst': 4,
};

/** The statuses the k6 scripts count (`answers_200`, …, `answers_other`, see load/k6/lib.js). */
export const STATUSES = ['200', '429', '503', 'other'] as const;
export type StatusKey = (typeof STATUSES)[number];

/** How one plan is run with k6. */
export interface K6RunOptions {
  /** `-e DURATION=S` (the short form with that many seconds); undefined: the script's long default. */
  readonly duration?: number;
  /** k6 processes, each one execution segment of the plan (default 1). */
  readonly segments?: number;
  /** Where k6's web-dashboard HTML export goes (segment k > 0 adds `-segK`); undefined: none. */
  readonly dashboard?: string;
}

/** What one k6 process reported. */
export interface K6Segment {
  /** `--execution-segment`, or `0:1` for a whole run. */
  readonly segment: string;
  readonly exitCode: number;
  readonly counts: Record<StatusKey, number>;
  /** `answer_ms` of the summary: the plan's own requests, ms. */
  readonly latency: { med: number; p90: number; p99: number; max: number };
  /** Thresholds crossed, as `metric expression (value)`. */
  readonly failedThresholds: string[];
  readonly thresholds: number;
  /** The last lines k6 printed (for a failure's cause). */
  readonly tail: string[];
  readonly dashboard?: string;
}

/** k6, the journal and the oracle on one plan. */
export interface K6Report {
  readonly plan: PlanName;
  readonly k6Version: string;
  readonly target: string;
  readonly duration: number | null;
  readonly startedAt: string;
  readonly seconds: number;
  readonly segments: readonly K6Segment[];
  /** k6's answers by status, summed over the segments. */
  readonly k6: Record<StatusKey, number>;
  /** The journal's answers by status. */
  readonly journal: Record<StatusKey, number>;
  /** What the rules call for, by status: admitted = offered − the refusals each rule calls for. */
  readonly expected: Record<StatusKey, number>;
  readonly summary: JournalSummary;
  readonly oracle: { checked: number; overAdmissions: number; underAdmissions: number; accuracy: number };
  readonly retryAudit?: { retries: number; violations: number };
  readonly problems: string[];
}

const zero = (): Record<StatusKey, number> => ({ '200': 0, '429': 0, '503': 0, other: 0 });
const statusKey = (status: number): StatusKey => (status === 200 || status === 429 || status === 503 ? (String(status) as StatusKey) : 'other');

/** The rules whose refusals are 429s; `scenario` and `degraded` answer 503 in these plans. */
const RULES_429 = ['concurrency', 'key_quota', 'endpoint_limit', 'ingest_limit'];

/** `--execution-segment` of segment k of n, and the sequence they share. */
export function executionSegments(n: number): { segments: string[]; sequence: string } {
  if (!Number.isInteger(n) || n < 1) throw new Error(`--segments must be a whole number ≥ 1, got ${n}`);
  const point = (k: number): string => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`);
  return {
    segments: Array.from({ length: n }, (_, k) => `${point(k)}:${point(k + 1)}`),
    sequence: Array.from({ length: n + 1 }, (_, k) => point(k)).join(','),
  };
}

/** The version the k6 binary prints, or a one-line error saying to build it. */
export async function k6Version(bin = k6Binary()): Promise<string> {
  if (!existsSync(bin)) throw new Error(`k6 is not built (${bin} is missing): run \`npm run k6:install\``);
  const { code, out } = await runProcess(bin, ['version'], {});
  const version = /k6 (v\S+)/.exec(out)?.[1];
  if (code !== 0 || !version) throw new Error(`${bin} version failed: run \`npm run k6:install\` again`);
  return version;
}

function runProcess(bin: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', fail);
    child.once('close', (code, signal) => done({ code: code ?? (signal ? 128 : 1), out }));
  });
}

interface Summary {
  metrics: Record<string, { count?: number; med?: number; 'p(90)'?: number; 'p(99)'?: number; max?: number; value?: number; thresholds?: Record<string, boolean> }>;
}

/** Reads one k6 `--summary-export` file: answers by status, `answer_ms`, and the thresholds crossed. */
export function readSummary(file: string): Pick<K6Segment, 'counts' | 'latency' | 'failedThresholds' | 'thresholds'> {
  const summary = JSON.parse(readFileSync(file, 'utf8')) as Summary;
  const counts = zero();
  for (const s of STATUSES) counts[s] = summary.metrics[`answers_${s}`]?.count ?? 0;
  const ms = summary.metrics.answer_ms ?? {};
  const failedThresholds: string[] = [];
  let thresholds = 0;
  for (const [metric, m] of Object.entries(summary.metrics)) {
    for (const [expression, crossed] of Object.entries(m.thresholds ?? {})) {
      thresholds++;
      // The summary export marks a crossed threshold true.
      if (crossed) failedThresholds.push(`${metric} ${expression} (${m.count ?? m.value ?? m['p(99)'] ?? '?'})`);
    }
  }
  return { counts, latency: { med: ms.med ?? 0, p90: ms['p(90)'] ?? 0, p99: ms['p(99)'] ?? 0, max: ms.max ?? 0 }, failedThresholds, thresholds };
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
    const code = cause?.code ?? cause?.errors?.[0]?.code ?? (error as Error).message;
    throw new Error(`cannot reach ${url} (${code}): start the simulator there (npm start) or leave out --target`);
  }
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/**
 * Runs plan `name` with k6 against the simulator at `target`: resets it, starts `segments` k6
 * processes at once (each `--execution-segment k/n:(k+1)/n` of one sequence), reads their
 * summaries, then the journal, the oracle (and for the outage plan the retry audit), and judges
 * them together. Rejects with a one-line message when k6 is not built or the target does not answer.
 */
export async function runK6Plan(name: PlanName, target: string, options: K6RunOptions = {}): Promise<K6Report> {
  const bin = k6Binary();
  const k6 = await k6Version(bin);
  const n = options.segments ?? 1;
  const { segments, sequence } = executionSegments(n);
  await getJson(`${target}/__sim/reset`, { method: 'POST' });
  const dir = mkdtempSync(join(tmpdir(), 'k6-summary-'));
  const startedAt = new Date().toISOString();
  const began = performance.now();
  try {
    if (options.dashboard) mkdirSync(dirname(options.dashboard), { recursive: true });
    const runs = segments.map(async (segment, k): Promise<K6Segment> => {
      const summaryFile = join(dir, `segment-${k}.json`);
      const dashboard = options.dashboard && (k === 0 ? options.dashboard : options.dashboard.replace(/(\.html)?$/, `-seg${k}.html`));
      const args = [
        'run',
        '--quiet',
        '--no-color',
        '--summary-export',
        summaryFile,
        '--summary-trend-stats',
        'med,p(90),p(99),max',
        '-e',
        `BASE_URL=${target}`,
        '-e',
        'RESET=0',
        ...(options.duration !== undefined ? ['-e', `DURATION=${options.duration}`] : []),
        ...(n > 1 ? ['--execution-segment', segment, '--execution-segment-sequence', sequence, '-e', `SEGMENT=${segment}`] : []),
        join(ROOT, 'load', 'k6', `${name}.js`),
      ];
      const env: NodeJS.ProcessEnv = dashboard
        ? { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_PERIOD: '1s', K6_WEB_DASHBOARD_EXPORT: dashboard }
        : { K6_WEB_DASHBOARD: 'false' };
      const { code, out } = await runProcess(bin, args, env);
      const tail = out.trim().split('\n').slice(-40);
      if (!existsSync(summaryFile)) {
        return { segment, exitCode: code, counts: zero(), latency: { med: 0, p90: 0, p99: 0, max: 0 }, failedThresholds: [], thresholds: 0, tail };
      }
      return { segment, exitCode: code, ...readSummary(summaryFile), tail, ...(dashboard && existsSync(dashboard) ? { dashboard } : {}) };
    });
    const done = await Promise.all(runs);
    const seconds = (performance.now() - began) / 1000;
    const journal = await getJson<{ info: { complete: boolean; since: number }; entries: Entry[] }>(`${target}/__sim/journal`);
    const oracle = await getJson<K6Report['oracle']>(`${target}/__sim/journal/oracle`);
    const retryAudit =
      name === 'outage' ? (await getJson<{ summary: { retries: number; violations: number } }>(`${target}/__sim/journal/retry-audit`)).summary : undefined;
    return judge(name, { k6Version: k6, target, duration: options.duration ?? null, startedAt, seconds, segments: done, entries: journal.entries, info: journal.info, oracle, retryAudit });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What {@link judge} reads. */
export interface K6Evidence {
  readonly k6Version: string;
  readonly target: string;
  readonly duration: number | null;
  readonly startedAt: string;
  readonly seconds: number;
  readonly segments: readonly K6Segment[];
  readonly entries: readonly Entry[];
  readonly info?: { complete?: boolean; since?: number };
  readonly oracle: K6Report['oracle'];
  readonly retryAudit?: { retries: number; violations: number } | undefined;
}

/** Puts k6's merged summaries, the journal and the oracle side by side and names every problem. */
export function judge(name: PlanName, evidence: K6Evidence): K6Report {
  const k6 = zero();
  for (const s of evidence.segments) for (const key of STATUSES) k6[key] += s.counts[key];
  const journal = zero();
  for (const entry of evidence.entries) journal[statusKey(entry.status)]++;
  const summary = summarizeJournal(evidence.entries, evidence.info);
  const expected = zero();
  for (const rule of RULES_429) expected['429'] += summary.expectedByRule[rule] ?? 0;
  expected['503'] = (summary.expectedByRule.scenario ?? 0) + (summary.expectedByRule.degraded ?? 0);
  expected['200'] = summary.offered - expected['429'] - expected['503'];
  const problems: string[] = [];
  for (const s of evidence.segments) {
    const label = evidence.segments.length > 1 ? `k6 segment ${s.segment}` : 'k6';
    for (const t of s.failedThresholds) problems.push(`${label}: threshold crossed: ${t}`);
    if (s.exitCode !== 0 && s.failedThresholds.length === 0) problems.push(`${label} exited ${s.exitCode}: ${s.tail.filter((l) => /error|fail/i.test(l)).slice(-1)[0]?.trim() ?? s.tail.slice(-1)[0] ?? ''}`);
  }
  for (const key of STATUSES) {
    const label = key === 'other' ? 'other answers' : `${key}s`;
    if (k6[key] !== journal[key]) problems.push(`k6 counted ${k6[key]} ${label}, the journal ${journal[key]}`);
    if (key !== 'other' && journal[key] !== expected[key]) problems.push(`the journal has ${journal[key]} ${label}, the rules call for ${expected[key]}`);
  }
  if (summary.overAdmissions > 0) problems.push(`${summary.overAdmissions} over-admission(s)`);
  if (summary.underAdmissions > 0) problems.push(`${summary.underAdmissions} wrong refusal(s)`);
  if (evidence.oracle.accuracy < 100 || evidence.oracle.overAdmissions > 0) problems.push(`server oracle: accuracy ${evidence.oracle.accuracy}%, ${evidence.oracle.overAdmissions} over-admission(s)`);
  if (evidence.oracle.checked !== summary.checked || evidence.oracle.overAdmissions !== summary.overAdmissions || evidence.oracle.underAdmissions !== summary.underAdmissions) {
    problems.push(`load/expectations.js and the server oracle disagree (checked ${summary.checked} vs ${evidence.oracle.checked})`);
  }
  for (const rule of PLANS[name].provokes) {
    if ((summary.refusedByRule[rule] ?? 0) === 0) problems.push(`the plan provoked no ${rule} refusal: offer more load`);
  }
  if (PLANS[name].provokes.length === 0 && summary.admitted !== summary.offered) problems.push(`smoke: ${summary.offered - summary.admitted} request(s) refused`);
  if (evidence.retryAudit && evidence.retryAudit.violations > 0) problems.push(`${evidence.retryAudit.violations} retry-audit violation(s)`);
  return {
    plan: name,
    k6Version: evidence.k6Version,
    target: evidence.target,
    duration: evidence.duration,
    startedAt: evidence.startedAt,
    seconds: evidence.seconds,
    segments: evidence.segments,
    k6,
    journal,
    expected,
    summary,
    oracle: evidence.oracle,
    ...(evidence.retryAudit ? { retryAudit: evidence.retryAudit } : {}),
    problems,
  };
}

const cell = (text: string | number, width: number): string => String(text).padEnd(width);

/** The report as printable lines: one table of k6, journal and oracle, then each problem. */
export function k6ReportLines(report: K6Report): string[] {
  const { summary, oracle } = report;
  const shape = report.duration === null ? 'long default' : `${report.duration} s`;
  const procs = report.segments.length === 1 ? '1 k6 process' : `${report.segments.length} k6 processes (execution segments)`;
  const lines = [`plan ${report.plan} with k6 ${report.k6Version} (${shape}, ${procs}, ${report.seconds.toFixed(1)} s): ${report.problems.length === 0 ? 'PASS' : 'FAIL'}`];
  const w = [30, 10, 10, 26];
  const row = (label: string, a: string | number, b: string | number, c: string | number): string => `  ${cell(label, w[0] as number)}${cell(a, w[1] as number)}${cell(b, w[2] as number)}${c}`.trimEnd();
  const mark = (key: StatusKey): string => (report.k6[key] === report.journal[key] && (key === 'other' || report.journal[key] === report.expected[key]) ? '' : '  ≠');
  lines.push(row('', 'k6', 'journal', 'oracle (rules call for)'));
  lines.push(row('answers', STATUSES.reduce((n, k) => n + report.k6[k], 0), summary.offered, ''));
  lines.push(row('200 admitted', report.k6['200'], report.journal['200'], `${report.expected['200']}${mark('200')}`));
  const rules429 = RULES_429.filter((r) => (summary.refusedByRule[r] ?? 0) + (summary.expectedByRule[r] ?? 0) > 0)
    .map((r) => `${r} ${summary.refusedByRule[r] ?? 0}/${summary.expectedByRule[r] ?? 0}`)
    .join(', ');
  lines.push(row('429 refused', report.k6['429'], report.journal['429'], `${report.expected['429']}${rules429 ? ` (${rules429})` : ''}${mark('429')}`));
  lines.push(row('503 outage', report.k6['503'], report.journal['503'], `${report.expected['503']}${mark('503')}`));
  lines.push(row('other', report.k6.other, report.journal.other, `0${mark('other')}`));
  lines.push(row('checks judged', '', summary.checked, oracle.checked));
  lines.push(row('over- / under-admissions', '', `${summary.overAdmissions} / ${summary.underAdmissions}`, `${oracle.overAdmissions} / ${oracle.underAdmissions}`));
  lines.push(row('accuracy', '', `${summary.accuracy.toFixed(2)} %`, `${oracle.accuracy.toFixed(2)} %`));
  const worst = report.segments.reduce((a, s) => (s.latency.p99 > a.latency.p99 ? s : a), report.segments[0] as K6Segment);
  const latency = `${worst.latency.med.toFixed(1)} / ${worst.latency.p90.toFixed(1)} / ${worst.latency.p99.toFixed(1)} ms${report.segments.length > 1 ? ' (slowest segment)' : ''}`;
  lines.push(`  ${cell('latency med / p90 / p99 (k6)', w[0] as number)}${latency}`);
  const thresholds = report.segments.reduce((n, s) => n + s.thresholds, 0);
  const crossed = report.segments.reduce((n, s) => n + s.failedThresholds.length, 0);
  lines.push(`  ${cell('k6 thresholds', w[0] as number)}${thresholds - crossed} of ${thresholds} met`);
  if (report.retryAudit) lines.push(`  ${cell('retries (audit violations)', w[0] as number)}${report.retryAudit.retries} (${report.retryAudit.violations})`);
  for (const s of report.segments) if (s.dashboard) lines.push(`  ${cell('k6 web dashboard', w[0] as number)}${s.dashboard}`);
  for (const p of report.problems) lines.push(`  FAIL: ${p}`);
  return lines;
}
