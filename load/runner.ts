/**
 * The Node load runner: the plans of load/k6/*.js, driven with autocannon (open-loop, at a set
 * request rate) or with fetch clients that honour Retry-After, against a simulator process.
 * After the load it reads the journal and judges it with load/expectations.js and with the
 * server's own oracle (`GET /__sim/journal/oracle`, which is `replayJournal`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import {
  arrivalStreams,
  expectedForArrivals,
  formatReport,
  isExact,
  quantile,
  summarizeJournal,
  type Entry,
  type JournalSummary,
} from './expectations.js';
import { createLatencyRecorder, decisionTimeline, type DecisionTimeline, type LatencyRecorder, type LatencyTimeline } from './timeline.js';

export const PLAN_NAMES = ['smoke', 'endpoint-limit', 'key-quota', 'concurrency', 'outage', 'ingest-burst'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanOptions {
  /** Seconds of offered load. */
  readonly duration: number;
  /** Requests per second offered in all (0: as fast as the connections go). */
  readonly rate: number;
  readonly connections: number;
}

interface Fixtures {
  apiKeys: { id: string; secret: string | null }[];
}

interface Target {
  readonly url: string;
  readonly keys: ReadonlyMap<string, string>;
}

interface Request {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly headers: Record<string, string>;
}

interface Plan {
  readonly name: PlanName;
  readonly description: string;
  readonly defaults: PlanOptions;
  /** The fixture key the load uses. */
  readonly key: string;
  readonly request: (secret: string) => Request;
  /** Control-plane set-up before the load (scenarios). */
  readonly setup?: (target: Target, options: PlanOptions) => Promise<void>;
  readonly driver: 'autocannon' | 'retrying-clients';
  /** The refusals the plan is meant to provoke: a run that provokes none did not test the rule. */
  readonly provokes: readonly string[];
}

const CHEAP_QUERY = JSON.stringify({ parameters: ['summary_metrics'], preset: 'today' });
const query = (secret: string): Request => ({
  method: 'POST',
  path: '/v1/query?website_id=web_acme_store',
  body: CHEAP_QUERY,
  headers: { 'content-type': 'application/json', 'x-api-key': secret },
});
const types = (secret: string): Request => ({ method: 'GET', path: '/v1/query/types', headers: { 'x-api-key': secret } });

async function startScenario(target: Target, body: unknown): Promise<void> {
  const res = await fetch(`${target.url}/__sim/scenarios`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201 && res.status !== 409) throw new Error(`POST /__sim/scenarios answered ${res.status}: ${await res.text()}`);
}

/** The outage-window scenario: the built-in one (30 s – 90 s) when the run is long enough, else the same shape scaled to the run. */
export function outageScenario(durationSeconds: number): unknown {
  if (durationSeconds >= 100) return { name: 'outage-window' };
  const start = Math.round(durationSeconds * 150);
  const length = Math.round(durationSeconds * 300);
  return {
    scenario: {
      name: 'outage-window-scaled',
      description: `outage-window scaled to a ${durationSeconds} s run`,
      steps: [{ name: 'outage', start, duration: length, match: { route: '/v1/*' }, effect: { type: 'outage' } }],
    },
  };
}

export const PLANS: Record<PlanName, Plan> = {
  smoke: {
    name: 'smoke',
    description: 'a few cheap queries with key_acme_read, well under every limit: all admitted',
    defaults: { duration: 5, rate: 5, connections: 2 },
    key: 'key_acme_read',
    request: query,
    driver: 'autocannon',
    provokes: [],
  },
  'endpoint-limit': {
    name: 'endpoint-limit',
    description: 'one key (key_acme_read, no quota) past the POST /v1/query limit of 120 per minute',
    defaults: { duration: 10, rate: 30, connections: 8 },
    key: 'key_acme_read',
    request: query,
    driver: 'autocannon',
    provokes: ['endpoint_limit'],
  },
  'key-quota': {
    name: 'key-quota',
    description: 'key_acme_quota past its rolling quota of 10 per 60 s',
    defaults: { duration: 5, rate: 10, connections: 4 },
    key: 'key_acme_quota',
    request: query,
    driver: 'autocannon',
    provokes: ['key_quota'],
  },
  concurrency: {
    name: 'concurrency',
    description: 'many connections on key_acme_read while a latency scenario holds each /v1/ answer 200 ms: the cap of 20 in flight',
    defaults: { duration: 5, rate: 0, connections: 50 },
    key: 'key_acme_read',
    request: types,
    setup: (target) =>
      startScenario(target, {
        scenario: {
          name: 'load-latency',
          description: 'every /v1/ answer takes 200 ms',
          steps: [{ name: 'latency', match: { route: '/v1/*' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 200 } } }],
        },
      }),
    driver: 'autocannon',
    provokes: ['concurrency'],
  },
  outage: {
    name: 'outage',
    description: 'outage-window (scaled to the run when shorter than 100 s) with clients that wait Retry-After (+ jitter < 250 ms), at most 3 retries',
    defaults: { duration: 15, rate: 20, connections: 10 },
    key: 'key_acme_read',
    request: types,
    setup: (target, options) => startScenario(target, outageScenario(options.duration)),
    driver: 'retrying-clients',
    provokes: ['scenario'],
  },
  'ingest-burst': {
    name: 'ingest-burst',
    description: 'POST /track with key_acme_track past 600 per minute',
    defaults: { duration: 5, rate: 200, connections: 10 },
    key: 'key_acme_track',
    request: (secret) => ({
      method: 'POST',
      path: '/track',
      body: JSON.stringify({ name: 'load_burst', websiteId: 'web_acme_store', anonymousId: 'anon_load' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    }),
    driver: 'autocannon',
    provokes: ['ingest_limit'],
  },
};

export interface Driven {
  readonly sent: number;
  readonly statuses: Record<string, number>;
  readonly errors: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly rps: number;
  readonly seconds: number;
  /** Retry-audit of the journal (outage plan only). */
  readonly retryViolations?: number;
  readonly retries?: number;
}

export interface Report {
  readonly plan: PlanName;
  readonly options: PlanOptions;
  readonly target: string;
  readonly startedAt: string;
  readonly driven: Driven;
  readonly summary: JournalSummary;
  /** The server's oracle: `GET /__sim/journal/oracle` without its disagreement list. */
  readonly oracle: { checked: number; skipped: number; overAdmissions: number; underAdmissions: number; accuracy: number };
  /** What exact sliding logs admit of each rule's arrivals, computed from the arrival instants alone. */
  readonly arrivals: Record<string, { offered: number; admitted: number; refused: number }>;
  readonly exact: boolean;
  /** Reasons the run fails, empty when it passes. */
  readonly problems: string[];
  /** The charts of the HTML report: decisions per second (simulator clock) and latency percentiles per second (load tool's clock). */
  readonly timeline: { readonly decisions: DecisionTimeline; readonly latency: LatencyTimeline };
}

type Progress = (line: string) => void;

const progressLine = (plan: string, began: number, duration: number, sent: number, statuses: Record<string, number>): string => {
  const codes = Object.entries(statuses)
    .sort()
    .map(([code, n]) => `${code}:${n}`)
    .join(' ');
  return `[${plan}] ${((performance.now() - began) / 1000).toFixed(1)}/${duration}s sent ${sent} ${codes}`;
};

async function driveAutocannon(plan: Plan, target: Target, req: Request, options: PlanOptions, progress: Progress, latencies: LatencyRecorder): Promise<Driven> {
  const statuses: Record<string, number> = {};
  let sent = 0;
  const began = performance.now();
  let done!: (result: autocannon.Result) => void;
  let failed!: (error: Error) => void;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
    url: `${target.url}${req.path}`,
    method: req.method,
    headers: req.headers,
    ...(req.body !== undefined ? { body: req.body } : {}),
    connections: options.connections,
    duration: options.duration,
    ...(options.rate > 0 ? { overallRate: options.rate } : {}),
    },
    (error, result) => (error ? failed(error instanceof Error ? error : new Error(String(error))) : done(result)),
  );
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    sent++;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    latencies.record(Date.now(), responseTime);
  });
  const timer = setInterval(() => progress(progressLine(plan.name, began, options.duration, sent, statuses)), 250);
  try {
    const result = await finished;
    return {
      sent: result.requests.total,
      statuses,
      errors: result.errors + result.timeouts,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      rps: result.requests.total / result.duration,
      seconds: result.duration,
    };
  } finally {
    clearInterval(timer);
  }
}

/** Clients on a fixed schedule that retry 429/5xx after Retry-After plus a jitter under 250 ms, at most 3 times (SPEC 8.4 rule 4). */
async function driveRetryingClients(
  plan: Plan,
  target: Target,
  req: Request,
  options: PlanOptions,
  progress: Progress,
  recorder: LatencyRecorder,
): Promise<Driven> {
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const began = performance.now();
  const deadline = began + options.duration * 1000;
  const interval = (options.connections * 1000) / Math.max(1, options.rate || options.connections);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  // The jitter is drawn from a fixed seed so two runs wait alike.
  let seed = 42;
  const jitter = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 240;
  };
  const send = async (path: string): Promise<{ status: number; retryAfter: number }> => {
    const t0 = performance.now();
    sent++;
    try {
      const res = await fetch(`${target.url}${path}`, { method: req.method, headers: req.headers, ...(req.body !== undefined ? { body: req.body } : {}) });
      await res.arrayBuffer();
      const took = performance.now() - t0;
      latencies.push(took);
      recorder.record(Date.now(), took);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? '1') };
    } catch {
      errors++;
      return { status: 0, retryAfter: 1 };
    }
  };
  const client = async (c: number): Promise<void> => {
    await sleep((interval * c) / options.connections);
    for (let n = 0; performance.now() < deadline; n++) {
      const next = performance.now() + interval;
      // Each logical request has its own query string, so the retry audit can tell its retries apart.
      const path = `${req.path}${req.path.includes('?') ? '&' : '?'}load=${c}-${n}`;
      let answer = await send(path);
      for (let retry = 1; retry <= 3 && (answer.status === 429 || answer.status >= 500 || answer.status === 0); retry++) {
        const wait = Math.max(1, Number.isFinite(answer.retryAfter) ? answer.retryAfter : 1) * 1000 + jitter();
        if (performance.now() + wait > deadline) return;
        await sleep(wait);
        answer = await send(path);
      }
      const rest = next - performance.now();
      if (rest > 0) await sleep(rest);
    }
  };
  const timer = setInterval(() => progress(progressLine(plan.name, began, options.duration, sent, statuses)), 250);
  try {
    await Promise.all(Array.from({ length: options.connections }, (_, c) => client(c)));
  } finally {
    clearInterval(timer);
  }
  latencies.sort((a, b) => a - b);
  const seconds = (performance.now() - began) / 1000;
  const audit = (await (await fetch(`${target.url}/__sim/journal/retry-audit`)).json()) as { summary: { retries: number; violations: number } };
  return {
    sent,
    statuses,
    errors,
    p50: quantile(latencies, 0.5),
    p90: quantile(latencies, 0.9),
    p99: quantile(latencies, 0.99),
    rps: sent / seconds,
    seconds,
    retries: audit.summary.retries,
    retryViolations: audit.summary.violations,
  };
}

export interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `analytics-sim serve --port 0 --clock real` in its own process and waits for its
 * "listening on" line. `command` defaults to the built CLI (`node dist/cli/main.js`).
 */
export function startServer(command: readonly string[] = [process.execPath, 'dist/cli/main.js'], extra: readonly string[] = []): Promise<Server> {
  const [bin, ...args] = command;
  const child = spawn(bin as string, [...args, 'serve', '--port', '0', '--clock', 'real', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the simulator did not start in 30 s: ${err}`));
    }, 30_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited with ${code} before listening: ${err}`));
    });
  });
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** Runs one plan against `url` and judges the journal. */
export async function runPlan(
  name: PlanName,
  url: string,
  overrides: Partial<PlanOptions> = {},
  progress: Progress = () => undefined,
): Promise<Report> {
  const plan = PLANS[name];
  const options: PlanOptions = { ...plan.defaults, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
  const fixtures = await getJson<Fixtures>(`${url}/__sim/fixtures`);
  const keys = new Map(fixtures.apiKeys.flatMap((k) => (k.secret ? [[k.id, k.secret] as const] : [])));
  const target: Target = { url, keys };
  const secret = process.env.KEY ?? keys.get(plan.key);
  if (!secret) throw new Error(`no secret for ${plan.key} in ${url}/__sim/fixtures (set KEY)`);
  const startedAt = new Date().toISOString();
  await plan.setup?.(target, options);
  const req = plan.request(secret);
  const latencies = createLatencyRecorder();
  const driven =
    plan.driver === 'autocannon'
      ? await driveAutocannon(plan, target, req, options, progress, latencies)
      : await driveRetryingClients(plan, target, req, options, progress, latencies);

  const journal = await getJson<{ info: { complete: boolean; since: number }; entries: Entry[] }>(`${url}/__sim/journal`);
  const oracle = await getJson<Report['oracle']>(`${url}/__sim/journal/oracle`);
  const summary = summarizeJournal(journal.entries, journal.info);
  const problems: string[] = [];
  if (summary.accuracy < 100) problems.push(`accuracy ${summary.accuracy}% < 100%`);
  if (summary.overAdmissions > 0) problems.push(`${summary.overAdmissions} over-admission(s)`);
  if (oracle.accuracy < 100 || oracle.overAdmissions > 0) problems.push(`server oracle: accuracy ${oracle.accuracy}%, ${oracle.overAdmissions} over-admission(s)`);
  if (oracle.checked !== summary.checked || oracle.overAdmissions !== summary.overAdmissions || oracle.underAdmissions !== summary.underAdmissions) {
    problems.push(`load/expectations.js and the server oracle disagree (checked ${summary.checked} vs ${oracle.checked})`);
  }
  for (const rule of plan.provokes) {
    if ((summary.refusedByRule[rule] ?? 0) === 0) problems.push(`the plan provoked no ${rule} refusal: offer more load`);
  }
  if (plan.provokes.length === 0 && summary.admitted !== summary.offered) problems.push(`smoke: ${summary.offered - summary.admitted} request(s) refused`);
  if (driven.retryViolations !== undefined && driven.retryViolations > 0) problems.push(`${driven.retryViolations} retry-audit violation(s)`);
  return {
    plan: name,
    options,
    target: url,
    startedAt,
    driven,
    summary,
    oracle: { checked: oracle.checked, skipped: oracle.skipped, overAdmissions: oracle.overAdmissions, underAdmissions: oracle.underAdmissions, accuracy: oracle.accuracy },
    arrivals: expectedForArrivals(arrivalStreams(journal.entries)),
    exact: isExact(summary) && isExact(oracle),
    problems,
    timeline: { decisions: decisionTimeline(journal.entries), latency: latencies.timeline() },
  };
}

/** The report as printable lines. */
export function reportLines(report: Report): string[] {
  const { driven } = report;
  const lines = formatReport(report.plan, report.summary, { p50: driven.p50, p99: driven.p99, rps: driven.rps, oracleAccuracy: report.oracle.accuracy });
  const codes = Object.entries(driven.statuses)
    .sort()
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');
  lines.push(`  ${'answers seen by the load tool'.padEnd(36)}  ${codes}${driven.errors ? `, errors: ${driven.errors}` : ''}`);
  const o = report.options;
  lines.push(`  ${'load'.padEnd(36)}  ${o.duration} s, ${o.rate > 0 ? `${o.rate}/s offered` : 'closed loop'}, ${o.connections} connections`);
  if (driven.retries !== undefined) lines.push(`  ${'retries (audit violations)'.padEnd(36)}  ${driven.retries} (${driven.retryViolations ?? 0})`);
  for (const p of report.problems) lines.push(`  FAIL: ${p}`);
  return lines;
}
