import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENTRY, REPO_ROOT } from '../helpers/cli.js';

/**
 * The jest sandboxes recipe (examples/jest-sandboxes) runs as written in a scratch project, its
 * test file copied four times, under jest with four workers: one server (its global setup starts
 * the CLI bundled from the source, ANALYTICS_SIM_CLI), a sandbox per JEST_WORKER_ID, each
 * worker's 120 admitted queries, 121st refused and clock moved exact.
 */

const EXAMPLE = join(REPO_ROOT, 'examples/jest-sandboxes');
const FILES = 4;

const childEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['NODE_ENV', 'TEST', 'FORCE_COLOR'].includes(name))),
  NO_COLOR: '1',
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' '),
  ANALYTICS_SIM_CLI: join(REPO_ROOT, CLI_ENTRY),
};

describe('the jest sandboxes recipe (examples/jest-sandboxes)', () => {
  const project = mkdtempSync(join(tmpdir(), 'analytics-sim-jest-sandboxes-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('passes with four jest workers against one server, each on its own sandbox', () => {
    for (const name of ['package.json', 'jest.config.mjs', 'global-setup.mjs', 'global-teardown.mjs', 'sandbox.mjs']) copyFileSync(join(EXAMPLE, name), join(project, name));
    for (let i = 1; i <= FILES; i++) copyFileSync(join(EXAMPLE, 'rate-limit.test.js'), join(project, `suite-${i}.test.js`));
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');

    const jest = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules/jest/bin/jest.js'), '--config', join(project, 'jest.config.mjs'), '--ci', '--maxWorkers', String(FILES)], {
      cwd: project,
      env: childEnv,
      encoding: 'utf8',
      timeout: 150_000,
    });
    if (jest.error) throw jest.error;
    const output = `${jest.stdout}\n${jest.stderr}`;
    expect(jest.status, output).toBe(0);
    expect(output).toMatch(new RegExp(`Test Suites:\\s+${FILES} passed, ${FILES} total`));
    expect(output).toMatch(new RegExp(`Tests:\\s+${FILES} passed, ${FILES} total`));
  }, 180_000);
});
