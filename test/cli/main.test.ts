import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, startCli, type CliProcess } from '../helpers/cli.js';
import { fetchAnswer } from '../helpers/wire.js';

const running: CliProcess[] = [];

function start(args: readonly string[], env?: NodeJS.ProcessEnv): CliProcess {
  const cli = startCli(args, env ? { env } : {});
  running.push(cli);
  return cli;
}

afterEach(async () => {
  for (const cli of running.splice(0)) {
    cli.kill();
    await cli.exited;
  }
});

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;

describe('analytics-sim serve', () => {
  it('prints its URL, the inspector and a curl line with a key, answers /__sim/health, and stops cleanly on SIGTERM', async () => {
    const cli = start(['serve', '--port', '0', '--clock', 'virtual']);
    const [, url, port] = await cli.waitForStdout(LISTENING);
    expect(Number(port)).toBeGreaterThan(0);
    const [curlLine] = await cli.waitForStdout(/^.*curl .*x-api-key: (dbdy_[A-Za-z0-9]{48}).*$/m);
    expect(cli.stdout()).toContain(`  inspector: ${url}/__sim/ui\n`);
    const key = /dbdy_[A-Za-z0-9]{48}/.exec(curlLine)?.[0] as string;

    const health = await fetchAnswer(`${url}/__sim/health`);
    expect(health.status).toBe(200);
    expect(health.json).toMatchObject({ ok: true, seed: '42' });
    expect(health.json.clock).toEqual({ mode: 'virtual', now: Date.UTC(2025, 5, 2, 12), iso: '2025-06-02T12:00:00.000Z' });

    const websites = await fetchAnswer(`${url}/v1/query/websites`, { headers: { 'x-api-key': key } });
    expect(websites.status).toBe(200);
    expect(websites.json.total).toBeGreaterThan(0);

    cli.child.kill('SIGTERM');
    const exit = await cli.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(cli.stderr()).toBe('');
    await expect(fetch(`${url}/__sim/health`)).rejects.toThrow();
  });

  it('loads what it serves on demand: GET /__sim/metrics answers Prometheus text with the requests counted so far', async () => {
    const cli = start(['serve', '--port', '0', '--clock', 'virtual']);
    const [, url] = await cli.waitForStdout(LISTENING);
    expect((await fetchAnswer(`${url}/v1/query/types`)).status).toBe(200);
    const metrics = await fetchAnswer(`${url}/__sim/metrics`);
    expect(metrics.status, metrics.text).toBe(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/^analytics_sim_requests_total\{/m);
  });

  it('on every interface, says it is reachable from the network, prints the bound addresses and a generated control token, and guards /__sim with it', async () => {
    const cli = start(['serve', '--host', '0.0.0.0', '--port', '0', '--clock', 'virtual']);
    const [, url] = await cli.waitForStdout(LISTENING);
    const [, address] = await cli.waitForStdout(/^ {2}reachable from the network: bound to (\S+), answering on .*$/m);
    expect(address).toBe('0.0.0.0');
    const [, token] = await cli.waitForStdout(/^ {2}control plane \(\/__sim\) needs Authorization: Bearer ([A-Za-z0-9_-]{32}) \(generated now; choose one with --control-token\)$/m);
    expect(cli.stdout()).toContain(`curl -s -H "Authorization: Bearer ${token}" ${url}/__sim/fixtures`);
    expect((await fetchAnswer(`${url}/__sim/fixtures`)).status).toBe(401);
    expect((await fetchAnswer(`${url}/__sim/fixtures`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('uses the --control-token given and does not print it', async () => {
    const token = 'given-control-token-abcdefgh';
    const cli = start(['serve', '--host', '0.0.0.0', '--port', '0', '--control-token', token]);
    const [, url] = await cli.waitForStdout(LISTENING);
    await cli.waitForStdout(/control plane \(\/__sim\) needs Authorization: Bearer <control token> \(the one given\)/);
    await cli.waitForStdout(/inspector: /);
    expect(cli.stdout()).not.toContain(token);
    expect((await fetchAnswer(`${url}/__sim/health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetchAnswer(`${url}/__sim/health`)).status).toBe(401);
  });

  it('on loopback, prints no network warning and leaves /__sim open', async () => {
    const cli = start(['serve', '--port', '0']);
    const [, url] = await cli.waitForStdout(LISTENING);
    await cli.waitForStdout(/inspector: /);
    expect(cli.stdout()).not.toContain('reachable from the network');
    expect((await fetchAnswer(`${url}/__sim/fixtures`)).status).toBe(200);
  });

  it('serves the chosen seed and start instant, and logs one line per request with --log, a refusal with its reason', async () => {
    const cli = start(['serve', '--port', '0', '--clock', 'virtual', '--seed', 'cli-seed', '--now', '2024-05-31T00:00:00Z', '--log']);
    const [, url] = await cli.waitForStdout(LISTENING);
    const health = await fetchAnswer(`${url}/__sim/health`);
    expect(health.json).toMatchObject({ seed: 'cli-seed', clock: { mode: 'virtual', now: Date.UTC(2024, 4, 31) } });
    const id = health.headers['x-request-id'] as string;
    await cli.waitForStdout(new RegExp(`GET /__sim/health 200 .*${id}`));
    // A refusal's line says why: its code, the field at fault, what was wrong and the fix.
    const fixtures = await fetchAnswer(`${url}/__sim/fixtures`);
    const key = (fixtures.json.apiKeys as { id: string; secret: string }[]).find((k) => k.id === 'key_acme_track')?.secret ?? '';
    const refused = await fetchAnswer(`${url}/track`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ name: '', websiteId: 'web_acme_www' }) });
    expect(refused.status).toBe(400);
    await cli.waitForStdout(new RegExp(`POST /track 400 .*${refused.headers['x-request-id']} INVALID_EVENT_SCHEMA body\\.name: .*\\(Each event needs a name`));
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
  });

  it('reads a --now without a zone the same in every time zone', async () => {
    const cli = start(['serve', '--port', '0', '--clock', 'virtual', '--now', '2024-06-01T10:00'], { TZ: 'Asia/Tokyo' });
    const outcome = await Promise.race([
      cli.waitForStdout(LISTENING).then((m) => ({ url: m[1] as string })),
      cli.exited.then((exit) => ({ exit })),
    ]);
    if ('exit' in outcome) {
      expect(outcome.exit.code).toBe(2);
      expect(cli.stderr()).toMatch(/--now/);
      return;
    }
    const health = await fetchAnswer(`${outcome.url}/__sim/health`);
    expect(health.json.clock.now).toBe(Date.UTC(2024, 5, 1, 10));
  });
});

describe('analytics-sim one-shot commands', () => {
  it.concurrent('prints usage for --help and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Usage:/);
    expect(result.stdout).toContain('--port');
    expect(result.stderr).toBe('');
  });

  it.concurrent('prints the package version for --version and exits 0', async () => {
    const pkg = JSON.parse(readFileSync(`${REPO_ROOT}/package.json`, 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it.concurrent('exits 2 with a message on stderr for --port abc', async () => {
    const result = await runCli(['serve', '--port', 'abc']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--port/);
    expect(result.stderr).toContain('abc');
    expect(result.stdout).toBe('');
  });

  it.concurrent('exits 2 with a message on stderr for an unknown command', async () => {
    const result = await runCli(['launch']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('launch');
  });
});
