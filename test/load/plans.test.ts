import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_NAMES, startServer, type PlanName, type PlanOptions, type Report, type Server } from '../../load/runner.js';
import { CLI_FROM_SOURCE, REPO_ROOT } from '../helpers/cli.js';

/**
 * `.ci/run` sets ANALYTICS_SIM_FIRST_LINE_ONLY=skip on its second and third Node lines: these runs
 * start servers and load them for seconds, the same on every line; they run on the first.
 */
const FIRST_LINE_ONLY = process.env.ANALYTICS_SIM_FIRST_LINE_ONLY === 'skip';

const run = promisify(execFile);

/**
 * Runs `load/run.ts PLAN --target URL` in its own process, as `npm run load` does (autocannon
 * must run on a main thread, not in a vitest worker), and reads its JSON report.
 */
async function runCli(plan: PlanName, url: string, options: Partial<PlanOptions>, dir: string): Promise<{ code: number; report: Report; stdout: string }> {
  const json = join(dir, `${plan}.json`);
  const flags = Object.entries(options).flatMap(([k, v]) => [`--${k}`, String(v)]);
  let code = 0;
  let stdout = '';
  // A run that dies before writing its report must not be judged on an earlier run's report.
  rmSync(json, { force: true });
  try {
    ({ stdout } = await run(process.execPath, ['--import', 'tsx', 'load/run.ts', plan, '--target', url, '--json', json, ...flags], { cwd: REPO_ROOT }));
  } catch (error) {
    const e = error as { code?: number; stdout?: string };
    code = e.code ?? 1;
    stdout = e.stdout ?? '';
  }
  return { code, report: JSON.parse(readFileSync(json, 'utf8')) as Report, stdout };
}

/** Short versions of the load plans: together well under 60 s on a 2-core machine. */
const SHORT: Record<PlanName, Partial<PlanOptions>> = {
  smoke: { duration: 1, rate: 10, connections: 2 },
  'endpoint-limit': { duration: 2, rate: 100, connections: 8 },
  'key-quota': { duration: 2, rate: 15, connections: 4 },
  concurrency: { duration: 2, connections: 40 },
  // Outage from 1 s to 3 s of a 7 s run: clients wait Retry-After (5 s) and come back before the end.
  outage: { duration: 7, rate: 20, connections: 5 },
  'ingest-burst': { duration: 2, rate: 400, connections: 10 },
};

describe.skipIf(FIRST_LINE_ONLY)('load plans against a real server process', () => {
  // One fresh simulator (from source) per plan, so each plan starts from empty windows.
  const servers = new Map<PlanName, Server>();
  beforeAll(async () => {
    for (const [plan, server] of await Promise.all(
      PLAN_NAMES.map(async (plan) => [plan, await startServer([...CLI_FROM_SOURCE])] as const),
    )) {
      servers.set(plan, server);
    }
  }, 40_000);
  const dir = mkdtempSync(join(tmpdir(), 'load-plans-'));
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([...servers.values()].map((s) => s.stop()));
  });

  for (const plan of PLAN_NAMES) {
    it(`${plan}: 100% admission accuracy, no over-admission, the rule provoked`, async () => {
      const server = servers.get(plan);
      if (!server) throw new Error('no server');
      const { code, report, stdout } = await runCli(plan, server.url, SHORT[plan], dir);
      expect(report.problems, stdout).toEqual([]);
      expect(code).toBe(0);
      expect(stdout).toContain(`plan ${plan}: EXACT`);
      expect(report.summary.accuracy).toBe(100);
      expect(report.summary.overAdmissions).toBe(0);
      expect(report.oracle.accuracy).toBe(100);
      expect(report.oracle.overAdmissions).toBe(0);
      expect(report.summary.checked).toBeGreaterThan(0);
      expect(report.summary.offered).toBeGreaterThanOrEqual(report.driven.sent);
      // What exact sliding logs admit of the arrivals alone equals what the simulator admitted.
      if (plan === 'endpoint-limit') expect(report.arrivals.endpoint_limit?.admitted).toBe(120);
      if (plan === 'key-quota') expect(report.summary.admitted).toBe(10);
      if (plan === 'ingest-burst') expect(report.arrivals.ingest_limit?.admitted).toBe(600);
      if (plan === 'outage') {
        expect(report.driven.retries).toBeGreaterThan(0);
        expect(report.driven.retryViolations).toBe(0);
      }
    }, 30_000);
  }

  it('exits 1 and names the over-admission when the journal shows one', async () => {
    // A stand-in target whose journal holds three admissions in a window of two.
    const check = (order: number) => ({ rule: 'endpoint_limit', id: 'query:execute:apikey:k', limit: 2, windowMs: 60_000, allowed: true, order });
    const entries = [1, 2, 3].map((seq) => ({
      seq,
      at: 1000 + seq,
      requestId: `req_${seq}`,
      identity: 'apikey:key_acme_read',
      keyId: 'key_acme_read',
      outcome: 'admitted',
      status: 200,
      checks: [check(seq)],
      inFlight: null,
      inFlightCap: null,
    }));
    const fake = createServer((req, res) => {
      const body: Record<string, unknown> = {
        '/__sim/fixtures': { apiKeys: [{ id: 'key_acme_read', secret: 'dbdy_fake' }] },
        '/__sim/journal': { info: { complete: true, since: 1000, size: entries.length }, entries },
        '/__sim/journal/oracle': { checked: 3, skipped: 0, overAdmissions: 1, underAdmissions: 0, accuracy: 66.67, disagreements: [] },
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body[new URL(req.url ?? '/', 'http://x').pathname] ?? { ok: true }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const { code, report, stdout } = await runCli('smoke', url, { duration: 1, rate: 5, connections: 1 }, dir);
      expect(code).toBe(1);
      expect(report.summary).toMatchObject({ overAdmissions: 1, accuracy: 66.67 });
      expect(stdout).toContain('plan smoke: NOT EXACT');
      expect(report.problems).toContain('1 over-admission(s)');
    } finally {
      fake.close();
    }
  }, 20_000);
});
