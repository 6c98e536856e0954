import type { ConformDeps } from './client.js';
import { writeFileSync } from 'node:fs';
import { renderJunit } from './junit-report.js';
import type { ConformOptions } from './options.js';
import { renderJson, renderTable } from './render.js';
import { exitCodeOf } from './report.js';
import { ConformAbort, runConformance } from './run.js';

/** How long one request may take before the target counts as not answering. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The network, real time and real waits: what `analytics-sim conform` runs with. */
export function processDeps(): ConformDeps {
  return {
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => Date.now(),
  };
}

/**
 * `analytics-sim conform`: runs the checks, writes the table (or the JSON report) and returns
 * the exit status: 0 when everything checked matches, 1 when something differs. A run that
 * cannot start throws `ConformAbort` (a usage error: exit 2).
 */
export async function conformCommand(options: ConformOptions, write: (text: string) => void, deps: ConformDeps = processDeps(), writeFile: (path: string, text: string) => void = writeFileSync): Promise<0 | 1> {
  const report = await runConformance(options, deps);
  write(options.json ? renderJson(report, options.key) : renderTable(report, options.key));
  for (const { format, file } of options.reports ?? []) {
    try {
      writeFile(file, format === 'junit' ? renderJunit(report, options.key) : renderJson(report, options.key));
    } catch (error) {
      throw new ConformAbort(`could not write the ${format} report to ${file}: ${(error as Error).message}. Check that its folder exists and is writable.`);
    }
  }
  return exitCodeOf(report);
}

