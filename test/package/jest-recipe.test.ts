import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * The jest recipe of the README runs as written: examples/jest (its package.json, jest.config.mjs
 * and test file, unchanged) is copied to a scratch project whose node_modules/analytics-sim
 * links to this repository, as `npm install` links its `file:../..` dependency, so the test
 * imports `analytics-sim` and `analytics-sim/express` through the package's `exports` (the built
 * dist/). Then `npx jest --config …` with NODE_OPTIONS=--experimental-vm-modules.
 */

const EXAMPLE = join(REPO_ROOT, 'examples/jest');

/** No variables of the vitest running this test. */
const childEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['NODE_ENV', 'TEST', 'FORCE_COLOR'].includes(name))),
  NO_COLOR: '1',
  NODE_OPTIONS: [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' '),
};

describe('the jest recipe (examples/jest)', () => {
  const project = mkdtempSync(join(tmpdir(), 'analytics-sim-jest-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('passes under jest with --experimental-vm-modules, importing the package by name', () => {
    if (!existsSync(join(REPO_ROOT, 'dist/index.js'))) {
      const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
      if (build.status !== 0) throw new Error(`npm run build exited ${build.status}:\n${build.stdout}\n${build.stderr}`);
    }
    // The example's own files (not what an `npm install` there may have added).
    for (const entry of readdirSync(EXAMPLE, { withFileTypes: true })) {
      if (entry.isFile() && entry.name !== 'package-lock.json') copyFileSync(join(EXAMPLE, entry.name), join(project, entry.name));
    }
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(REPO_ROOT, join(project, 'node_modules/analytics-sim'), 'dir');

    // The repository's jest (the version the example's package.json pins); rootDir is the config's folder.
    const jest = spawnSync('npx', ['jest', '--config', join(project, 'jest.config.mjs'), '--ci'], { cwd: REPO_ROOT, env: childEnv, encoding: 'utf8', timeout: 120_000 });
    if (jest.error) throw jest.error;
    const output = `${jest.stdout}\n${jest.stderr}`;
    expect(jest.status, output).toBe(0);
    expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
  }, 150_000);
});
