import { execFileSync } from 'node:child_process';
import { CLI_ENTRY, REPO_ROOT } from './helpers/cli.js';

/**
 * Before any test file: bundles the CLI from the source as it stands into {@link CLI_ENTRY}
 * (tools/bundle-cli.mjs, the build's own bundling, about a second), so the tests that start
 * the command spend a few hundred ms on it, not the seconds of transpiling 300 files each time.
 */
export default function bundleCliFromSource(): void {
  execFileSync(process.execPath, ['tools/bundle-cli.mjs', '--entry', 'src/cli/main.ts', '--outfile', CLI_ENTRY], { cwd: REPO_ROOT, stdio: 'inherit' });
}
