#!/usr/bin/env node
/**
 * `npm run k6:install`: builds k6 from source with the machine's Go toolchain
 * (`go install go.k6.io/k6@<K6_VERSION>`, modules from the Go module proxy) into
 * `.tools/bin/k6` (git-ignored). Does nothing when `.tools/bin/k6 version` already prints the
 * pinned version. No prebuilt binary is downloaded.
 *
 * K6_VERSION is the newest k6 release the Go module proxy serves (`go list -m -versions
 * go.k6.io/k6`; there is no go.k6.io/k6/v2 yet, and from v2 on the module path carries the major
 * version, which `modulePath` adds). Exit status 1 with a one-line message when Go is missing or
 * the build fails.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned k6 release. */
export const K6_VERSION = 'v1.8.1';

/** The project's root (this file is in tools/). */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the build lands: `.tools/bin/k6` under the project (git-ignored). */
export const K6_BIN = join(PROJECT_ROOT, '.tools', 'bin', 'k6');

/**
 * The Go module path of a k6 version: `go.k6.io/k6` up to v1, `go.k6.io/k6/vN` from v2 on.
 * @param {string} version such as `v1.8.1`
 * @returns {string}
 */
export function modulePath(version) {
  const major = Number(/^v(\d+)\./.exec(version)?.[1] ?? '0');
  return major >= 2 ? `go.k6.io/k6/v${major}` : 'go.k6.io/k6';
}

/**
 * The version `.tools/bin/k6 version` prints (`v1.8.1`), or undefined when it is not there or does not run.
 * @returns {string | undefined}
 */
export function installedVersion() {
  if (!existsSync(K6_BIN)) return undefined;
  const out = spawnSync(K6_BIN, ['version'], { encoding: 'utf8' });
  if (out.status !== 0) return undefined;
  return /k6 (v\d+\.\d+\.\d+\S*)/.exec(out.stdout)?.[1];
}

/**
 * Builds the pinned k6 unless it is already there. Returns what happened; throws an Error whose
 * message is one line saying what to do.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {{ built: boolean, version: string, seconds: number, bin: string }}
 */
export function installK6(options = {}) {
  const log = options.log ?? (() => undefined);
  if (installedVersion() === K6_VERSION) return { built: false, version: K6_VERSION, seconds: 0, bin: K6_BIN };
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.error || go.status !== 0) {
    throw new Error('k6 is built from source with Go, and `go` is not on PATH: install Go 1.25 or newer (https://go.dev/doc/install, or apt-get install golang-go) and run `npm run k6:install` again.');
  }
  mkdirSync(dirname(K6_BIN), { recursive: true });
  const target = `${modulePath(K6_VERSION)}@${K6_VERSION}`;
  log(`building k6 ${K6_VERSION} with ${go.stdout.trim()}: go install ${target} (a few minutes the first time)`);
  const began = Date.now();
  const build = spawnSync('go', ['install', target], {
    env: { ...process.env, GOBIN: dirname(K6_BIN), CGO_ENABLED: process.env.CGO_ENABLED ?? '0' },
    encoding: 'utf8',
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  const seconds = Math.round((Date.now() - began) / 1000);
  if (build.status !== 0) {
    const last = (build.stderr ?? '').trim().split('\n').filter(Boolean).pop() ?? `exit status ${build.status}`;
    throw new Error(`go install ${target} failed (${last}): check that the Go module proxy (go env GOPROXY) answers and that Go is 1.25 or newer, then run \`npm run k6:install\` again.`);
  }
  const version = installedVersion();
  if (version !== K6_VERSION) throw new Error(`the k6 built into ${K6_BIN} reports ${version ?? 'no version'}, not ${K6_VERSION}: delete .tools/ and run \`npm run k6:install\` again.`);
  return { built: true, version, seconds, bin: K6_BIN };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const result = installK6({ log: (line) => process.stderr.write(`${line}\n`) });
    process.stdout.write(result.built ? `k6 ${result.version} built in ${result.seconds} s: .tools/bin/k6\n` : `k6 ${result.version} is already built: .tools/bin/k6\n`);
  } catch (error) {
    process.stderr.write(`k6:install: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
