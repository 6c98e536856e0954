import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, groupAlive, holdsWithin, REPO_ROOT, startProcess, type CliProcess } from '../helpers/cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';

/**
 * However the server was started (the bin, node, `npm start`, `npx analytics-sim serve`,
 * `--workers`), a signal to the process the user started stops it and frees its port. Each
 * form runs the CLI bundled from the source (test/global-setup.ts) in its own process group,
 * through the real npm where npm is part of the form: a project in a temporary directory whose
 * node_modules/.bin holds the command (as an install puts it there), and whose start script is
 * this repository's. After the signal, the test polls the port and the group until both are
 * empty, with a deadline; nothing sleeps.
 */

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;

/** How long the port and the processes may take to go once the signal is sent. */
const GONE_WITHIN_MS = 10_000;

const groups: number[] = [];
let project: string;
let redis: RedisServer;

beforeAll(async () => {
  // A project that installed the command: npx finds it in node_modules/.bin, and `npm start`
  // runs this repository's start script against it.
  project = mkdtempSync(join(tmpdir(), 'analytics-sim-signals-'));
  const bin = join(project, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(REPO_ROOT, CLI_ENTRY), join(bin, 'analytics-sim'));
  const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const start = scripts.start.replace('dist/cli/main.js', join(REPO_ROOT, CLI_ENTRY));
  expect(start).not.toBe(scripts.start);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'signals-project', private: true, scripts: { start } }));
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

afterEach(() => {
  for (const pgid of groups.splice(0)) {
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  }
});

/** True while something accepts connections on the port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** One way to start the server. */
interface Form {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Run in the temporary project (npm and npx), not in the repository. */
  readonly inProject?: true;
  readonly redis?: true;
}

const SERVE = ['serve', '--port', '0'];

const FORMS: readonly Form[] = [
  { name: 'the bin, run by its shebang', command: join(REPO_ROOT, CLI_ENTRY), args: SERVE },
  { name: 'node running the bin', command: process.execPath, args: [CLI_ENTRY, ...SERVE] },
  { name: 'npm start', command: 'npm', args: ['start', '--', '--port', '0'], inProject: true },
  { name: 'npx analytics-sim serve', command: 'npx', args: ['analytics-sim', ...SERVE], inProject: true },
  { name: 'serve --workers 2', command: process.execPath, args: [CLI_ENTRY, ...SERVE, '--workers', '2'], redis: true },
  { name: 'npx analytics-sim serve --workers 2', command: 'npx', args: ['analytics-sim', ...SERVE, '--workers', '2'], inProject: true, redis: true },
];

let prefixes = 0;

/** Starts a form in its own process group and resolves once it listens. */
async function start(form: Form): Promise<{ cli: CliProcess; port: number; url: string }> {
  prefixes += 1;
  const env: NodeJS.ProcessEnv = {
    NO_COLOR: '1',
    npm_config_update_notifier: 'false',
    ANALYTICS_SIM_STORE: form.redis ? redis.url : '',
    ANALYTICS_SIM_STORE_PREFIX: form.redis ? `signals-test-${process.pid}-${prefixes}` : '',
  };
  const cli = startProcess(form.command, form.args, { detached: true, env, guardMs: 60_000, ...(form.inProject ? { cwd: project } : {}) });
  if (cli.child.pid !== undefined) groups.push(cli.child.pid);
  const [, url, port] = await cli.waitForStdout(LISTENING);
  if (form.redis) await cli.waitForStdout(/workers: 2 processes/);
  return { cli, url: url as string, port: Number(port) };
}

/** Sends `signal` (to the process, or to its whole group as a terminal's Ctrl-C does) and checks that nothing is left. */
async function stopsWith(form: Form, signal: NodeJS.Signals, target: 'process' | 'group'): Promise<void> {
  const { cli, url, port } = await start(form);
  const health = await fetch(`${url}/__sim/health`, { headers: { connection: 'close' } });
  expect(health.status).toBe(200);
  await health.arrayBuffer();
  const pid = cli.child.pid as number;

  if (target === 'group') process.kill(-pid, signal);
  else cli.child.kill(signal);

  expect(await holdsWithin(GONE_WITHIN_MS, async () => !(await accepting(port))), `port ${port} still accepts connections`).toBe(true);
  expect(await holdsWithin(GONE_WITHIN_MS, () => !groupAlive(pid)), 'a process of the group is still alive').toBe(true);
  // Its output closes once no process of the group holds it.
  await cli.exited;
  expect(cli.stderr()).not.toMatch(/analytics-sim:/);
}

describe('a signal stops the server and frees its port, however it was started', () => {
  describe.each(FORMS.map((form) => [form.name, form] as const))('%s', (_name, form) => {
    it('stops on SIGTERM to the process started', async () => {
      await stopsWith(form, 'SIGTERM', 'process');
    }, 60_000);

    if (form.command === 'npx') {
      // npm forwards SIGINT to the shell it runs the command in (`sh -c`), which holds it until
      // the command ends: only Ctrl-C, which reaches the whole group, stops npx's server.
      it('stops on SIGINT to its process group, as Ctrl-C in a terminal sends it', async () => {
        await stopsWith({ ...form, inProject: true }, 'SIGINT', 'group');
      }, 60_000);
    } else {
      it('stops on SIGINT to the process started', async () => {
        await stopsWith(form, 'SIGINT', 'process');
      }, 60_000);
    }
  });
});
