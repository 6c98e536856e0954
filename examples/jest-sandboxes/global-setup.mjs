// Starts one analytics-sim server on a free port with a virtual clock before the workers start;
// they find its URL in ANALYTICS_SIM_URL. ANALYTICS_SIM_CLI names another build of the CLI.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export default async function startSimulator() {
  const cli = process.env.ANALYTICS_SIM_CLI ?? join(dirname(createRequire(import.meta.url).resolve('analytics-sim/package.json')), 'dist/cli/main.js');
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--now', '2025-06-02T12:00:00Z'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`analytics-sim exited (${code}) before listening:\n${out}`)));
  });
  process.env.ANALYTICS_SIM_URL = url; // the workers inherit it
  globalThis.__analyticsSim = child; // for global-teardown.mjs (same process)
}
