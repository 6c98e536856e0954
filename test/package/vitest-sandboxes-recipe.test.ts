import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, REPO_ROOT } from '../helpers/cli.js';

/**
 * The vitest recipe of the README's CI section runs as written: examples/vitest-sandboxes (its
 * config, global setup, sandbox fixture, unchanged) in a scratch project, its one test file
 * copied eight times so that eight workers run at once (`--pool threads --maxWorkers 8`)
 * against the one server its global setup starts (the CLI bundled from the source,
 * ANALYTICS_SIM_CLI). Each worker gets 120 queries admitted and the 121st refused, then moves
 * its own clock a minute: exact only if no worker shares a window or a clock with another.
 */

const EXAMPLE = join(REPO_ROOT, 'examples/vitest-sandboxes');
const FILES = 8;

/** No variables of the vitest running this test. */
const childEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['NODE_ENV', 'TEST', 'FORCE_COLOR'].includes(name))),
  NO_COLOR: '1',
  ANALYTICS_SIM_CLI: join(REPO_ROOT, CLI_ENTRY),
};

describe('the vitest sandboxes recipe (examples/vitest-sandboxes)', () => {
  const project = mkdtempSync(join(tmpdir(), 'analytics-sim-vitest-sandboxes-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('passes with 8 workers at once against one server, each on its own sandbox', () => {
    for (const name of ['package.json', 'vitest.config.ts', 'global-setup.ts', 'sandbox-fixture.ts']) copyFileSync(join(EXAMPLE, name), join(project, name));
    for (let i = 1; i <= FILES; i++) copyFileSync(join(EXAMPLE, 'rate-limit.test.ts'), join(project, `suite-${i}.test.ts`));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');

    const report = join(project, 'report.json');
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--pool', 'threads', '--maxWorkers', String(FILES), '--reporter', 'json', '--outputFile', report], {
      cwd: project,
      env: childEnv,
      encoding: 'utf8',
      timeout: 150_000,
    });
    if (run.error) throw run.error;
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(readFileSync(report, 'utf8')) as { numTotalTestSuites: number; numPassedTests: number; numFailedTests: number; testResults: { status: string }[] };
    expect(result.testResults.map((file) => file.status)).toEqual(Array.from({ length: FILES }, () => 'passed'));
    expect([result.numPassedTests, result.numFailedTests]).toEqual([FILES * 2, 0]);
  }, 180_000);
});
