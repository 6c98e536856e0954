// @ts-check
/**
 * The second step of `npm run build`: after tsc has emitted dist/, the command's entry
 * (dist/cli/main.js) is replaced by a bundle of it and everything it imports (the core, the
 * fixtures, zod, seedrandom, @noble/hashes). Node then reads and links a module and the one chunk
 * it imports instead of some 260, which is most of the command's start-up time (about 250 ms down
 * to about 150 ms on Node 20). What the command imports only on demand is not in what a start
 * parses: the Redis store and ioredis are split into chunks under dist/cli/chunks/, prom-client
 * and OpenTelemetry are left to node_modules, and zod's translations are left out
 * (tools/zod-english-only.mjs): 1.8 MB instead of 2.8 MB. Same code as tsc emitted, not
 * minified.
 */
import { build } from 'esbuild';
import { basename, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { zodEnglishOnly } from './zod-english-only.mjs';

// The test suite bundles the source itself (`--entry src/cli/main.ts --outfile
// .test-dist/cli/main.js`, test/global-setup.ts): its CLI tests then start in a few hundred ms
// instead of the seconds of transpiling on the fly, and still run the code as it stands.
const { values } = parseArgs({
  options: {
    entry: { type: 'string', default: 'dist/cli/main.js' },
    outfile: { type: 'string', default: 'dist/cli/main.js' },
  },
});

await build({
  entryPoints: { [basename(values.outfile, '.js')]: values.entry },
  outdir: dirname(values.outfile),
  allowOverwrite: true,
  bundle: true,
  // What a command loads only on demand (the Redis store and its client, Prometheus' client) is
  // split into chunks beside it, imported when first used: every start parses only the rest.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [zodEnglishOnly],
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // No keepNames: it wraps every function expression in a __name() call, run each time a
  // closure is made (per request on the hot path). Nothing reads Function#name; stack traces
  // map back to src/ through the source map.
  // Composes tsc's map, so stack traces of `node --enable-source-maps` point at src/.
  sourcemap: true,
  // A bundled CommonJS dependency (seedrandom) calls `require`; give it node's.
  // The OpenTelemetry SDK loads only under --otlp-endpoint (src/http/otlp-spans.ts): left to
  // node_modules, it adds nothing to the bundle every start reads.
  // prom-client (GET /__sim/metrics) likewise: a CommonJS package imported on demand would be a
  // chunk with only a default export, where node's own loader gives its named ones.
  external: ['@opentelemetry/*', 'prom-client'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
