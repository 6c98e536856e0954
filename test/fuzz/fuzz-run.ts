import fc from 'fast-check';
import { createSimulator } from '../../src/index.js';
import type { SimRequest, SimResponse } from '../../src/sim/messages.js';
import { hostileRequest, type Credentials } from './hostile-requests.js';

/** How a fuzz run sends requests: a fresh simulator in process, or a running server. */
export interface FuzzTarget {
  /** The fixtures' secrets and ids (read once). */
  credentials(): Promise<Credentials>;
  /** Starts a run from the seeded state. */
  reset(): Promise<void>;
  /** The answer; null when the request cannot be sent this way (fetch refuses a TRACE, a GET with a body …). */
  send(request: SimRequest): Promise<SimResponse | null>;
}

/** What one kind of failure counts, with the first few requests that showed it. */
export interface FailureTally {
  count: number;
  examples: string[];
}

/** The counts `npm run fuzz` prints and fails on. */
export interface FuzzReport {
  readonly runs: number;
  readonly requests: number;
  readonly seed: number;
  /** Answers by status class, e.g. `4xx: 812`. */
  readonly statuses: Record<string, number>;
  readonly serverErrors: FailureTally;
  readonly nonJson: FailureTally;
  readonly secretLeaks: FailureTally;
  readonly exceptions: FailureTally;
  readonly pollution: FailureTally;
  /** The slowest request, in ms (printed, never asserted). */
  readonly slowestMs: number;
  readonly slowest: string;
  /** Requests the target could not send (only against a server: fetch refuses some). */
  readonly skipped: number;
}

/** The failure kinds of a report, the ones that make `npm run fuzz` exit non-zero. */
export const FAILURE_KINDS = ['serverErrors', 'nonJson', 'secretLeaks', 'exceptions', 'pollution'] as const;

function tally(): FailureTally {
  return { count: 0, examples: [] };
}

function note(t: FailureTally, what: string): void {
  t.count++;
  if (t.examples.length < 5) t.examples.push(what);
}

/** A request, shortened for a report line. */
function describe(request: SimRequest, extra = ''): string {
  const body = request.body === undefined ? '' : ` body(${request.body.length})=${JSON.stringify(request.body.slice(0, 120))}`;
  const query = Object.keys(request.query).slice(0, 5).join('&');
  return `${request.method} ${request.path.slice(0, 120)}${query ? `?${query}` : ''}${body}${extra ? ` → ${extra}` : ''}`;
}

/** What the fuzzer reads of `/__sim/fixtures`: secrets and ids to build requests from. */
type FixtureIds = {
  apiKeys: { secret: string | null; id: string }[];
  users: { sessionToken: string | null; id: string }[];
  organizations: { id: string }[];
  websites: { id: string }[];
  links: { id: string }[];
  monitors: { id: string }[];
  revenueConfigs?: { webhookHash: string; stripeWebhookSecret: string | null; paddleWebhookSecret: string | null }[];
};

/** A fresh simulator per run (seed 42), called as an adapter calls it. */
export function inProcessTarget(seed = 42): FuzzTarget {
  let sim = createSimulator({ seed });
  return {
    async credentials() {
      const fixtures = sim.fixtures() as FixtureIds;
      return credentialsOf(fixtures);
    },
    async reset() {
      sim = createSimulator({ seed });
    },
    send: (request) => sim.handle(request),
  };
}

function credentialsOf(fixtures: FixtureIds): Credentials {
  return {
    apiKeys: fixtures.apiKeys.map((k) => k.secret).filter((s): s is string => s !== null),
    sessionTokens: fixtures.users.map((u) => u.sessionToken).filter((t): t is string => t !== null),
    ids: [
      ...[...fixtures.organizations, ...fixtures.websites, ...fixtures.links, ...fixtures.monitors, ...fixtures.apiKeys, ...fixtures.users].map((r) => r.id),
      ...(fixtures.revenueConfigs ?? []).map((c) => c.webhookHash),
    ],
    webhookSecrets: (fixtures.revenueConfigs ?? []).flatMap((c) => [c.stripeWebhookSecret, c.paddleWebhookSecret]).filter((s): s is string => s !== null),
  };
}

/** A running server at `base` (e.g. http://127.0.0.1:8787): reset through the control plane. */
export function serverTarget(base: string): FuzzTarget {
  const url = (path: string) => new URL(path, base).toString();
  return {
    async credentials() {
      const res = await fetch(url('/__sim/fixtures'));
      return credentialsOf((await res.json()) as Parameters<typeof credentialsOf>[0]);
    },
    async reset() {
      await fetch(url('/__sim/reset'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    },
    async send(request) {
      // Joined as text: resolved against the base, a path that starts with `//` would name a host.
      const root = base.replace(/\/+$/, '');
      let target: URL;
      try {
        target = new URL(`${root}${request.path.startsWith('/') ? request.path : `/${request.path}`}`);
      } catch {
        return null;
      }
      if (target.origin !== new URL(root).origin) return null;
      for (const [k, v] of Object.entries(request.query)) target.searchParams.append(k, v);
      const headers = new Headers();
      for (const [k, v] of Object.entries(request.headers)) {
        try {
          if (v !== undefined && k !== 'host') headers.append(k, v);
        } catch {
          // A header value fetch refuses to send (a newline, a lone surrogate): sent without it.
        }
      }
      const method = request.method.toUpperCase();
      const withBody = request.body !== undefined && method !== 'GET' && method !== 'HEAD';
      let res: Response;
      try {
        res = await fetch(target, { method: request.method, headers, ...(withBody ? { body: request.body } : {}) });
      } catch (error) {
        // fetch's own refusal (no cause, or undici's InvalidArgumentError: a header value it will
        // not send) is not the server's doing; a network error is.
        if (error instanceof TypeError && (error.cause === undefined || (error.cause instanceof Error && error.cause.name === 'InvalidArgumentError'))) return null;
        throw error;
      }
      const out: Record<string, string> = {};
      res.headers.forEach((v, k) => (out[k] = v));
      return { status: res.status, headers: out, body: await res.text() };
    },
  };
}

function headerOf(response: SimResponse, name: string): string | undefined {
  for (const [k, v] of Object.entries(response.headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/** Routes whose answer is meant to carry secrets (the harness's fixtures, a sign-in). */
function revealsSecrets(request: SimRequest, response: SimResponse): boolean {
  return response.status < 300 && request.path.startsWith('/__sim/') && /^\/__sim\/(fixtures|sessions)\/?$/.test(request.path);
}

const BASELINE_PROTO = Object.getOwnPropertyNames(Object.prototype).length;

function polluted(): boolean {
  return (
    ({} as Record<string, unknown>).polluted !== undefined ||
    ([] as unknown as Record<string, unknown>).polluted !== undefined ||
    Object.getOwnPropertyNames(Object.prototype).length !== BASELINE_PROTO
  );
}

/**
 * Sends `runs` sequences of 1 to 4 hostile requests (fast-check, seeded) to a fresh simulator
 * each, and counts what must never happen: 5xx answers, answers that claim JSON (or refuse)
 * without a JSON error body, fixture secrets in an answer, exceptions out of the handler, and
 * prototype pollution. Deterministic for a seed against the in-process target.
 */
export async function runFuzz(options: { runs: number; seed: number; target?: FuzzTarget }): Promise<FuzzReport> {
  const target = options.target ?? inProcessTarget();
  const credentials = await target.credentials();
  const secrets = [...credentials.apiKeys, ...credentials.sessionTokens, ...(credentials.webhookSecrets ?? [])].filter((s) => s.length >= 8);
  const statuses: Record<string, number> = {};
  const report = {
    runs: options.runs,
    requests: 0,
    seed: options.seed,
    statuses,
    serverErrors: tally(),
    nonJson: tally(),
    secretLeaks: tally(),
    exceptions: tally(),
    pollution: tally(),
    slowestMs: 0,
    slowest: '',
    skipped: 0,
  };
  const property = fc.asyncProperty(fc.array(hostileRequest(credentials), { minLength: 1, maxLength: 4 }), async (requests) => {
    await target.reset();
    for (const request of requests) {
      report.requests++;
      const started = performance.now();
      let response: SimResponse | null;
      try {
        response = await target.send(request);
      } catch (error) {
        const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause).slice(0, 120)})` : '';
        note(report.exceptions, describe(request, `${String(error).slice(0, 200)}${cause}`));
        continue;
      }
      if (response === null) {
        report.skipped++;
        continue;
      }
      const ms = performance.now() - started;
      if (ms > report.slowestMs) {
        report.slowestMs = ms;
        report.slowest = describe(request, String(response.status));
      }
      const klass = `${Math.floor(response.status / 100)}xx`;
      statuses[klass] = (statuses[klass] ?? 0) + 1;
      if (response.status >= 500) note(report.serverErrors, describe(request, `${response.status} ${response.body.slice(0, 200)}`));
      const type = headerOf(response, 'content-type') ?? '';
      const hasBody = request.method.toUpperCase() !== 'HEAD' && response.status !== 204 && response.status !== 304;
      if (hasBody && (/json/i.test(type) || response.status >= 400)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(response.body);
        } catch {
          parsed = undefined;
        }
        const isErrorBody = typeof parsed === 'object' && parsed !== null && (parsed as { success?: unknown }).success === false && typeof (parsed as { code?: unknown }).code === 'string';
        if (parsed === undefined || !/json/i.test(type) || (response.status >= 400 && !isErrorBody)) {
          note(report.nonJson, describe(request, `${response.status} ${type} ${response.body.slice(0, 120)}`));
        }
      }
      if (!revealsSecrets(request, response)) {
        const text = response.body + '\n' + Object.values(response.headers).join('\n');
        if (secrets.some((s) => text.includes(s))) note(report.secretLeaks, describe(request, String(response.status)));
      }
      if (polluted()) {
        note(report.pollution, describe(request));
        delete (Object.prototype as Record<string, unknown>).polluted;
      }
    }
    return true;
  });
  await fc.assert(property, { numRuns: options.runs, seed: options.seed, endOnFailure: true });
  return report;
}

/** The report as lines to print. */
export function formatReport(report: FuzzReport): string {
  const lines = [
    `fuzz: seed ${report.seed}, ${report.runs} runs, ${report.requests} requests${report.skipped > 0 ? ` (${report.skipped} not sendable, skipped)` : ''}`,
    `answers: ${Object.entries(report.statuses).sort().map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `slowest: ${report.slowestMs.toFixed(1)} ms (${report.slowest})`,
  ];
  for (const kind of FAILURE_KINDS) {
    const t = report[kind];
    lines.push(`${kind}: ${t.count}`);
    for (const example of t.examples) lines.push(`  ${example}`);
  }
  return lines.join('\n');
}
