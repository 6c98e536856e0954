import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * The package as a user gets it. A copy of the working tree (what git would commit: tracked
 * and new files, nothing ignored) is committed to a scratch git repository, so this test never
 * touches the repository's own dist/ while other tests use it. From that copy:
 * - `npm pack` (whose `prepare` builds dist/) makes the tarball; installed into a new project
 *   beside vitest, msw and TypeScript from the registry, that project type-checks and runs the
 *   README's "Use in tests" example with its own vitest;
 * - installed alone into an empty folder, `npx analytics-sim serve --port 0` serves;
 * - installed from a `git+file://` URL, npm installs the devDependencies, runs `prepare` and
 *   installs the built package.
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

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Copies the working tree (tracked and untracked files that git does not ignore) to `dest` and commits it there. */
function stageRepository(dest: string): void {
  const listed = ok(run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], REPO_ROOT), 'git ls-files');
  for (const path of listed.split('\0').filter((p) => p.length > 0)) {
    if (!existsSync(join(REPO_ROOT, path))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dest, path)), { recursive: true });
    copyFileSync(join(REPO_ROOT, path), join(dest, path));
  }
  ok(run('git', ['init', '-q'], dest), 'git init');
  ok(run('git', ['add', '-A'], dest), 'git add');
  ok(run('git', ['-c', 'user.name=pack-smoke', '-c', 'user.email=pack-smoke@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'stage'], dest), 'git commit');
}

/** Starts `command` in its own process group and resolves with the URL it prints; `stop` signals the whole group. */
async function serveFrom(command: string, args: string[], cwd: string): Promise<{ url: string; stop(): Promise<boolean> }> {
  const child = spawn(command, args, { cwd, env: childEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid as number;
  const guard = setTimeout(() => process.kill(-pgid, 'SIGKILL'), 60_000);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    void exited.then((code) => reject(new Error(`${command} ${args.join(' ')} exited ${code} before listening:\n${out}\n${err}`)));
  });
  return {
    url,
    // As Ctrl-C does: the signal goes to npx, its shell and the server. True when none of them is left.
    stop: async () => {
      process.kill(-pgid, 'SIGINT');
      await exited;
      clearTimeout(guard);
      try {
        process.kill(-pgid, 0);
        return false;
      } catch {
        return true;
      }
    },
  };
}

/**
 * `.ci/run` sets ANALYTICS_SIM_FIRST_LINE_ONLY=skip on its second and third Node lines: the
 * package is the same on every line, and this test runs (about a minute) on the first.
 */
const skipPackSmoke = process.env.ANALYTICS_SIM_FIRST_LINE_ONLY === 'skip';

describe.skipIf(skipPackSmoke)('the packed library installed in another project', () => {
  const work = mkdtempSync(join(tmpdir(), 'analytics-sim-pack-'));
  const staged = join(work, 'repository');
  let tarball = '';
  let paths: string[] = [];
  // The consumer project holds an installed node_modules: removing it can take a while on a busy machine.
  afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

  beforeAll(() => {
    stageRepository(staged);
    // The build uses the repository's installed devDependencies (linked after the commit, so git never sees the link).
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(staged, 'node_modules'), 'dir');
    // Pack: prepare builds dist/; only dist, the README, the pages it links to and the config schema go in.
    const packOutput = ok(run('npm', ['pack', '--json', '--pack-destination', work], staged, 150_000), 'npm pack');
    // The JSON report follows whatever the build printed.
    const packed = JSON.parse(packOutput.slice(packOutput.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
    const { filename, files } = packed[0] as { filename: string; files: { path: string }[] };
    tarball = join(work, filename);
    paths = files.map((f) => f.path);
  }, 180_000);

  it('packs, installs from the tarball and runs the README example with vitest', () => {
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'dist/http/express-app.js', 'dist/msw/index.js', 'dist/msw/index.d.ts', 'dist/msw/browser.js']));
    // Beside dist/: the README and the pages it links to (test/package/package-contents.test.ts checks the links).
    expect(paths).toEqual(expect.arrayContaining(['docs/config.schema.json', 'docs/testing.md', 'ARCHITECTURE.md', 'examples/jest/package.json']));
    expect(paths.filter((p) => !p.startsWith('dist/') && !/^docs\/[\w.-]+\.(md|png|json)$/.test(p) && !p.startsWith('examples/') && !['package.json', 'README.md', 'LICENSE', 'ARCHITECTURE.md'].includes(p))).toEqual([]);
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
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...Object.entries(VERSIONS).map(([name, version]) => `${name}@${version}`)], project, 150_000),
      'npm install',
    );

    // Types resolve through `exports`, and the example type-checks as a user's strict code.
    ok(run(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], project), 'tsc');
    // The CLI: its shebang, and --version read from the installed package.json.
    expect(ok(run(join(project, 'node_modules/.bin/analytics-sim'), ['--version'], project), 'analytics-sim --version').trim()).toBe(PACKAGE_VERSION);
    // The express entry loads in plain node.
    expect(ok(run(process.execPath, ['--input-type=module', '-e', "import('analytics-sim/express').then((m) => console.log(typeof m.createExpressApp))"], project), 'node').trim()).toBe('function');
    // The README example passes in the user's vitest.
    const tests = run(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=verbose'], project);
    expect(tests.status, `${tests.stdout}\n${tests.stderr}`).toBe(0);
    expect(tests.stdout).toMatch(/Tests\s+3 passed/);
  }, 180_000);

  it('installs the tarball into an empty folder, where `npx analytics-sim serve --port 0` serves', async () => {
    const empty = join(work, 'empty');
    mkdirSync(empty);
    ok(run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], empty), 'npm install');
    const server = await serveFrom('npx', ['analytics-sim', 'serve', '--port', '0'], empty);
    const health = await fetch(`${server.url}/__sim/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, seed: '42' });
    expect(await server.stop()).toBe(true);
    await expect(fetch(`${server.url}/__sim/health`)).rejects.toThrow();
  }, 120_000);

  it('installs from a git URL: npm installs the devDependencies, runs prepare, and the package works', () => {
    const consumer = join(work, 'from-git');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'from-git', private: true, type: 'module' }, null, 2));
    ok(run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `git+${pathToFileURL(staged).href}`], consumer, 240_000), 'npm install git+file://');
    const installed = join(consumer, 'node_modules/analytics-sim');
    // prepare ran in npm's clone: the built files are there, and only what `files` allows.
    expect(existsSync(join(installed, 'dist/cli/main.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(ok(run(join(consumer, 'node_modules/.bin/analytics-sim'), ['--version'], consumer), 'analytics-sim --version').trim()).toBe(PACKAGE_VERSION);
    const answer = ok(
      run(
        process.execPath,
        ['--input-type=module', '-e', "const { createSimulator } = await import('analytics-sim'); const r = await createSimulator({ seed: 1 }).handle({ method: 'GET', path: '/health', query: {}, headers: {} }); console.log(r.status);"],
        consumer,
      ),
      'node',
    );
    expect(answer.trim()).toBe('200');
  }, 300_000);
});
