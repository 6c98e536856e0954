import { existsSync } from 'node:fs';

/**
 * Debian's Chromium, driven by playwright-core (never a downloaded browser). Without it the
 * browser tests are skipped with a printed reason, except under CI, where they fail.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const IN_CI = Boolean(process.env.CI);
/** Skip the suite: no Chromium, and not in CI. */
export const SKIP_BROWSER = !HAVE_CHROMIUM && !IN_CI;

/** The flags that work on this project's machines (reference/toolchain.md). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (SKIP_BROWSER) {
  console.warn(`[browser tests skipped] no Chromium at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium (or set CHROMIUM_PATH)`);
}

/** Throws in CI when Chromium is missing, so that the suite fails instead of passing empty. */
export function requireChromium(): void {
  if (!HAVE_CHROMIUM) throw new Error(`Chromium is required in CI but missing at ${CHROMIUM}; .ci/run installs it with apt-get.`);
}
