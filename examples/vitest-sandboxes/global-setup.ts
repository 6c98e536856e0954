import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of the one analytics-sim server of the run, e.g. http://127.0.0.1:41234. */
    simUrl: string;
  }
}

/** The installed CLI (node_modules/analytics-sim/dist/cli/main.js); ANALYTICS_SIM_CLI names another build. */
function cliPath(): string {
  if (process.env.ANALYTICS_SIM_CLI) return process.env.ANALYTICS_SIM_CLI;
  return join(dirname(createRequire(import.meta.url).resolve('analytics-sim/package.json')), 'dist/cli/main.js');
}

/**
 * Starts one analytics-sim server on a free port with a virtual clock, hands its URL to every
 * worker (`inject('simUrl')`), and stops it after the run.
 */
export default async function startSimulator(project: TestProject): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn(process.execPath, [cliPath(), 'serve', '--port', '0', '--now', '2025-06-02T12:00:00Z'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`analytics-sim exited (${code}) before listening:\n${out}`)));
  });
  project.provide('simUrl', url);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
}
