// @ts-check
/**
 * The third step of `npm run build`: the library's entries (the package's `exports`:
 * dist/index.js, dist/http/express-app.js, dist/msw/index.js, dist/msw/browser.js,
 * dist/store/redis-store.js) are replaced by bundles of tsc's output, the code two entries share
 * in chunks under dist/chunks/ (one copy of each module, whichever entries a program imports).
 * Node then reads and links a handful of modules instead of some 380 (290 of tsc's, 95 of zod's),
 * which is most of what `import 'analytics-sim'` costs (about 230 ms over a bare node down to
 * about 105 ms on Node 20). zod is bundled too (below); the other packages the library depends
 * on (express, msw, ioredis, prom-client, seedrandom, …) stay imports, resolved by the user's
 * node_modules. tsc's other .js files (and their maps) are then removed: nothing imports them;
 * the .d.ts files stay. So are the .json files tsc copies beside the modules that import them
 * (the query families' catalogues): both bundles hold their contents.
 */
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { zodEnglishOnly } from './zod-english-only.mjs';

const { values } = parseArgs({ options: { dist: { type: 'string', default: 'dist' } } });
const dist = resolve(values.dist ?? 'dist');

const pkg = JSON.parse(readFileSync(resolve(dist, '..', 'package.json'), 'utf8'));
/**
 * zod is bundled: loading it from node_modules is some 95 modules, a third of what the import
 * costs. zod 4 is made to run as several copies (its registry and configuration are on
 * globalThis, `instanceof` asks the schema's traits), so the exported schemas compose with the
 * user's zod; the package still depends on zod for its declaration files.
 */
const BUNDLED = new Set(['zod']);
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].filter((name) => !BUNDLED.has(name)).flatMap((name) => [name, `${name}/*`]);

/** The entries of package.json's `exports`, relative to dist/. The command (cli/main.js) is bundled on its own. */
const ENTRIES = ['index.js', 'http/express-app.js', 'msw/index.js', 'msw/browser.js', 'store/redis-store.js'];

// A project without the library's entries (a build of the command alone) has nothing to bundle here.
const entries = ENTRIES.filter((entry) => existsSync(join(dist, entry)));
if (entries.length === 0) process.exit(0);

const result = await build({
  entryPoints: entries.map((entry) => join(dist, entry)),
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  external,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // As the command's bundle: no keepNames (a __name() call per closure made), tsc's maps composed.
  sourcemap: true,
  metafile: true,
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
});

const written = new Set(Object.keys(result.metafile.outputs).map((path) => resolve(path)));
const keep = (/** @type {string} */ path) => written.has(path) || written.has(path.replace(/\.map$/, '')) || /^cli[\\/](main\.js|chunks[\\/])/.test(relative(dist, path));
/** @param {string} dir */
const prune = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) prune(path);
    else if ((/\.js(\.map)?$/.test(entry.name) && !keep(path)) || entry.name.endsWith('.json')) rmSync(path);
  }
};
prune(dist);
