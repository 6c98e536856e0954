import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * The package as a user gets it: `npm pack` (which builds dist/ first), installed from the
 * tarball into a new project beside vitest, msw and TypeScript from the registry, then that
 * project type-checks and runs the README's "Use in tests" example with its own vitest.
 */

const VERSIONS = { vitest: '4.1.12', msw: '2.15.0', typescript: '5.9.3', '@types/node': '20.19.25' };

/** The environment of a child: no variables of the vitest running this test, which would confuse the inner one. */
const childEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !['NODE_ENV', 'TEST', 'FORCE_COLOR'].includes(name))),
  NO_COLOR: '1',
};

function run(command: string, args: string[], cwd: string, timeout = 120_000): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, env: childEnv, encoding: 'utf8', timeout });
  if (result.error) throw result.error;
  return result;
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The first `ts` code block of the README's "Use in tests" section: the example users paste. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use in tests'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('README has no ts example under "## Use in tests"');
  return match[1];
}

describe('the packed library installed in another project', () => {
  const work = mkdtempSync(join(tmpdir(), 'analytics-sim-pack-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs, installs from the tarball and runs the README example with vitest', () => {
    // Pack: prepack builds dist/ from a clean slate; only dist and the README go in.
    const packOutput = ok(run('npm', ['pack', '--json', '--pack-destination', work], REPO_ROOT, 150_000), 'npm pack');
    // The JSON report follows whatever the build printed.
    const packed = JSON.parse(packOutput.slice(packOutput.search(/^\[/m))) as {
      filename: string;
      files: { path: string }[];
    }[];
    const { filename, files } = packed[0] as { filename: string; files: { path: string }[] };
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/http/express-app.js', 'dist/msw/index.js', 'dist/msw/index.d.ts', 'dist/msw/browser.js']));
    expect(paths.filter((p) => !p.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);

    // A user's project: ESM, strict TypeScript, the README example as its test.
    const project = join(work, 'consumer');
    ok(run('mkdir', ['-p', project], work), 'mkdir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', types: ['node'], strict: true, skipLibCheck: true, noEmit: true }, include: ['*.ts'] }, null, 2),
    );
    writeFileSync(join(project, 'analytics.test.ts'), readmeExample());
    writeFileSync(
      join(project, 'entries.ts'),
      [
        "import { createSimulator, replayJournal, auditRetries, expectRetriesCompliant, type SimResponse } from 'analytics-sim';",
        "import { createExpressApp, simulatorMiddleware } from 'analytics-sim/express';",
        "import { createHandlers, defineSimulator, setupSimulator } from 'analytics-sim/msw';",
        'const sim = createSimulator({ seed: 1 });',
        'const answer: Promise<SimResponse> = sim.handle({ method: "GET", path: "/health", query: {}, headers: {} });',
        'export const used = [replayJournal, auditRetries, expectRetriesCompliant, createExpressApp, simulatorMiddleware, createHandlers(sim), defineSimulator, setupSimulator, answer];',
        '',
      ].join('\n'),
    );
    ok(
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, filename), ...Object.entries(VERSIONS).map(([name, version]) => `${name}@${version}`)], project, 150_000),
      'npm install',
    );

    // Types resolve through `exports`, and the example type-checks as a user's strict code.
    ok(run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], project), 'tsc');
    // The CLI: its shebang, and --version read from the installed package.json.
    expect(ok(run(join(project, 'node_modules/.bin/analytics-sim'), ['--version'], project), 'analytics-sim --version').trim()).toBe(
      (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    // The express entry loads in plain node.
    expect(ok(run(process.execPath, ['--input-type=module', '-e', "import('analytics-sim/express').then((m) => console.log(typeof m.createExpressApp))"], project), 'node').trim()).toBe('function');
    // The README example passes in the user's vitest.
    const tests = run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=verbose'], project);
    expect(tests.status, `${tests.stdout}\n${tests.stderr}`).toBe(0);
    expect(tests.stdout).toMatch(/Tests\s+3 passed/);
  }, 180_000);
});
