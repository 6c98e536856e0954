import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

/**
 * tools/build.mjs (`npm run build`, and `--if-stale` before the load, bench, soak and
 * schemathesis scripts) on a small project of the same shape (src/cli/main.ts, the two
 * tsconfig files), built with `--root`: the repository's own dist/ is never touched.
 */

const work = mkdtempSync(join(tmpdir(), 'analytics-sim-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let projects = 0;
function project(): string {
  const root = join(work, `p${++projects}`);
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'p', private: true, type: 'module' }));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [], skipLibCheck: true } }));
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: 'src', outDir: 'dist', sourceMap: true }, include: ['src'] }));
  writeFileSync(join(root, 'src', 'answer.ts'), "export const answer: string = 'first';\n");
  writeFileSync(join(root, 'src', 'cli', 'main.ts'), "import { answer } from '../answer.js';\nconsole.log(answer);\n");
  return root;
}

function build(root: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'tools', 'build.mjs'), '--root', root, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

/** What the built command prints. */
function runBuilt(root: string): string {
  return spawnSync(process.execPath, [join(root, 'dist', 'cli', 'main.js')], { encoding: 'utf8' }).stdout.trim();
}

/** Folders a build leaves beside dist/ (none once it is over). */
const leftovers = (root: string): string[] => readdirSync(root).filter((name) => name.startsWith('.dist-'));

/** Moves the last build a minute back, so that what was just changed is surely newer (no waiting for the clock). */
function builtAMinuteAgo(root: string): void {
  const stamp = join(root, 'dist', '.build-stamp');
  const earlier = (statSync(stamp).mtimeMs - 60_000) / 1000;
  utimesSync(stamp, earlier, earlier);
}

describe('tools/build.mjs', () => {
  it('builds a dist/ that runs, bundled, and leaves no folder of its own behind', () => {
    const root = project();
    const result = build(root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(runBuilt(root)).toBe('first');
    // The command is one file: the import of ../answer.js is inside it.
    expect(readFileSync(join(root, 'dist', 'cli', 'main.js'), 'utf8')).not.toContain("from '../answer.js'");
    expect(leftovers(root)).toEqual([]);
  }, 60_000);

  it('with --if-stale, leaves a current dist/ alone and says so', () => {
    const root = project();
    expect(build(root).status).toBe(0);
    const before = statSync(join(root, 'dist')).ino;
    const result = build(root, '--if-stale');
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^dist\/ is current .*not rebuilding/);
    expect(statSync(join(root, 'dist')).ino).toBe(before);
  }, 60_000);

  it('with --if-stale, rebuilds once a file under src/ changed after the last build, and names it', () => {
    const root = project();
    expect(build(root).status).toBe(0);
    writeFileSync(join(root, 'src', 'answer.ts'), "export const answer: string = 'second';\n");
    builtAMinuteAgo(root);
    const result = build(root, '--if-stale');
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('building dist/: src/answer.ts changed after dist/ was built');
    expect(runBuilt(root)).toBe('second');
    expect(build(root, '--if-stale').stderr).toMatch(/^dist\/ is current/);
  }, 60_000);

  it('with --if-stale, rebuilds once a file under src/ was removed (its folder changed)', () => {
    const root = project();
    writeFileSync(join(root, 'src', 'cli', 'extra.ts'), 'export const extra = 1;\n');
    expect(build(root).status).toBe(0);
    expect(existsSync(join(root, 'dist', 'cli', 'extra.js'))).toBe(true);
    unlinkSync(join(root, 'src', 'cli', 'extra.ts'));
    builtAMinuteAgo(root);
    const result = build(root, '--if-stale');
    expect(result.stderr).toContain('building dist/: src/cli changed after dist/ was built');
    expect(existsSync(join(root, 'dist', 'cli', 'extra.js'))).toBe(false);
  }, 60_000);

  it('with --if-stale, builds a dist/ without a build stamp (built some other way)', () => {
    const root = project();
    expect(build(root).status).toBe(0);
    unlinkSync(join(root, 'dist', '.build-stamp'));
    expect(build(root, '--if-stale').stderr).toContain('building dist/: dist/ has no build stamp');
  }, 60_000);

  it('leaves dist/ as it was when the build fails, and says so', () => {
    const root = project();
    expect(build(root).status).toBe(0);
    writeFileSync(join(root, 'src', 'answer.ts'), 'export const answer: string = 2;\n');
    const result = build(root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('error TS2322');
    expect(result.stderr).toContain('analytics-sim build: tsc failed; dist/ is left as it was.');
    expect(runBuilt(root)).toBe('first');
    expect(leftovers(root)).toEqual([]);
  }, 60_000);
});
