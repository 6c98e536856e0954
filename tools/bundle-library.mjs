// @ts-check
/**
 * The third step of `npm run build`: the library's entries (the package's `exports`:
 * dist/index.js, dist/http/express-app.js, dist/msw/index.js, dist/msw/browser.js,
 * dist/store/redis-store.js) are replaced by bundles of tsc's output, the code two entries share
 * in chunks under dist/chunks/ (one copy of each module, whichever entries a program imports).
 * Node then reads and links a handful of modules instead of some 290, which is most of what
 * `import 'analytics-sim'` costs (about 230 ms down to about 120 ms on Node 20). The packages the
 * library depends on (zod, express, msw, ioredis, prom-client, …) stay imports, resolved by the
 * user's node_modules. tsc's other .js files (and their maps) are then removed: nothing imports
 * them; the .d.ts files stay.
 */
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { dist: { type: 'string', default: 'dist' } } });
const dist = resolve(values.dist ?? 'dist');

/** The entries of package.json's `exports`, relative to dist/. The command (cli/main.js) is bundled on its own. */
const ENTRIES = ['index.js', 'http/express-app.js', 'msw/index.js', 'msw/browser.js', 'store/redis-store.js'];

const result = await build({
  entryPoints: ENTRIES.map((entry) => join(dist, entry)),
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // As the command's bundle: no keepNames (a __name() call per closure made), tsc's maps composed.
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});

const written = new Set(Object.keys(result.metafile.outputs).map((path) => resolve(path)));
const keep = (/** @type {string} */ path) => written.has(path) || written.has(path.replace(/\.map$/, '')) || relative(dist, path).startsWith('cli/main.js');
/** @param {string} dir */
const prune = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) prune(path);
    else if (/\.js(\.map)?$/.test(entry.name) && !keep(path)) rmSync(path);
  }
};
prune(dist);
