// @ts-check
/**
 * An esbuild plugin for the bundles of tools/bundle-cli.mjs and tools/bundle-library.mjs: zod's
 * `locales` namespace (`z.locales`, some forty translations of its error messages, about 8,000
 * lines) is replaced by English alone. Nothing here configures another locale, and zod's default
 * messages come from its English module, imported apart; parsing the others cost every start and
 * every import of the library a few milliseconds.
 */

/** The module that stands in for zod's `locales/index.js`: the same `en` export, nothing else. */
const ENGLISH_ONLY = 'export { default as en } from "./en.js";\n';

/** @type {import('esbuild').Plugin} */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: ENGLISH_ONLY, loader: 'js' }));
  },
};
