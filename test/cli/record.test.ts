import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type ScenarioInput, type Simulator } from '../../src/index.js';
import type { ConformDeps } from '../../src/cli/conform/client.js';
import { recordCommand, type RecordOutput } from '../../src/cli/record/command.js';
import { parseRecordCommand, type RecordOptions } from '../../src/cli/record/options.js';
import { RecordAbort } from '../../src/cli/record/run.js';
import { readRecordingFile } from '../../src/cli/record/recording-file.js';
import { startServer, type RunningServer } from '../../src/http/node-server.js';
import { runCli, startCli } from '../helpers/cli.js';
import { call, secretOf } from '../helpers/sim.js';
import { QUERY_TYPES } from '../../src/sim/query/registry.js';
import { REQUIRED_FILTERS } from '../../src/cli/conform/expectations.js';

/*
 * `analytics-sim record` against a second simulator the test starts as an HTTP server on port 0
 * (seed 'recorded-seed'), replayed by `createSimulator({ replay })` of another seed. Waits go
 * through the injected `sleep`, which advances the target's virtual clock: nothing sleeps.
 */

const RANGE = { startDate: '2025-05-26', endDate: '2025-06-01' } as const;
const RECORDED_TYPES = ['summary_metrics', 'top_pages', 'country'];

let directory: string;
const servers: RunningServer[] = [];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'analytics-sim-record-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A simulator served over HTTP on a free port. */
async function serveTarget(sim: Simulator): Promise<string> {
  const server = await startServer(sim, { port: 0 });
  servers.push(server);
  return server.url;
}

/** The network for real, and waits that advance the target's virtual clock. */
function depsOf(target: Simulator): ConformDeps {
  return {
    fetch: (input, init) => fetch(input, init),
    sleep: async (ms) => {
      target.clock.advance(ms);
    },
    now: () => target.clock.now(),
  };
}

/** Captures the command's output. */
function capture(): RecordOutput & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
}

function optionsFor(target: string, key: string, overrides: Partial<RecordOptions> = {}): RecordOptions {
  return { target, key, websites: ['web_acme_store'], types: RECORDED_TYPES, range: RANGE, timezone: 'UTC', out: join(directory, `recording-${Math.random().toString(36).slice(2)}.json`), ...overrides };
}

/** Each parameter's `data` array as the answer's text has it. */
function dataTexts(answerText: string): Record<string, string> {
  const body = JSON.parse(answerText) as { data: { parameter: string; data: unknown }[] };
  return Object.fromEntries(body.data.map((item) => [item.parameter, JSON.stringify(item.data)]));
}

describe('replaying a recording of a website the fixtures do not have', () => {
  it('serves the recorded rows once the website and a key are declared in a world of its own', async () => {
    // The deployment recorded stands for the live service: its website is no fixture of the simulator.
    const website = '3f2a9c1e-7b4d-4e21-9d55-1c0a2b3c4d5e';
    const declared = (secret: string, kind: 'shop' | 'blog') => ({
      organizations: [{ id: 'org_mine' }],
      websites: [{ id: website, kind, dailySessions: 900 }],
      keys: [{ id: 'key_mine_read', organizationId: 'org_mine', scopes: ['read:data'], secret }],
    });
    const secret = 'dbdy_MineLocalDevelopmentKey0000000000000000000000000';
    const target = createSimulator({ seed: 'recorded-seed', world: declared(secret, 'shop') });
    const url = await serveTarget(target);
    const options = optionsFor(url, secret, { websites: [website], types: ['summary_metrics', 'top_pages'] });
    expect(await recordCommand(options, capture(), depsOf(target))).toBe(0);
    const recording = readRecordingFile(options.out);
    const body = { parameters: ['summary_metrics', 'top_pages'], ...RANGE };
    const recorded = dataTexts((await call(target, 'POST', '/v1/query', { query: { website_id: website }, key: secret, body })).text);

    // Without the website in its world the simulator cannot serve it, recording or not.
    const fixturesOnly = createSimulator({ seed: 'replaying-seed', replay: recording });
    expect((await call(fixturesOnly, 'POST', '/v1/query', { query: { website_id: website }, key: secretOf(fixturesOnly, 'key_acme_read'), body })).status).toBe(403);

    // Declared (another kind, so its own traffic differs), it serves the recorded rows.
    const world = declared(secret, 'blog');
    const replaying = createSimulator({ seed: 'replaying-seed', world, replay: recording });
    const answer = await call(replaying, 'POST', '/v1/query', { query: { website_id: website }, key: secret, body });
    expect(answer.status).toBe(200);
    expect(dataTexts(answer.text)).toEqual(recorded);
    const own = createSimulator({ seed: 'replaying-seed', world });
    expect(dataTexts((await call(own, 'POST', '/v1/query', { query: { website_id: website }, key: secret, body })).text).top_pages).not.toBe(recorded.top_pages);
  }, 30_000);
});

describe('analytics-sim record, called as a function, and createSimulator({ replay })', () => {
  it('records a second simulator over HTTP, and a simulator of another seed replays its rows byte for byte', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    const key = secretOf(target, 'key_acme_read');
    const options = optionsFor(url, key);
    const output = capture();
    expect(await recordCommand(options, output, depsOf(target))).toBe(0);
    expect(output.err).toEqual([]);
    expect(output.out.join('')).toContain(`recorded 3 parameters (3 types on web_acme_store, 2025-05-26..2025-06-01) from ${url} into ${options.out}`);

    const text = readFileSync(options.out, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/x-api-key|authorization|dbdy_/i);
    const recording = readRecordingFile(options.out) as { version: number; complete: boolean; target: string; entries: { type: string; scope: unknown; startDate: string }[] };
    expect(recording).toMatchObject({ version: 1, complete: true, target: url });
    expect(recording.entries.map((e) => [e.type, e.scope, e.startDate])).toEqual(RECORDED_TYPES.map((t) => [t, { website_id: 'web_acme_store' }, '2025-05-26']));

    // What the target answers for the recorded parameters, as bytes.
    const direct = await call(target, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key, body: { parameters: RECORDED_TYPES, ...RANGE } });
    const recorded = dataTexts(direct.text);

    const replaying = createSimulator({ seed: 'replaying-seed', replay: recording });
    const own = createSimulator({ seed: 'replaying-seed' });
    const ask = (sim: Simulator, parameters: string[]) =>
      call(sim, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key: secretOf(sim, 'key_acme_read'), body: { parameters, ...RANGE } });
    const answer = await ask(replaying, [...RECORDED_TYPES, 'browser_name']);
    expect(answer.status).toBe(200);
    for (const type of RECORDED_TYPES) {
      expect(answer.text).toContain(`{"parameter":"${type}","success":true,"data":${recorded[type]}}`);
    }
    // The replaying world is another one: its own rows differ from the recorded ones.
    expect(dataTexts((await ask(own, ['summary_metrics'])).text).summary_metrics).not.toBe(recorded.summary_metrics);
    // A parameter not recorded comes from the replaying simulator's own world.
    expect(dataTexts(answer.text).browser_name).toBe(dataTexts((await ask(own, ['browser_name'])).text).browser_name);
    const warning = answer.headers.Warning ?? '';
    for (const type of RECORDED_TYPES) expect(warning).toContain(`${type}: rows from the recording`);
    expect(warning).not.toContain('browser_name');
  }, 30_000);

  it('records by default every website type of the target’s catalogue that needs no filter and no paid plan, in requests of at most 50 types', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    const { types: _types, ...defaults } = optionsFor(url, secretOf(target, 'key_acme_read'), { range: { startDate: '2025-06-01', endDate: '2025-06-01' } });
    const output = capture();
    expect(await recordCommand(defaults, output, depsOf(target))).toBe(0);
    const recording = JSON.parse(readFileSync(defaults.out, 'utf8')) as { complete: boolean; entries: { type: string }[] };
    expect(recording.complete).toBe(true);
    const expected = QUERY_TYPES.filter((t) => t.target === 'website' && t.gate === undefined && t.liveGate === undefined && REQUIRED_FILTERS[t.name] === undefined).map((t) => t.name);
    expect(recording.entries.map((e) => e.type)).toEqual(expected);
    const queries = (await call(target, 'GET', '/__sim/journal')).json.entries.filter((e: { path: string }) => e.path === '/v1/query');
    expect(queries).toHaveLength(Math.ceil(expected.length / 50));
  }, 30_000);

  it('ends with exit 2 and a clear message, writing nothing, when the target refuses the key (401)', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    const options = optionsFor(url, `dbdy_${'x'.repeat(48)}`);
    const run = recordCommand(options, capture(), depsOf(target));
    await expect(run).rejects.toBeInstanceOf(RecordAbort);
    await expect(run).rejects.toThrow(/refused the key \(401 AUTH_REQUIRED\): pass an API key of that deployment with --key/);
    expect(() => readFileSync(options.out)).toThrow(/ENOENT/);
  });

  it('ends with exit 2 when the key lacks read:data (403 FORBIDDEN)', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    const run = recordCommand(optionsFor(url, secretOf(target, 'key_acme_track')), capture(), depsOf(target));
    await expect(run).rejects.toBeInstanceOf(RecordAbort);
    await expect(run).rejects.toThrow(/refused the key \(403 FORBIDDEN.*\): pass an API key of that deployment with read:data with --key/);
  });

  it('writes a partial recording marked complete: false, naming what is missing, when the target keeps rate-limiting', async () => {
    const storm: ScenarioInput = {
      name: 'always-429',
      description: 'every query refused with 429 after the first two',
      steps: [{ name: 'storm', start: '1s', match: { route: '/v1/query' }, effect: { type: 'rate_limit', retryAfterSeconds: 2 } }],
    };
    const target = createSimulator({ seed: 'recorded-seed', scenarios: [storm] });
    const url = await serveTarget(target);
    const options = optionsFor(url, secretOf(target, 'key_acme_read'), { websites: ['web_acme_store', 'web_acme_blog'], types: ['summary_metrics'] });
    const output = capture();
    // The first query goes out at the start, before the storm; the clock then moves past it.
    const deps = depsOf(target);
    let sent = 0;
    const stepping: ConformDeps = {
      ...deps,
      fetch: async (input, init) => {
        if (String(input).includes('/v1/query?') && sent++ === 1) target.clock.advance(1000);
        return deps.fetch(input, init);
      },
    };
    expect(await recordCommand(options, output, stepping)).toBe(1);
    const recording = JSON.parse(readFileSync(options.out, 'utf8')) as { complete: boolean; missing: string[]; entries: { scope: unknown }[] };
    expect(recording.complete).toBe(false);
    expect(recording.entries.map((e) => e.scope)).toEqual([{ website_id: 'web_acme_store' }]);
    expect(recording.missing).toEqual([expect.stringMatching(/^1 parameter not asked: the target kept answering 429 \(429 RATE_LIMITED.*Retry-After 2\) after the retries \(from summary_metrics on web_acme_blog\)$/)]);
    const err = output.err.join('');
    expect(err).toMatch(/the recording is incomplete \(complete: false\), 1 missing/);
    expect(err).toContain('summary_metrics on web_acme_blog');
    // The recorder waited out each Retry-After (3 retries) before giving up.
    expect(output.out.join('')).toMatch(/answered 429 \(Retry-After: 2\); waited 2 s/);
  });

  it('stays within a quota key’s X-RateLimit-Remaining: it waits for X-RateLimit-Reset and is never refused', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    // key_acme_quota: 10 requests a minute; 12 queries and the preflight go past it unless paced.
    const websites = ['web_acme_store', 'web_acme_blog', 'web_acme_docs'];
    const types = ['summary_metrics', 'top_pages', 'country', 'browser_name'];
    const options = optionsFor(url, secretOf(target, 'key_acme_quota'), { websites, types, range: { startDate: '2025-06-01', endDate: '2025-06-01' } });
    const output = capture();
    const deps = depsOf(target);
    // One parameter a request, so the run needs more requests than the quota allows.
    const single: ConformDeps = {
      ...deps,
      fetch: async (input, init) => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { parameters?: string[] }) : undefined;
        if (body?.parameters && body.parameters.length > 1) {
          // Let the recorder split it: answer 400 as a refusal of the whole group would.
          return new Response(JSON.stringify({ success: false, code: 'VALIDATION_ERROR', error: 'split' }), { status: 400, headers: { 'content-type': 'application/json' } });
        }
        return deps.fetch(input, init);
      },
    };
    expect(await recordCommand(options, output, single)).toBe(0);
    const recording = JSON.parse(readFileSync(options.out, 'utf8')) as { complete: boolean; entries: unknown[] };
    expect(recording.complete).toBe(true);
    expect(recording.entries).toHaveLength(websites.length * types.length);
    const journal = await call(target, 'GET', '/__sim/journal');
    const outcomes = (journal.json.entries as { outcome: string }[]).map((e) => e.outcome);
    expect(outcomes.filter((o) => o !== 'admitted')).toEqual([]);
    expect(output.out.join('')).toMatch(/the key's quota ran out \(X-RateLimit-Remaining: 0\); waited \d+ s for X-RateLimit-Reset/);
  });
});

describe('analytics-sim record: the command line', () => {
  it('parses the flags, with a preset or an explicit range, and refuses what it cannot use with the fix', () => {
    expect(parseRecordCommand(['--target', 'http://user:pw@127.0.0.1:8787/', '--key', 'k', '--website', 'a,b', '--types', 'summary_metrics', '--range', '2025-05-26..2025-06-01'])).toEqual({
      kind: 'record',
      options: { target: 'http://127.0.0.1:8787', key: 'k', websites: ['a', 'b'], types: ['summary_metrics'], range: RANGE, timezone: 'UTC', out: 'analytics-sim-recording.json' },
    });
    expect(parseRecordCommand(['--target', 'http://x', '--key', 'k'])).toMatchObject({ options: { range: { preset: 'last_7d' } } });
    expect(parseRecordCommand(['--target', 'http://x', '--key', 'k', '--types', 'summry_metrics'])).toEqual({
      kind: 'error',
      message: "--types: 'summry_metrics' is not a query type. Did you mean summary_metrics? GET /v1/query/types lists them.",
    });
    expect(parseRecordCommand(['--target', 'http://x', '--key', 'k', '--range', 'last_7'])).toMatchObject({ kind: 'error', message: expect.stringContaining('Did you mean last_7d?') });
    expect(parseRecordCommand(['--target', 'http://x'])).toMatchObject({ kind: 'error', message: expect.stringContaining('record needs --key') });
    expect(parseRecordCommand(['--help'])).toEqual({ kind: 'help', topic: 'record' });
  });
});

describe('analytics-sim record and serve --replay, as processes', () => {
  it('records a simulator from the command line, and serve --replay of another seed answers the recorded rows with a Warning', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    const key = secretOf(target, 'key_acme_read');
    const file = join(directory, 'from-the-cli.json');
    const recorded = await runCli(['record', '--target', url, '--key', key, '--website', 'web_acme_store', '--types', 'summary_metrics,top_pages', '--range', '2025-05-26..2025-06-01', '--out', file], { guardMs: 30_000 });
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toContain(`recorded 2 parameters (2 types on web_acme_store, 2025-05-26..2025-06-01) from ${url} into ${file}`);
    expect(recorded.stdout + readFileSync(file, 'utf8')).not.toContain(key);

    const direct = await call(target, 'POST', '/v1/query', { query: { website_id: 'web_acme_store' }, key, body: { parameters: ['summary_metrics', 'top_pages'], ...RANGE } });
    const rows = dataTexts(direct.text);
    const server = startCli(['serve', '--port', '0', '--now', '2025-06-02T12:00:00Z', '--seed', 'replaying-seed', '--replay', file], { guardMs: 30_000 });
    try {
      const [, base] = await server.waitForStdout(/listening on (http:\/\/\S+)/);
      await server.waitForStdout(/inspector:/);
      expect(server.stdout()).toContain(`replay: 2 recorded parameters of ${url}`);
      const fixtures = (await (await fetch(`${base}/__sim/fixtures`)).json()) as { apiKeys: { id: string; secret: string }[] };
      const replayKey = fixtures.apiKeys.find((k) => k.id === 'key_acme_read')?.secret as string;
      const response = await fetch(`${base}/v1/query?website_id=web_acme_store`, {
        method: 'POST',
        headers: { 'x-api-key': replayKey, 'content-type': 'application/json' },
        body: JSON.stringify({ parameters: ['summary_metrics', 'top_pages', 'country'], ...RANGE }),
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).toContain(`{"parameter":"summary_metrics","success":true,"data":${rows.summary_metrics}}`);
      expect(text).toContain(`{"parameter":"top_pages","success":true,"data":${rows.top_pages}}`);
      const warning = response.headers.get('warning') ?? '';
      expect(warning).toContain('summary_metrics: rows from the recording (entry 0 of');
      expect(warning).toContain('top_pages: rows from the recording (entry 1 of');
      expect(warning).not.toContain('country');
    } finally {
      server.kill();
      await server.exited;
    }
  }, 60_000);

  it('refuses a recording with a secret at start, naming the entry, and serves nothing (exit 2)', async () => {
    const file = join(directory, 'with-a-secret.json');
    const entry = { type: 'summary_metrics', scope: { website_id: 'web_acme_store' }, ...RANGE, rows: [] as unknown[] };
    writeFileSync(file, JSON.stringify({ version: 1, target: 'http://127.0.0.1:8787', recordedAt: '2025-06-02T12:00:00Z', complete: true, entries: [entry, { ...entry, type: 'top_pages', rows: [{ path: `/?key=dbdy_${'a'.repeat(48)}` }] }] }));
    const result = await runCli(['serve', '--port', '0', '--replay', file], { guardMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^analytics-sim: recording .*with-a-secret\.json: entry 1 \(entries\[1\]\.rows\[0\]\.path\): holds a value that starts like a secret \(dbdy_…\)/);
    expect(result.stderr).not.toContain('a'.repeat(48));
  }, 40_000);

  it('exits 2 with one line when the target refuses the key', async () => {
    const target = createSimulator({ seed: 'recorded-seed' });
    const url = await serveTarget(target);
    const result = await runCli(['record', '--target', url, '--key', `dbdy_${'z'.repeat(48)}`, '--out', join(directory, 'never.json')], { guardMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^analytics-sim: .* refused the key \(401 AUTH_REQUIRED\): pass an API key of that deployment with --key\.\n$/);
    expect(result.stderr).not.toContain('z'.repeat(48));
  }, 40_000);
});
