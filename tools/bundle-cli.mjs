// @ts-check
/**
 * The second step of `npm run build`: after tsc has emitted dist/, the command's entry
 * (dist/cli/main.js) is replaced by one ESM file holding it and everything it imports (the
 * core, the fixtures, zod, seedrandom, @noble/hashes). Node then reads and links one module
 * instead of some 260, which is most of the command's start-up time (about 250 ms down to about
 * 150 ms on Node 20). Same code as tsc emitted, not minified; the library entries
 * (dist/index.js, dist/http, dist/msw) stay tsc's output.
 */
import { build } from 'esbuild';
import { parseArgs } from 'node:util';

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
  entryPoints: [values.entry],
  outfile: values.outfile,
  allowOverwrite: true,
  bundle: true,
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
  external: ['@opentelemetry/*'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
