import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupAlive, REPO_ROOT, startProcess, type CliProcess } from '../helpers/cli.js';

/**
 * `npm start` as a developer runs it: the built server (dist/, which `npm ci` builds through
 * `prepare`), started without a rebuild, and stopped by a signal to npm alone. The script execs
 * node, so npm's only child is the server and the signal npm forwards reaches it: no node is
 * left holding the port. Timings are printed, not asserted.
 */

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

const groups: number[] = [];

/** Starts a command in its own process group (cleaned up after each test) and times its "listening on". */
function startGroup(command: string, args: readonly string[]): CliProcess & { listening(): Promise<{ url: string; ms: number }> } {
  const startedAt = performance.now();
  const started = startProcess(command, args, { detached: true, env: { NO_COLOR: '1' }, guardMs: 30_000 });
  if (started.child.pid !== undefined) groups.push(started.child.pid);
  return Object.assign(started, {
    async listening() {
      const match = await started.waitForStdout(LISTENING);
      return { url: match[1] as string, ms: performance.now() - startedAt };
    },
  });
}

afterEach(() => {
  for (const pgid of groups.splice(0)) {
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  }
});

describe('npm start', () => {
  beforeAll(() => {
    // `npm ci` (prepare) or `npm run build` made dist/; build it here only when it is missing.
    if (existsSync(join(REPO_ROOT, 'dist/cli/main.js'))) return;
    const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`npm run build exited ${build.status}:\n${build.stdout}\n${build.stderr}`);
  }, 120_000);

  it('serves the built CLI without rebuilding, and SIGTERM to npm leaves nothing listening', async () => {
    const npm = startGroup('npm', ['start', '--', '--port', '0']);
    const { url, ms } = await npm.listening();
    // The script is the server itself: no build step ran before it.
    expect(npm.stdout()).toMatch(/> exec node dist\/cli\/main\.js serve --port 0/);
    expect(npm.stdout()).not.toMatch(/tsc|bundle-cli/);
    const health = await fetch(`${url}/__sim/health`);
    expect(health.status).toBe(200);
    await health.arrayBuffer();

    npm.child.kill('SIGTERM');
    const exit = await npm.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    // npm waited for its child: no process of the group is left, and the port refuses connections.
    expect(groupAlive(npm.child.pid as number)).toBe(false);
    await expect(fetch(`${url}/__sim/health`)).rejects.toThrow();
    console.log(`npm start: "listening on" ${ms.toFixed(0)} ms after spawning npm`);
  }, 30_000);

  it('prints how long the built CLI takes from spawning node to "listening on"', async () => {
    const node = startGroup(process.execPath, ['dist/cli/main.js', 'serve', '--port', '0']);
    const { ms } = await node.listening();
    node.child.kill('SIGINT');
    expect(await node.exited).toEqual({ code: 0, signal: null });
    console.log(`node dist/cli/main.js serve: "listening on" ${ms.toFixed(0)} ms after spawning node`);
  }, 30_000);
});
