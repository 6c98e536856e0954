import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.js';
import { fetchAnswer } from '../helpers/wire.js';

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
const KEY_IN_BANNER = /x-api-key: (dbdy_[A-Za-z0-9]{48})/;

let dir: string;
const running: CliProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'analytics-sim-scenarios-'));
});

afterAll(async () => {
  for (const cli of running.splice(0)) {
    cli.kill();
    await cli.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

function start(args: readonly string[]): CliProcess {
  const cli = startCli(args);
  running.push(cli);
  return cli;
}

/** Writes `content` (JSON unless a string) to a file in the temp dir and returns its path. */
async function scenarioFile(name: string, content: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** Stops a server started by a test; resolves with its exit code. */
async function stop(cli: CliProcess): Promise<number | null> {
  cli.child.kill('SIGTERM');
  return (await cli.exited).code;
}

describe.concurrent('analytics-sim serve --scenario', () => {
  it('starts with a built-in, lists it in the banner and on /__sim/scenarios, and runs it on the virtual clock', async ({ expect }) => {
    const cli = start(['serve', '--port', '0', '--clock', 'virtual', '--scenario', 'outage-window']);
    const [, url] = (await cli.waitForStdout(LISTENING)) as [string, string];
    await cli.waitForStdout(/^ {2}scenarios: outage-window$/m);
    const [, key] = (await cli.waitForStdout(KEY_IN_BANNER)) as [string, string];

    const listing = await fetchAnswer(`${url}/__sim/scenarios`);
    expect(listing.json.active).toHaveLength(1);
    expect(listing.json.active[0]).toMatchObject({ name: 'outage-window', startedAt: Date.UTC(2025, 5, 2, 12) });

    const headers = { 'x-api-key': key };
    expect((await fetchAnswer(`${url}/v1/query/websites`, { headers })).status).toBe(200);
    const advanced = await fetchAnswer(`${url}/__sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 30_000 }),
    });
    expect(advanced.status).toBe(200);
    const outage = await fetchAnswer(`${url}/v1/query/websites`, { headers });
    expect(outage.status).toBe(503);
    expect(outage.headers['retry-after']).toBe('5');
    expect(outage.json.code).toBe('SERVICE_UNAVAILABLE');
    expect(await stop(cli)).toBe(0);
  });

  it('starts a valid custom scenario from a JSON file and lists it as active', async ({ expect }) => {
    const file = await scenarioFile('custom.json', {
      name: 'custom-slow-compile',
      description: 'compile takes 2 s',
      steps: [{ name: 'slow compile', start: '5s', duration: '1m', match: { route: '/v1/query/compile' }, effect: { type: 'latency', delay: { distribution: 'fixed', ms: 2000 } } }],
    });
    const cli = start(['serve', '--port', '0', '--clock', 'virtual', '--scenario', file, '--scenario', 'steady']);
    const [, url] = (await cli.waitForStdout(LISTENING)) as [string, string];
    await cli.waitForStdout(/^ {2}scenarios: custom-slow-compile, steady$/m);
    const listing = await fetchAnswer(`${url}/__sim/scenarios`);
    expect(listing.json.active.map((s: { name: string }) => s.name)).toEqual(['custom-slow-compile', 'steady']);
    const custom = listing.json.active[0];
    expect(custom.description).toBe('compile takes 2 s');
    const startedAt = Date.UTC(2025, 5, 2, 12);
    expect(custom.steps).toEqual([
      {
        name: 'slow compile',
        start: 5000,
        duration: 60_000,
        match: { route: '/v1/query/compile', probability: 1 },
        effect: { type: 'latency', delay: { distribution: 'fixed', ms: 2000 } },
        from: startedAt + 5000,
        until: startedAt + 65_000,
        state: 'pending',
      },
    ]);
    expect(cli.stderr()).toBe('');
    expect(await stop(cli)).toBe(0);
  });

  const invalid: [string, unknown, RegExp][] = [
    [
      'a negative latency',
      { name: 'bad-latency', steps: [{ effect: { type: 'latency', delay: { distribution: 'fixed', ms: -5 } } }] },
      /steps\.0\.effect\.delay\.ms: .*>=\s?0/,
    ],
    ['an unknown effect type', { name: 'bad-type', steps: [{ effect: { type: 'explode' } }] }, /steps\.0\.effect\.type: .*rate_limit/],
    ['missing steps', { name: 'no-steps' }, /steps: .*expected array/],
    ['an unknown field in a match', { name: 'typo', steps: [{ match: { rout: '/v1/*' }, effect: { type: 'outage' } }] }, /steps\.0\.match: .*rout/],
  ];
  for (const [what, content, field] of invalid) {
    it(`exits with status 2 naming the file and the field for a scenario file with ${what}, without listening`, async ({ expect }) => {
      const file = await scenarioFile(`${what.replace(/\W+/g, '-')}.json`, content);
      const result = await runCli(['serve', '--port', '0', '--clock', 'virtual', '--scenario', file]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`analytics-sim: invalid scenario in ${file}: `);
      expect(result.stderr).toMatch(field);
      expect(result.stdout).not.toMatch(/listening/);
    });
  }

  it('names the entry of a list file that is invalid', async ({ expect }) => {
    const file = await scenarioFile('list.json', [
      { name: 'fine', steps: [{ effect: { type: 'outage' } }] },
      { name: 'Not A Name', steps: [{ effect: { type: 'outage' } }] },
    ]);
    const result = await runCli(['serve', '--port', '0', '--scenario', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`invalid scenario in ${file} [1]: name: `);
    expect(result.stdout).not.toMatch(/listening/);
  });

  it('exits with status 2 for a file that is not JSON', async ({ expect }) => {
    const broken = await scenarioFile('broken.json', '{ "name": ');
    const notJson = await runCli(['serve', '--port', '0', '--scenario', broken]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(`scenario file ${broken} is not valid JSON`);
    expect(notJson.stdout).not.toMatch(/listening/);
  });

  it('exits with status 2 and a Did-you-mean for a near miss of a built-in name', async ({ expect }) => {
    const result = await runCli(['serve', '--port', '0', '--scenario', 'rate-limit-stom']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown scenario 'rate-limit-stom'. Did you mean 'rate-limit-storm'?");
    expect(result.stderr).toContain('steady, rate-limit-storm, outage-window, flaky-5xx, slow-tail, concurrency-squeeze, brownout, quota-crunch');
    expect(result.stdout).not.toMatch(/listening/);
  });
});
