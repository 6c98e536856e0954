import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { holdsWithin, startCli, type CliProcess } from '../helpers/cli.js';
import { startRedis } from '../helpers/redis-server.js';
import { fetchAnswer } from '../helpers/wire.js';

/**
 * `analytics-sim serve --workers N` as a user runs it: one primary, N workers sharing a port
 * and a real redis-server. Each CLI runs in its own process group, so the test can tell that
 * no worker outlives the primary.
 */

type Redis = Awaited<ReturnType<typeof startRedis>>;

let redis: Redis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

const groups: number[] = [];
const running: CliProcess[] = [];

afterEach(() => {
  for (const pgid of groups.splice(0)) {
    if (isAlive(-pgid)) process.kill(-pgid, 'SIGKILL');
  }
  running.splice(0);
});

/** True while the process (or, for a negative id, any process of the group) exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function start(args: readonly string[]): CliProcess {
  const cli = startCli(args, { detached: true, guardMs: 60_000, env: { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '' } });
  if (cli.child.pid !== undefined) groups.push(cli.child.pid);
  running.push(cli);
  return cli;
}

/** A prefix no other test uses: the tests of this file share one redis-server. */
let prefixes = 0;
function uniquePrefix(): string {
  prefixes += 1;
  return `workers-test-${process.pid}-${prefixes}`;
}

const WORKERS_LINE = /^ {2}workers: 2 processes \(pids (\d+), (\d+)\) sharing the store$/m;

describe('analytics-sim serve --workers', () => {
  it('prints one banner naming both workers, answers on the shared port, and SIGTERM stops all three processes with status 0', async () => {
    const prefix = uniquePrefix();
    const cli = start(['serve', '--store', redis.url, '--store-prefix', prefix, '--port', '0', '--workers', '2', '--clock', 'virtual']);
    const [, url] = await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, first, second] = await cli.waitForStdout(WORKERS_LINE);
    const pids = [Number(first), Number(second)];
    const primary = cli.child.pid as number;
    expect(new Set([...pids, primary]).size).toBe(3);
    expect(cli.stdout().match(/listening on/g)).toHaveLength(1);
    expect(cli.stdout()).toContain(`  store: redis://127.0.0.1:${redis.port}/0, prefix ${prefix} (shared by every process using it)\n`);

    for (let i = 0; i < 4; i += 1) {
      const health = await fetchAnswer(`${url}/__sim/health`);
      expect(health.status).toBe(200);
      expect(health.json).toMatchObject({ ok: true, seed: '42' });
    }

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(await holdsWithin(5_000, () => !isAlive(pids[0] as number) && !isAlive(pids[1] as number) && !isAlive(-primary))).toBe(true);
    expect(cli.stderr()).toBe('');
    await expect(fetch(`${url}/__sim/health`)).rejects.toThrow();
  }, 60_000);

  it('on every interface, prints one drawn control token that every worker requires', async () => {
    const cli = start(['serve', '--store', redis.url, '--store-prefix', uniquePrefix(), '--host', '0.0.0.0', '--port', '0', '--workers', '2']);
    const [, url] = await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, token] = await cli.waitForStdout(/needs Authorization: Bearer ([A-Za-z0-9_-]{32}) \(generated now/);
    await cli.waitForStdout(WORKERS_LINE);
    for (let i = 0; i < 6; i += 1) {
      expect((await fetch(`${url}/__sim/health`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } })).status).toBe(200);
      expect((await fetch(`${url}/__sim/health`, { headers: { connection: 'close' } })).status).toBe(401);
    }
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  }, 60_000);

  it('replaces a worker that dies, saying which one and how, and keeps serving', async () => {
    const cli = start(['serve', '--store', redis.url, '--store-prefix', uniquePrefix(), '--port', '0', '--workers', '2', '--clock', 'virtual']);
    const [, url] = await cli.waitForStdout(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, victim] = await cli.waitForStdout(WORKERS_LINE);
    process.kill(Number(victim), 'SIGKILL');
    expect(await holdsWithin(10_000, () => cli.stderr().includes(`analytics-sim: worker ${victim} died (signal SIGKILL); starting another\n`))).toBe(true);
    for (let i = 0; i < 4; i += 1) expect((await fetchAnswer(`${url}/__sim/health`)).status).toBe(200);

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(await holdsWithin(5_000, () => !isAlive(-(cli.child.pid as number)))).toBe(true);
  }, 60_000);

  it('prints the store error once and exits 1, without restarting, when the workers cannot reach the store', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const cli = start(['serve', '--store', `redis://127.0.0.1:${port}`, '--port', '0', '--workers', '2']);
    expect((await cli.exited).code).toBe(1);
    expect(cli.stdout()).toBe('');
    expect(cli.stderr()).toBe(
      `analytics-sim: cannot reach the store at redis://127.0.0.1:${port}/0 (connect ECONNREFUSED): start Redis (redis-server --port ${port}) or fix --store\n`,
    );
    expect(await holdsWithin(5_000, () => !isAlive(-(cli.child.pid as number)))).toBe(true);
  }, 60_000);
});
