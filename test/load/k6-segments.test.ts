import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runK6Plan, STATUSES, type K6Report } from '../../load/k6-runner.js';
import { startServer, type Server } from '../../load/runner.js';
import { CLI_FROM_SOURCE, REPO_ROOT } from '../helpers/cli.js';

const run = promisify(execFile);

/**
 * Builds k6 with `npm run k6:install`'s script (cached in .tools/: a no-op once built). Without
 * Go it fails with the script's one-line message; it is never skipped.
 */
async function buildK6(): Promise<void> {
  try {
    await run(process.execPath, ['tools/k6-install.mjs'], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(stderr.split('\n').pop() || (error as Error).message);
  }
}

describe('a k6 plan split into execution segments', () => {
  let server: Server;
  let report: K6Report;

  beforeAll(async () => {
    await buildK6();
    server = await startServer([...CLI_FROM_SOURCE]);
    report = await runK6Plan('key-quota', server.url, { duration: 3, segments: 2 });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('runs the plan as two k6 processes, each on its own segment of one sequence', () => {
    expect(report.segments.map((s) => s.segment)).toEqual(['0:1/2', '1/2:1']);
    for (const segment of report.segments) {
      expect(segment.exitCode, segment.tail.join('\n')).toBe(0);
      expect(segment.counts['200'] + segment.counts['429']).toBeGreaterThan(0);
    }
  });

  it('merges the two summaries into the counts the journal holds, status by status', () => {
    for (const status of STATUSES) {
      expect(report.k6[status]).toBe(report.segments.reduce((n, s) => n + s.counts[status], 0));
      expect(report.k6[status]).toBe(report.journal[status]);
    }
  });

  it('admits exactly the quota of 10 between both processes and refuses the rest with the key quota', () => {
    expect(report.journal['200']).toBe(10);
    expect(report.summary.refusedByRule.key_quota).toBe(report.journal['429']);
    expect(report.summary.refusedByRule.key_quota).toBeGreaterThan(0);
  });

  it('passes: every k6 threshold met, 100% accuracy, the oracle agreeing', () => {
    expect(report.problems).toEqual([]);
    expect(report.oracle.accuracy).toBe(100);
    expect(report.summary.accuracy).toBe(100);
  });
});
