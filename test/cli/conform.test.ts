import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, createSimulatorFetch, type Profile, type Simulator } from '../../src/index.js';
import { HELP, parseCommand } from '../../src/cli/args.js';
import { conformCommand } from '../../src/cli/conform/command.js';
import type { ConformDeps } from '../../src/cli/conform/client.js';
import { CONFORM_HELP, type ConformOptions } from '../../src/cli/conform/options.js';
import { renderJson, renderTable } from '../../src/cli/conform/render.js';
import { CONFORM_GROUPS, type CheckResult, type ConformGroup, type ConformReport } from '../../src/cli/conform/report.js';
import { ConformAbort, runConformance } from '../../src/cli/conform/run.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { QUERY_TYPES } from '../../src/sim/query/registry.js';
import { runCli } from '../helpers/cli.js';
import { secretOf } from '../helpers/sim.js';

/*
 * Other query types are being converted to their live rows while this is written, so these
 * tests assert the catalogue, auth, errors and limits groups, and the shapes of three stable
 * types only (country, summary_metrics, top_pages): never the shape of every type.
 */

const TARGET = 'http://analytics.test';

/** Deps over a simulator in process: its fetch, and waits that advance its virtual clock. */
function depsOf(sim: Simulator): ConformDeps {
  return {
    fetch: createSimulatorFetch(sim, { baseUrl: TARGET }),
    sleep: async (ms) => {
      sim.clock.advance(ms);
    },
    now: () => sim.clock.now(),
  };
}

function optionsFor(sim: Simulator, overrides: Partial<ConformOptions> = {}, keyId = 'key_acme_all'): ConformOptions {
  return {
    target: TARGET,
    key: secretOf(sim, keyId),
    website: 'web_acme_store',
    link: 'link_acme_launch',
    schedule: 'mon_acme_store',
    json: false,
    groups: ['catalogue', 'auth', 'limits', 'errors'],
    ...overrides,
  };
}

async function conform(profile: Profile, overrides: Partial<ConformOptions> = {}, keyId?: string): Promise<ConformReport> {
  const sim = createSimulator({ seed: 42, profile });
  return runConformance(optionsFor(sim, overrides, keyId), depsOf(sim));
}

const row = (report: ConformReport, group: ConformGroup, check: string): CheckResult => {
  const found = report.checks.find((c) => c.group === group && c.check === check);
  if (!found) throw new Error(`no ${group} check '${check}' in ${report.checks.map((c) => c.check).join(', ')}`);
  return found;
};

const tally = (report: ConformReport, group: ConformGroup) => report.summary.byGroup[group];

describe('analytics-sim conform against a simulator in process', () => {
  it('finds that a live-profile simulator matches the live catalogue, auth and errors contract in every check', async () => {
    const report = await conform('live');
    expect(tally(report, 'catalogue')).toEqual({ checks: 9, passed: 9, failed: 0, skipped: 0 });
    expect(tally(report, 'auth')).toEqual({ checks: 5, passed: 5, failed: 0, skipped: 0 });
    expect(tally(report, 'errors')).toEqual({ checks: 5, passed: 5, failed: 0, skipped: 0 });
    // key_acme_all has no per-key quota and the run stays under the limits: two checks have nothing to judge.
    expect(tally(report, 'limits')).toEqual({ checks: 4, passed: 2, failed: 0, skipped: 2 });
    expect(report.summary).toMatchObject({ checks: 23, passed: 21, failed: 0, skipped: 2 });
    expect(row(report, 'catalogue', 'types lists the live types').observed).toBe(`${QUERY_TYPES.length} types`);
    expect(row(report, 'auth', 'no key: WWW-Authenticate').observed).toMatch(/^Bearer resource_metadata=/);
  });

  it('reports the /types differences of the default spec profile and passes everything else', async () => {
    const report = await conform('spec');
    expect(tally(report, 'catalogue')).toEqual({ checks: 9, passed: 4, failed: 5, skipped: 0 });
    const failed = report.checks.filter((c) => c.result === 'fail').map((c) => c.check);
    expect(failed).toEqual(['configs.customizable', 'configs.defaultLimit', 'configs.publicAccess', 'meta shape (include_meta=true)', 'meta content']);
    expect(row(report, 'catalogue', 'meta shape (include_meta=true)').observed).toMatch(/^155 of 155 differ/);
    // The spec profile serves the older, broader public list.
    expect(row(report, 'catalogue', 'configs.publicAccess').details?.length).toBe(QUERY_TYPES.filter((t) => t.olderPublicAccess !== t.publicAccess).length);
    expect(tally(report, 'auth')).toMatchObject({ passed: 5, failed: 0 });
    expect(tally(report, 'errors')).toMatchObject({ passed: 5, failed: 0 });
    expect(report.summary).toMatchObject({ checks: 23, passed: 16, failed: 5, skipped: 2 });
  });

  it('reports the summary_metrics and top_pages row shapes as differences under spec, passes them under live, and passes country under both', async () => {
    const types = ['summary_metrics', 'top_pages', 'country'];
    const spec = await conform('spec', { groups: ['shapes'], types });
    const live = await conform('live', { groups: ['shapes'], types });
    expect(row(spec, 'shapes', 'summary_metrics')).toMatchObject({ result: 'fail', observed: expect.stringMatching(/^row keys date, pageviews, visitors/) });
    expect(row(spec, 'shapes', 'top_pages')).toMatchObject({ result: 'fail', observed: expect.stringMatching(/^row keys path,/) });
    expect(row(spec, 'shapes', 'country').result).toBe('pass');
    for (const type of types) expect(row(live, 'shapes', type).result).toBe('pass');
    expect(tally(live, 'shapes')).toEqual({ checks: 3, passed: 3, failed: 0, skipped: 0 });
  });

  it('skips the types of a target whose id is not given, in one row naming the flag to pass', async () => {
    const report = await conform('live', { groups: ['shapes'], types: ['country', 'link_total_clicks', 'uptime_overview'], link: undefined, schedule: undefined });
    const skipped = report.checks.filter((c) => c.result === 'skip');
    expect(skipped.map((c) => [c.check, c.observed])).toEqual([
      ['the 1 link type', 'no --link given'],
      ['the 1 monitor type', 'no --schedule given'],
    ]);
    expect(row(report, 'shapes', 'country').result).toBe('pass');
  });

  it('waits out the Retry-After of a quota key that runs out, on the virtual clock, and reports its headers', async () => {
    const sim = createSimulator({ seed: 42, profile: 'live' });
    const deps = depsOf(sim);
    // Six requests with the key a run (the preflight, one shape, the unknown website, three errors).
    const options = optionsFor(sim, { groups: ['shapes', 'auth', 'limits', 'errors'], types: ['country'] }, 'key_acme_quota');
    await runConformance(options, deps);
    const startedAt = sim.clock.now();
    // The second run goes past the key's 10 requests a minute.
    const report = await runConformance(options, deps);
    expect(report.notes.some((n) => /answered 429 \(Retry-After: \d+\); waited \d+ s/.test(n))).toBe(true);
    expect(sim.clock.now()).toBeGreaterThan(startedAt);
    expect(row(report, 'limits', 'X-RateLimit-* on an admitted answer')).toMatchObject({ result: 'pass', observed: expect.stringMatching(/^Limit 10, Remaining \d+/) });
    expect(row(report, 'limits', 'Retry-After on a 429').result).toBe('pass');
    expect(report.summary.failed).toBe(0);
  });

  it('stops with one line saying what to do when the target does not answer', async () => {
    const refused: ConformDeps = {
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      },
      sleep: async () => {},
      now: () => 0,
    };
    const run = runConformance({ target: 'http://127.0.0.1:9', key: 'dbdy_secret_value', json: false, groups: [...CONFORM_GROUPS] }, refused);
    await expect(run).rejects.toBeInstanceOf(ConformAbort);
    await expect(run).rejects.toThrow(/^http:\/\/127\.0\.0\.1:9 does not answer \(fetch failed \(ECONNREFUSED\)\)\. Check --target/);
    await expect(run).rejects.not.toThrow(/dbdy_secret_value/);
  });

  it('never prints the key, in the table or in the JSON report', async () => {
    const sim = createSimulator({ seed: 42, profile: 'spec' });
    const options = optionsFor(sim, { groups: ['auth', 'errors', 'limits'] });
    const report = await runConformance(options, depsOf(sim));
    const table = renderTable(report, options.key);
    expect(table).not.toContain(options.key);
    expect(table).toMatch(/^ {2}a malformed key +401 AUTH_REQUIRED +401 AUTH_REQUIRED .* ✓$/m);
    expect(table).toMatch(/^14 checks: 12 match, 0 differ, 2 skipped \(auth 5 ✓, limits 2 ✓ 2 skipped, errors 5 ✓\): everything checked matches the live service$/m);
    const json = JSON.parse(renderJson(report, options.key)) as ConformReport;
    expect(JSON.stringify(json)).not.toContain(options.key);
    expect(json.summary).toMatchObject({ checks: 14, passed: 12, failed: 0, skipped: 2 });
  });

  it('returns 1 when something differs and 0 when everything checked matches', async () => {
    for (const [profile, code] of [['spec', 1], ['live', 0]] as const) {
      const sim = createSimulator({ seed: 42, profile });
      let out = '';
      const exit = await conformCommand(optionsFor(sim, { groups: ['catalogue'], json: true }), (text) => (out += text), depsOf(sim));
      expect(exit).toBe(code);
      expect((JSON.parse(out) as ConformReport).summary.failed).toBe(code === 1 ? 5 : 0);
    }
  });
});

describe('analytics-sim conform --report', () => {
  it('writes a JUnit XML test case per check, a failure per drift with what differs, and never the key', async () => {
    const sim = createSimulator({ seed: 42, profile: 'spec' });
    const files = new Map<string, string>();
    const options = optionsFor(sim, { groups: ['catalogue', 'errors'], reports: [{ format: 'junit', file: 'conform.xml' }, { format: 'json', file: 'conform.json' }] });
    const exit = await conformCommand(options, () => undefined, depsOf(sim), (path, text) => files.set(path, text));
    expect(exit).toBe(1);
    const report = JSON.parse(files.get('conform.json') ?? '') as ConformReport;
    const junit = files.get('conform.xml') ?? '';
    expect(junit.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="analytics-sim conform http://analytics.test"')).toBe(true);
    expect(junit).toContain(`tests="${report.summary.checks}" failures="${report.summary.failed}" skipped="${report.summary.skipped}"`);
    expect(junit.match(/<testcase /g)).toHaveLength(report.summary.checks);
    expect(junit.match(/<failure /g)).toHaveLength(report.summary.failed);
    expect(junit.match(/<testsuite /g)).toHaveLength(2);
    const drift = report.checks.find((c) => c.result === 'fail');
    expect(junit).toContain(`<testcase classname="conform.${drift?.group}" name="${drift?.check.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')}">`);
    expect(junit).not.toContain(options.key);
    expect(junit.endsWith('</testsuites>\n')).toBe(true);
  });

  it('says which file it could not write, as a usage error', async () => {
    const sim = createSimulator({ seed: 42, profile: 'live' });
    const options = optionsFor(sim, { groups: ['errors'], reports: [{ format: 'junit', file: 'missing/conform.xml' }] });
    await expect(
      conformCommand(options, () => undefined, depsOf(sim), () => {
        throw new Error('ENOENT: no such file or directory');
      }),
    ).rejects.toThrow(/^could not write the junit report to missing\/conform\.xml: ENOENT: no such file or directory\. Check that its folder exists and is writable\.$/);
  });

  it('parses --report FORMAT FILE (repeatable, or --report=FORMAT FILE) and --fail-on-drift', () => {
    const command = parseCommand(['conform', '--target', 'http://x.test', '--key', 'k', '--report', 'junit', 'out.xml', '--report=json', 'out.json', '--fail-on-drift']);
    expect(command).toMatchObject({ kind: 'conform', options: { reports: [{ format: 'junit', file: 'out.xml' }, { format: 'json', file: 'out.json' }] } });
  });

  it.each([
    [['--report', 'xml', 'out.xml'], "--report takes a format, junit or json, then a file (got 'xml')."],
    [['--report', 'junit'], '--report junit needs a file to write, e.g. --report junit conform.xml.'],
    [['--report', 'junit', '--json'], '--report junit needs a file to write, e.g. --report junit conform.xml.'],
  ])('refuses %j, naming what --report takes', (argv, message) => {
    const command = parseCommand(['conform', '--target', 'http://x.test', '--key', 'k', ...argv]);
    expect(command.kind === 'error' && command.message).toContain(message);
  });
});

describe('analytics-sim conform on the command line', () => {
  it('parses its flags, with --only and --type repeatable or comma-separated', () => {
    expect(parseCommand(['conform', '--target', 'http://127.0.0.1:8787/', '--key', 'k', '--website', 'w', '--only', 'errors,auth', '--type', 'country', '--json'])).toEqual({
      kind: 'conform',
      options: { target: 'http://127.0.0.1:8787', key: 'k', website: 'w', json: true, groups: ['auth', 'errors'], types: ['country'] },
    });
  });

  it.each([
    [['--key', 'k'], /conform needs --target <url>/],
    [['--target', 'http://x.test'], /conform needs --key <key>/],
    [['--target', 'ftp://x.test', '--key', 'k'], /--target must be an http\(s\) URL/],
    [['--target', 'http://x.test', '--key', 'k', '--webiste', 'w'], /^unknown option '--webiste'\. Did you mean --website\? Try 'analytics-sim conform --help'\.$/],
    [['--target', 'http://x.test', '--key', 'k', '--only', 'shape'], /--only: unknown group 'shape'\. Did you mean shapes\?/],
    [['--target', 'http://x.test', '--key', 'k', '--type', 'contry'], /--type: 'contry' is not a live query type\. Did you mean country\?/],
  ])('refuses %j with a usage message', (argv, message) => {
    const command = parseCommand(['conform', ...argv]);
    expect(command.kind).toBe('error');
    expect(command.kind === 'error' && command.message).toMatch(message);
  });

  it('has its own --help, and the top-level help lists the command and its flags', () => {
    expect(parseCommand(['conform', '--help'])).toEqual({ kind: 'help', topic: 'conform' });
    for (const group of CONFORM_GROUPS) expect(CONFORM_HELP).toContain(group);
    for (const flag of ['conform --target', '--key', '--website', '--link', '--schedule', '--only', '--json']) expect(HELP).toContain(flag);
    expect(parseCommand(['confrom'])).toEqual({ kind: 'error', message: "Unknown command 'confrom'. Did you mean conform? Try 'analytics-sim --help'." });
  });
});

describe('analytics-sim conform as a process', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('checks a simulator served on port 0, prints the table without the key and exits 0', async () => {
    const sim = createSimulator({ seed: 42, profile: 'live' });
    server = await startServer(sim, { port: 0 });
    const key = secretOf(sim, 'key_acme_all');
    const result = await runCli(['conform', '--target', server.url, '--key', key, '--website', 'web_acme_store', '--only', 'errors,auth'], { guardMs: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('an unknown type (summry_metrics)');
    expect(result.stdout).toMatch(/10 checks: 10 match, 0 differ, 0 skipped/);
    expect(result.stdout).not.toContain(key);
  }, 40_000);

  it('exits 1 with --fail-on-drift against a simulator of the other profile, and writes the JUnit report', async () => {
    const sim = createSimulator({ seed: 42, profile: 'spec' });
    server = await startServer(sim, { port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'conform-'));
    const file = join(dir, 'conform.xml');
    const key = secretOf(sim, 'key_acme_all');
    const result = await runCli(['conform', '--target', server.url, '--key', key, '--only', 'catalogue', '--fail-on-drift', '--report', 'junit', file], { guardMs: 30_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/5 differ from the live service/);
    const junit = readFileSync(file, 'utf8');
    expect(junit.match(/<failure /g)).toHaveLength(5);
    expect(junit).not.toContain(key);
    rmSync(dir, { recursive: true, force: true });
  }, 40_000);

  it('exits 2 with one line and no stack when the target does not answer', async () => {
    const result = await runCli(['conform', '--target', 'http://127.0.0.1:9', '--key', 'dbdy_not_printed'], { guardMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^analytics-sim: http:\/\/127\.0\.0\.1:9 does not answer .*Check --target.*\n$/);
    expect(result.stderr).not.toContain('dbdy_not_printed');
    expect(result.stderr.split('\n')).toHaveLength(2);
  }, 40_000);
});
