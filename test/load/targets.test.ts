import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spreadLoad, startSimulators, type Report, type Server } from '../../load/runner.js';
import { CLI_FROM_SOURCE, REPO_ROOT } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * `.ci/run` sets ANALYTICS_SIM_FIRST_LINE_ONLY=skip on its second and third Node lines: these runs
 * start servers and load them for seconds, the same on every line; they run on the first.
 */
const FIRST_LINE_ONLY = process.env.ANALYTICS_SIM_FIRST_LINE_ONLY === 'skip';

const run = promisify(execFile);
const FROM_SOURCE = [...CLI_FROM_SOURCE];

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `load/run.ts` in its own process, as `npm run load` does (autocannon needs a main thread). */
async function runLoad(args: readonly string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'load/run.ts', ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The JSON report the run wrote; when it wrote none, fails with what the run printed. */
function readReport(file: string, cli: CliRun): Report {
  if (!existsSync(file)) throw new Error(`no report (exit ${cli.code}):\n${cli.stdout}\n${cli.stderr}`);
  return JSON.parse(readFileSync(file, 'utf8')) as Report;
}

async function journalSize(url: string): Promise<number> {
  const body = (await (await fetch(`${url}/__sim/journal`)).json()) as { entries: unknown[] };
  return body.entries.length;
}

const dir = mkdtempSync(join(tmpdir(), 'load-targets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('spreading a plan over several targets', () => {
  it('gives each target its round-robin share of the connections and an even share of the rate', () => {
    expect(spreadLoad({ duration: 1, rate: 100, connections: 8 }, 2)).toEqual([
      { connections: 4, rate: 50 },
      { connections: 4, rate: 50 },
    ]);
    expect(spreadLoad({ duration: 1, rate: 10, connections: 5 }, 3)).toEqual([
      { connections: 2, rate: 4 },
      { connections: 2, rate: 3 },
      { connections: 1, rate: 3 },
    ]);
    expect(spreadLoad({ duration: 1, rate: 0, connections: 50 }, 2)).toEqual([
      { connections: 25, rate: 0 },
      { connections: 25, rate: 0 },
    ]);
  });

  it('leaves a single target the whole plan, a fractional rate included', () => {
    expect(spreadLoad({ duration: 1, rate: 2.5, connections: 3 }, 1)).toEqual([{ connections: 3, rate: 2.5 }]);
  });

  it('refuses a rate below one request per second per target', () => {
    expect(() => spreadLoad({ duration: 1, rate: 2, connections: 4 }, 3)).toThrow(/--rate 3 or more/);
  });
});

describe('npm run load: bad combinations of targets and simulators', () => {
  const cases: [string, string[], RegExp][] = [
    ['--workers 2 without a shared store', ['--workers', '2'], /--workers needs a shared store/],
    ['--instances 2 without a shared store', ['--instances', '2', '--store', 'memory'], /--instances needs a shared store/],
    ['--store-prefix without a Redis store', ['--store-prefix', 'ci-7'], /--store-prefix needs --store redis:/],
    ['--target together with --store', ['--target', 'http://127.0.0.1:9', '--store', 'redis://127.0.0.1:9'], /--target names simulators already running; --store/],
    ['a target that is not a URL', ['--target', 'localhost:8787'], /--target must be a URL/],
    ['a rate that cannot reach every target', ['--target', 'http://127.0.0.1:9,http://127.0.0.1:10,http://127.0.0.1:11', '--rate', '2'], /--rate 3 or more/],
    ['an HTML report path that is a directory', ['--target', 'http://127.0.0.1:9', '--report', tmpdir()], /--report .* is a directory; give a file name/],
    ['a JSON report path under a file', ['--target', 'http://127.0.0.1:9', '--json', join(REPO_ROOT, 'package.json', 'report.json')], /--json .* is a file, not a directory/],
  ];
  for (const [what, args, message] of cases) {
    it(`exits 2 before any load for ${what}`, async () => {
      const { code, stderr } = await runLoad(['smoke', ...args]);
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
    }, 20_000);
  }
});

describe.skipIf(FIRST_LINE_ONLY)('npm run load over two independent memory-store simulators', () => {
  let servers: Server[] = [];
  beforeAll(async () => {
    servers = await Promise.all([startSimulators({ command: FROM_SOURCE }), startSimulators({ command: FROM_SOURCE })]).then((s) => s.flat());
  }, 40_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('sends load to every target, names each in the report and judges the first target’s journal', async () => {
    const [a, b] = servers.map((s) => s.url) as [string, string];
    const json = join(dir, 'smoke-two.json');
    const cli = await runLoad(['smoke', '--target', `${a},${b}`, '--duration', '2', '--rate', '10', '--connections', '2', '--json', json]);
    const report = readReport(json, cli);
    const { code, stdout } = cli;
    expect(code, stdout).toBe(0);
    expect(report.targets).toEqual([a, b]);
    const byTarget = report.driven.byTarget ?? [];
    expect(byTarget.map((t) => [t.url, t.connections, t.rate])).toEqual([
      [a, 1, 5],
      [b, 1, 5],
    ]);
    for (const t of byTarget) expect(t.sent).toBeGreaterThan(0);
    expect(report.driven.sent).toBe(byTarget[0]!.sent + byTarget[1]!.sent);
    expect(stdout).toContain(`target 1 (journal read here)`);
    expect(stdout).toContain(a);
    expect(stdout).toContain(b);
    // Each simulator journaled its own share; the report judged the first one's alone.
    expect(await journalSize(b)).toBeGreaterThan(0);
    expect(report.summary.offered).toBe(await journalSize(a));
  }, 30_000);
});

describe.skipIf(FIRST_LINE_ONLY)('npm run load over processes sharing a Redis store', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('two instances on the store hold the endpoint limit exactly once between them', async () => {
    const servers = await startSimulators({ command: FROM_SOURCE, store: redis.url, storePrefix: 'load-instances', instances: 2 });
    try {
      expect(servers).toHaveLength(2);
      const json = join(dir, 'endpoint-limit-shared.json');
      const cli = await runLoad([
        'endpoint-limit',
        '--target',
        servers[0]!.url,
        '--target',
        servers[1]!.url,
        '--duration',
        '3',
        '--rate',
        '100',
        '--json',
        json,
      ]);
      const report = readReport(json, cli);
      const { code, stdout } = cli;
      expect(report.problems, stdout).toEqual([]);
      expect(code).toBe(0);
      expect(report.oracle).toMatchObject({ accuracy: 100, overAdmissions: 0, underAdmissions: 0 });
      // The journal read from the first process holds the second's decisions too.
      expect(report.summary.offered).toBeGreaterThanOrEqual(report.driven.sent);
      expect(report.arrivals.endpoint_limit?.admitted).toBe(120);
      expect(report.summary.admitted).toBe(120);
      // Both processes admitted some of the 120 (answers still in flight when the load stopped go uncounted).
      const admitted = (report.driven.byTarget ?? []).map((t) => t.statuses['200'] ?? 0);
      expect(admitted.every((n) => n > 0)).toBe(true);
      expect(admitted[0]! + admitted[1]!).toBeLessThanOrEqual(120);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 60_000);

  it('serve --workers 2 started by the runner holds a key quota exactly', async () => {
    const servers = await startSimulators({ command: FROM_SOURCE, store: redis.url, storePrefix: 'load-workers', workers: 2 });
    try {
      expect(servers).toHaveLength(1);
      const json = join(dir, 'key-quota-workers.json');
      const cli = await runLoad(['key-quota', '--target', servers[0]!.url, '--duration', '2', '--rate', '15', '--json', json]);
      const report = readReport(json, cli);
      const { code, stdout } = cli;
      expect(report.problems, stdout).toEqual([]);
      expect(code).toBe(0);
      expect(report.summary.admitted).toBe(10);
      expect(report.oracle).toMatchObject({ accuracy: 100, overAdmissions: 0 });
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 60_000);
});
