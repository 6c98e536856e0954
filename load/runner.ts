/**
 * The Node load runner: the plans of load/k6/*.js, driven with autocannon (open-loop, at a set
 * request rate) or with fetch clients that honour Retry-After, against one simulator process or
 * several sharing a store (the plan's connections and rate spread over them). After the load it
 * reads the journal of the first target (with a shared store, the journal of every process) and
 * judges it with load/expectations.js and with the server's own oracle
 * (`GET /__sim/journal/oracle`, which is `replayJournal`).
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
  /** The first target: where the control plane is asked (fixtures, reset, scenarios, journal). */
  readonly url: string;
  /** Every target the load goes to, the first included. */
  readonly urls: readonly string[];
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
    description: 'outage-window (scaled to the run when shorter than 100 s) with clients that wait Retry-After (+ jitter < 100 ms), at most 3 retries',
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
  /** What each target was given and answered, in the order of the targets (absent from reports written before several targets). */
  readonly byTarget?: readonly TargetLoad[];
  /** Retry-audit of the journal (outage plan only). */
  readonly retryViolations?: number;
  readonly retries?: number;
}

/** The share of the load one target received. */
export interface TargetLoad {
  readonly url: string;
  /** Connections (autocannon) or clients (retrying clients) sent to this target. */
  readonly connections: number;
  /** Requests per second offered to this target (0: closed loop). */
  readonly rate: number;
  readonly sent: number;
  readonly statuses: Record<string, number>;
}

export interface Report {
  readonly plan: PlanName;
  /** The options in force; `connections` is at least one per target. */
  readonly options: PlanOptions;
  /** Every target, comma-separated (the first is the one whose journal was judged). */
  readonly target: string;
  readonly targets: readonly string[];
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

/**
 * What a caller watches while a plan runs (the fault table, load/faults.ts): every answer as it
 * comes, and work done beside the load (a fault injected mid-run), which the run waits for
 * before it reads the journal.
 */
export interface LoadObserver {
  /**
   * One answer: its status (0 when none came: a timeout, a reset or refused connection), when
   * the request left and when the answer (or the error) came, in `Date.now()` milliseconds.
   */
  readonly answered?: (status: number, sentAt: number, answeredAt: number) => void;
  /** Runs beside the load, from its start; the run waits for it before judging the journal. */
  readonly during?: () => Promise<void>;
}

const progressLine = (plan: string, began: number, duration: number, sent: number, statuses: Record<string, number>): string => {
  const codes = Object.entries(statuses)
    .sort()
    .map(([code, n]) => `${code}:${n}`)
    .join(' ');
  return `[${plan}] ${((performance.now() - began) / 1000).toFixed(1)}/${duration}s sent ${sent} ${codes}`;
};

/** One target's share of a plan's load: its connections and the requests per second offered to it. */
export interface Share {
  readonly connections: number;
  /** 0: as fast as the connections go. */
  readonly rate: number;
}

/**
 * Spreads a plan's load over `targets` targets: connection i goes to target i mod `targets`
 * (so each gets ⌊c/n⌋ or ⌈c/n⌉ connections), and an offered rate is split evenly, in whole
 * requests per second, the first targets taking the remainder. Invariants: the shares add up
 * to the plan's connections and rate; every target gets at least one connection and, when a
 * rate is set, at least one request per second. Throws when there are fewer connections than
 * targets, or a rate below one per target.
 */
export function spreadLoad(options: PlanOptions, targets: number): Share[] {
  if (!Number.isInteger(targets) || targets < 1) throw new Error(`cannot spread load over ${targets} targets`);
  if (options.connections < targets) throw new Error(`${options.connections} connection(s) cannot reach ${targets} targets: give --connections ${targets} or more`);
  const split = (total: number, k: number): number => Math.floor(total / targets) + (k < total % targets ? 1 : 0);
  if (targets === 1) return [{ connections: options.connections, rate: options.rate }];
  const rate = Math.round(options.rate);
  if (options.rate > 0 && rate < targets) throw new Error(`a rate of ${options.rate}/s cannot reach ${targets} targets: give --rate ${targets} or more`);
  return Array.from({ length: targets }, (_, k) => ({ connections: split(options.connections, k), rate: options.rate > 0 ? split(rate, k) : 0 }));
}

/** Percentiles of the latencies the load tool measured, ms (sorts `samples` in place; 0 for none). */
function latencyQuantiles(samples: number[]): { p50: number; p90: number; p99: number } {
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p90: quantile(samples, 0.9), p99: quantile(samples, 0.99) };
}

const addStatus = (statuses: Record<string, number>, status: number): void => {
  statuses[status] = (statuses[status] ?? 0) + 1;
};

/** One autocannon instance per target, all at once, each with its share of the connections and rate. */
async function driveAutocannon(plan: Plan, target: Target, req: Request, options: PlanOptions, progress: Progress, latencies: LatencyRecorder, observer: LoadObserver): Promise<Driven> {
  const statuses: Record<string, number> = {};
  const samples: number[] = [];
  let sent = 0;
  const began = performance.now();
  const shares = spreadLoad(options, target.urls.length);
  const byTarget = target.urls.map((url, k) => ({ url, ...(shares[k] as Share), sent: 0, statuses: {} as Record<string, number> }));
  const run = (load: (typeof byTarget)[number]): Promise<autocannon.Result> => {
    let done!: (result: autocannon.Result) => void;
    let failed!: (error: Error) => void;
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      done = resolve;
      failed = reject;
    });
    const instance = autocannon(
      {
        url: `${load.url}${req.path}`,
        method: req.method,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        connections: load.connections,
        duration: options.duration,
        ...(load.rate > 0 ? { overallRate: load.rate } : {}),
      },
      (error, result) => (error ? failed(error instanceof Error ? error : new Error(String(error))) : done(result)),
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      sent++;
      load.sent++;
      addStatus(statuses, statusCode);
      addStatus(load.statuses, statusCode);
      samples.push(responseTime);
      const now = Date.now();
      latencies.record(now, responseTime);
      observer.answered?.(statusCode, now - responseTime, now);
    });
    // autocannon gives no start time for a failed request: its timeout (10 s) bounds it.
    instance.on('reqError', () => observer.answered?.(0, Date.now(), Date.now()));
    return finished;
  };
  const timer = setInterval(() => progress(progressLine(plan.name, began, options.duration, sent, statuses)), 250);
  try {
    const results = await Promise.all(byTarget.map(run));
    const total = results.reduce((n, r) => n + r.requests.total, 0);
    const seconds = Math.max(...results.map((r) => r.duration));
    return {
      sent: total,
      statuses,
      errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
      ...latencyQuantiles(samples),
      rps: total / seconds,
      seconds,
      byTarget,
    };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Clients on a fixed schedule that retry 429/5xx after Retry-After plus a jitter under 100 ms,
 * at most 3 times (SPEC 8.4 rule 4). Client c talks to target c mod n, retries included. The
 * audit allows 250 ms past Retry-After; the jitter stays well under it, since a retry also
 * arrives late by the refusal's way back, the timer's lateness and its own way there.
 */
async function driveRetryingClients(
  plan: Plan,
  target: Target,
  req: Request,
  options: PlanOptions,
  progress: Progress,
  recorder: LatencyRecorder,
  observer: LoadObserver,
): Promise<Driven> {
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let sent = 0;
  let errors = 0;
  const shares = spreadLoad(options, target.urls.length);
  const byTarget = target.urls.map((url, k) => {
    const connections = (shares[k] as Share).connections;
    return { url, connections, rate: (options.rate * connections) / options.connections, sent: 0, statuses: {} as Record<string, number> };
  });
  const began = performance.now();
  const deadline = began + options.duration * 1000;
  const interval = (options.connections * 1000) / Math.max(1, options.rate || options.connections);
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  // The jitter is drawn from a fixed seed so two runs wait alike.
  let seed = 42;
  const jitter = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 100;
  };
  const send = async (load: (typeof byTarget)[number], path: string): Promise<{ status: number; retryAfter: number }> => {
    const t0 = performance.now();
    const sentAt = Date.now();
    sent++;
    load.sent++;
    try {
      const res = await fetch(`${load.url}${path}`, { method: req.method, headers: req.headers, ...(req.body !== undefined ? { body: req.body } : {}) });
      await res.arrayBuffer();
      const took = performance.now() - t0;
      latencies.push(took);
      recorder.record(Date.now(), took);
      addStatus(statuses, res.status);
      addStatus(load.statuses, res.status);
      observer.answered?.(res.status, sentAt, Date.now());
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? '1') };
    } catch {
      errors++;
      observer.answered?.(0, sentAt, Date.now());
      return { status: 0, retryAfter: 1 };
    }
  };
  const client = async (c: number): Promise<void> => {
    const load = byTarget[c % byTarget.length] as (typeof byTarget)[number];
    await sleep((interval * c) / options.connections);
    for (let n = 0; performance.now() < deadline; n++) {
      const next = performance.now() + interval;
      // Each logical request has its own query string, so the retry audit can tell its retries apart.
      const path = `${req.path}${req.path.includes('?') ? '&' : '?'}load=${c}-${n}`;
      let answer = await send(load, path);
      for (let retry = 1; retry <= 3 && (answer.status === 429 || answer.status >= 500 || answer.status === 0); retry++) {
        const wait = Math.max(1, Number.isFinite(answer.retryAfter) ? answer.retryAfter : 1) * 1000 + jitter();
        if (performance.now() + wait > deadline) return;
        await sleep(wait);
        answer = await send(load, path);
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
  const seconds = (performance.now() - began) / 1000;
  const audit = (await (await fetch(`${target.url}/__sim/journal/retry-audit`)).json()) as { summary: { retries: number; violations: number } };
  return {
    sent,
    statuses,
    errors,
    ...latencyQuantiles(latencies),
    rps: sent / seconds,
    seconds,
    byTarget,
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

/** How the runner starts its own simulators when no target is given. */
export interface SimulatorOptions {
  /** `--store`: `memory` (the default) or a Redis URL, given to every process. */
  readonly store?: string;
  /** `--store-prefix`, given to every process (needs a Redis store). */
  readonly storePrefix?: string;
  /** `serve --workers N`: processes behind each port (node:cluster; needs a Redis store). */
  readonly workers?: number;
  /** Separate `serve` processes, each on its own free port (more than one needs a Redis store). */
  readonly instances?: number;
  /** The simulator command (default: the built CLI, `node dist/cli/main.js`). */
  readonly command?: readonly string[];
}

const sharesAStore = (store: string | undefined): boolean => store !== undefined && store !== 'memory';

/**
 * Why a combination of {@link SimulatorOptions} cannot run, or undefined when it can: several
 * processes need a shared store, since each process of the memory store keeps its own limits.
 */
export function describeSimulatorProblem(options: SimulatorOptions): string | undefined {
  const { workers = 1, instances = 1 } = options;
  for (const [flag, n] of [['--workers', workers], ['--instances', instances]] as const) {
    if (!Number.isInteger(n) || n < 1) return `${flag} must be a whole number ≥ 1, got ${n}.`;
  }
  if (!sharesAStore(options.store)) {
    if (workers > 1) return '--workers needs a shared store: add --store redis://HOST:PORT (with the memory store each process would keep its own limits).';
    if (instances > 1) return '--instances needs a shared store: add --store redis://HOST:PORT (with the memory store each process would keep its own limits).';
    if (options.storePrefix !== undefined) return '--store-prefix needs --store redis://HOST:PORT.';
  }
  return undefined;
}

/**
 * Starts the simulators a run without `--target` uses: `instances` processes (default 1) of
 * `serve --port 0 --clock real`, each with `--workers` and the store flags when given, all at
 * once. Resolves with them in start order (their URLs are the run's targets); when one fails to
 * start, stops the others and rejects with its error.
 */
export async function startSimulators(options: SimulatorOptions = {}): Promise<Server[]> {
  const problem = describeSimulatorProblem(options);
  if (problem) throw new Error(problem);
  const extra = [
    ...(options.store !== undefined ? ['--store', options.store] : []),
    ...(options.storePrefix !== undefined ? ['--store-prefix', options.storePrefix] : []),
    ...((options.workers ?? 1) > 1 ? ['--workers', String(options.workers)] : []),
  ];
  const started = await Promise.allSettled(Array.from({ length: options.instances ?? 1 }, () => startServer(options.command, extra)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failure.reason;
  }
  return servers;
}

/** `fetch`, rejecting with the URL and the cause (e.g. ECONNREFUSED) when nothing answers. */
async function reach(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
}

async function getJson<T>(url: string): Promise<T> {
  const res = await reach(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as T;
}

/** The options a plan runs with: its defaults, the overrides given, and at least one connection per target. */
export function planOptions(name: PlanName, overrides: Partial<PlanOptions> = {}, targets = 1): PlanOptions {
  const options: PlanOptions = { ...PLANS[name].defaults, ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) };
  return { ...options, connections: Math.max(options.connections, targets) };
}

/**
 * Waits until the journal stops growing: a load tool stops counting when its time is up, but
 * the requests it still had in flight are answered and journaled a moment later (by any
 * process sharing the store). Reading before then would judge a journal the oracle, read a
 * moment later, no longer agrees with. Gives up after 5 s and reads what is there.
 */
async function settleJournal(url: string): Promise<void> {
  const sizeOf = async (): Promise<number> => (await getJson<{ info: { size: number } }>(`${url}/__sim/journal?limit=1`)).info.size;
  let last = await sizeOf();
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const size = await sizeOf();
    if (size === last) return;
    last = size;
  }
}

/**
 * Runs one plan against one simulator or several sharing a store, and judges the journal.
 * The first target gets the control-plane calls: a reset before the load (`POST /__sim/reset`;
 * with a shared store it resets every process), the fixtures and the plan's scenarios; the
 * load is spread over every target ({@link spreadLoad}); the journal and the oracle are read
 * once, from the first target (with a shared store, the merged journal of every process).
 */
export async function runPlan(
  name: PlanName,
  targets: string | readonly string[],
  overrides: Partial<PlanOptions> = {},
  progress: Progress = () => undefined,
  observer: LoadObserver = {},
): Promise<Report> {
  const plan = PLANS[name];
  const urls = typeof targets === 'string' ? [targets] : [...targets];
  const url = urls[0];
  if (url === undefined) throw new Error('runPlan needs at least one target');
  const options = planOptions(name, overrides, urls.length);
  spreadLoad(options, urls.length); // a rate that cannot reach every target fails before any load
  const reset = await reach(`${url}/__sim/reset`, { method: 'POST' });
  if (!reset.ok) throw new Error(`POST ${url}/__sim/reset answered ${reset.status}: ${await reset.text()}`);
  const fixtures = await getJson<Fixtures>(`${url}/__sim/fixtures`);
  const keys = new Map(fixtures.apiKeys.flatMap((k) => (k.secret ? [[k.id, k.secret] as const] : [])));
  const target: Target = { url, urls, keys };
  const secret = process.env.KEY ?? keys.get(plan.key);
  if (!secret) throw new Error(`no secret for ${plan.key} in ${url}/__sim/fixtures (set KEY)`);
  const startedAt = new Date().toISOString();
  await plan.setup?.(target, options);
  const req = plan.request(secret);
  const latencies = createLatencyRecorder();
  const beside = observer.during?.();
  let driven: Driven;
  try {
    driven =
      plan.driver === 'autocannon'
        ? await driveAutocannon(plan, target, req, options, progress, latencies, observer)
        : await driveRetryingClients(plan, target, req, options, progress, latencies, observer);
  } finally {
    await beside;
  }

  await settleJournal(url);
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
    target: urls.join(', '),
    targets: urls,
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

const formatStatuses = (statuses: Record<string, number>): string =>
  Object.entries(statuses)
    .sort()
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ') || 'no answer';

/** The report as printable lines. */
export function reportLines(report: Report): string[] {
  const { driven } = report;
  const lines = formatReport(report.plan, report.summary, { p50: driven.p50, p99: driven.p99, rps: driven.rps, oracleAccuracy: report.oracle.accuracy });
  const codes = formatStatuses(driven.statuses);
  lines.push(`  ${'answers seen by the load tool'.padEnd(36)}  ${codes}${driven.errors ? `, errors: ${driven.errors}` : ''}`);
  const o = report.options;
  lines.push(`  ${'load'.padEnd(36)}  ${o.duration} s, ${o.rate > 0 ? `${o.rate}/s offered` : 'closed loop'}, ${o.connections} connections`);
  const byTarget = driven.byTarget ?? [{ url: report.target, connections: o.connections, rate: o.rate, sent: driven.sent, statuses: driven.statuses }];
  const many = byTarget.length > 1;
  byTarget.forEach((t, k) => {
    const label = many ? `target ${k + 1}${k === 0 ? ' (journal read here)' : ''}` : 'target';
    const share = many ? ` (${t.connections} connections, ${t.rate > 0 ? `${Number(t.rate.toFixed(2))}/s` : 'closed loop'}): ${t.sent} sent, ${formatStatuses(t.statuses)}` : '';
    lines.push(`  ${label.padEnd(36)}  ${t.url}${share}`);
  });
  if (driven.retries !== undefined) lines.push(`  ${'retries (audit violations)'.padEnd(36)}  ${driven.retries} (${driven.retryViolations ?? 0})`);
  for (const p of report.problems) lines.push(`  FAIL: ${p}`);
  return lines;
}
