// @ts-check
/**
 * `npm run build`: tsc (tsconfig.build.json), then the command bundled into one file
 * (tools/bundle-cli.mjs) and the library's entries into a few (tools/bundle-library.mjs), into a new folder beside dist/ (`.dist-next-<pid>`), which then takes
 * dist/'s place by rename. dist/ is never missing or half-written while a build runs, and a
 * failed build leaves it as it was: a server started from it (`npm start`) keeps running and can
 * be started again.
 *
 * `--if-stale` (the load, bench, soak and schemathesis scripts) builds only when an input is
 * newer than the last build: a file or folder under src/ (a folder's time changes when a file
 * in it is added, removed or renamed), the tsconfig files, package.json, package-lock.json or
 * the build scripts. The last build is the time it started, kept as the time of
 * dist/.build-stamp; a dist/ without it (built by hand, or by an older build) counts as stale.
 *
 * `--root <dir>` builds another checkout (the tests build a small project with it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'if-stale': { type: 'boolean', default: false },
    root: { type: 'string', default: '.' },
  },
});
const root = resolve(values.root ?? '.');
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');

/** What a build reads, besides src/. */
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'tools/build.mjs', 'tools/bundle-cli.mjs', 'tools/bundle-library.mjs', 'tools/zod-english-only.mjs'];

/** The newest input: its path and time (ms), or null when there is none. */
function newestInput() {
  /** @type {{ path: string; ms: number } | null} */
  let newest = null;
  /** @param {string} path */
  const consider = (path) => {
    const ms = statSync(path).mtimeMs;
    if (newest === null || ms > newest.ms) newest = { path, ms };
  };
  /** @param {string} dir */
  const walk = (dir) => {
    consider(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else consider(path);
    }
  };
  walk(join(root, 'src'));
  for (const file of INPUT_FILES) if (existsSync(join(root, file))) consider(join(root, file));
  return newest;
}

/** Why dist/ must be built again, or null when it is current. */
function staleness() {
  if (!existsSync(stamp)) return existsSync(dist) ? 'dist/ has no build stamp (built by hand or by an older build)' : 'there is no dist/';
  const builtMs = statSync(stamp).mtimeMs;
  const newest = newestInput();
  if (newest !== null && newest.ms > builtMs) return `${relative(root, newest.path)} changed after dist/ was built`;
  return null;
}

/** Runs a node script; exits with its status when it fails. */
function run(/** @type {string[]} */ args, /** @type {string} */ what) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${what} failed${result.status === null ? ` (${result.signal})` : ''}; dist/ is left as it was.`);
}

if (values['if-stale']) {
  const why = staleness();
  if (why === null) {
    process.stderr.write('dist/ is current (built after the last change to src/): not rebuilding. `npm run build` rebuilds anyway.\n');
    process.exit(0);
  }
  process.stderr.write(`building dist/: ${why}\n`);
}

const startedMs = Date.now();
const next = join(root, `.dist-next-${process.pid}`);
const old = join(root, `.dist-old-${process.pid}`);
rmSync(next, { recursive: true, force: true });
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // Same depth as dist/, so the source maps' relative paths to src/ are the same.
  run([tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', next], 'tsc');
  const main = join(next, 'cli', 'main.js');
  run([join(here, 'bundle-cli.mjs'), '--entry', main, '--outfile', main], 'bundling the command');
  // After the command's bundle, which reads tsc's files that this one removes.
  run([join(here, 'bundle-library.mjs'), '--dist', next], 'bundling the library');
  writeFileSync(join(next, '.build-stamp'), '');
  // The stamp says when the build read its inputs: a file changed during the build makes the next one rebuild.
  utimesSync(join(next, '.build-stamp'), startedMs / 1000, startedMs / 1000);
  // The swap: two renames, dist/ missing only between them. A running server keeps the files it has open.
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  process.stderr.write(`analytics-sim build: ${/** @type {Error} */ (error).message}\n`);
  process.exit(1);
}
