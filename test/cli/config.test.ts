import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommand, type ServeOptions } from '../../src/cli/args.js';
import { applyConfig, CONFIG_FILE, ConfigError, loadConfig, type LoadedConfig } from '../../src/cli/config.js';
import type { SimulatorConfig } from '../../src/contract/config.js';
import { addConfiguredKeys, ConfiguredKeyError } from '../../src/fixtures/configured-keys.js';
import { createSeededWorld, createSimulator } from '../../src/index.js';
import { startCli } from '../helpers/cli.js';
import { call } from '../helpers/sim.js';

const dir = mkdtempSync(join(tmpdir(), 'analytics-sim-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = `dbdy_${'A1b2C3d4'.repeat(6)}`;

function serve(argv: string[]): { options: ServeOptions; given: readonly (keyof ServeOptions)[] } {
  const command = parseCommand(argv);
  if (command.kind !== 'serve') throw new Error(JSON.stringify(command));
  return command;
}

function loaded(config: SimulatorConfig): LoadedConfig {
  return { path: 'test.json', config };
}

function write(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('applyConfig', () => {
  it('takes every option the command line does not give from the file', () => {
    const { options, given } = serve(['serve']);
    const merged = applyConfig(options, given, loaded({ port: 0, seed: 7, now: '2025-01-01T00:00:00Z', strict: true, limits: 'off', scenarios: ['steady'], allowedOrigins: ['HTTP://Localhost:5173/'] }));
    expect(merged).toMatchObject({ port: 0, seed: '7', clock: 'virtual', startMs: Date.UTC(2025, 0, 1), strict: true, limits: 'off', scenarios: ['steady'], allowedOrigins: ['http://localhost:5173'] });
  });

  it('takes the timeouts, trustProxy and the control token from the file', () => {
    const { options, given } = serve(['serve']);
    const token = 'from-the-config-file-0001';
    expect(applyConfig(options, given, loaded({ requestTimeout: 5, writeTimeout: 1.5, trustProxy: true, controlToken: token }))).toMatchObject({
      requestTimeout: 5,
      writeTimeout: 1.5,
      trustProxy: true,
      controlToken: token,
    });
  });

  it('takes the sandbox cap and idle timeout from the file, and lets the flags win', () => {
    const file = loaded({ maxSandboxes: 8, sandboxIdle: 60 });
    const fromFile = serve(['serve']);
    expect(applyConfig(fromFile.options, fromFile.given, file)).toMatchObject({ maxSandboxes: 8, sandboxIdle: 60 });
    const flags = serve(['serve', '--max-sandboxes', '2', '--sandbox-idle', '0']);
    expect(applyConfig(flags.options, flags.given, file)).toMatchObject({ maxSandboxes: 2, sandboxIdle: 0 });
  });

  it('lets flags given on the command line win over the file', () => {
    const { options, given } = serve(['serve', '--port', '9001', '--seed', 'flag', '--clock', 'real']);
    expect(applyConfig(options, given, loaded({ port: 0, seed: 'file', clock: 'virtual' }))).toMatchObject({ port: 9001, seed: 'flag', clock: 'real' });
  });

  it('refuses a now the flags would refuse, naming the file and the field', () => {
    const { options, given } = serve(['serve']);
    expect(() => applyConfig(options, given, loaded({ now: 'yesterday' }))).toThrow(/test\.json: now: must be an ISO 8601 instant/);
    expect(() => applyConfig(options, given, loaded({ now: 0, clock: 'real' }))).toThrow(/clock: now sets the start of the virtual clock/);
    expect(() => applyConfig(options, given, loaded({ allowedOrigins: ['localhost:5173'] }))).toThrow(/allowedOrigins\[0\]/);
  });
});

describe('loadConfig', () => {
  it('reads analytics-sim.config.json from the working directory when no --config is given', () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    expect(loadConfig(undefined, cwd)).toBeNull();
    writeFileSync(join(cwd, CONFIG_FILE), JSON.stringify({ seed: 'here' }));
    expect(loadConfig(undefined, cwd)).toEqual({ path: join(cwd, CONFIG_FILE), config: { seed: 'here' } });
  });

  it('names what is wrong: a missing file, bad JSON, or each field off the schema', () => {
    expect(() => loadConfig(join(dir, 'nope.json'), dir)).toThrow(ConfigError);
    expect(() => loadConfig(write('bad.json', '{ "port": '), dir)).toThrow(/is not valid JSON/);
    const path = write('wrong.json', { prot: 1, keys: [{ id: 'key_x', organizationId: 'org_acme', scopes: ['read:everything'] }] });
    expect(() => loadConfig(path, dir)).toThrow(/keys\.0\.scopes\.0: Invalid option: .*; \(root\): Unrecognized key: "prot" \('prot': did you mean 'port'\?\)$/);
    expect(() => loadConfig(write('two.json', { prot: 1, seeed: 3 }), dir)).toThrow(/\('prot': did you mean 'port'\?; 'seeed': did you mean 'seed'\?\)/);
  });
});

describe('keys added by the configuration', () => {
  const keys = [
    { id: 'key_app', organizationId: 'org_acme', scopes: ['read:data' as const], secret: SECRET, purpose: 'my app' },
    { id: 'key_drawn', organizationId: 'org_acme', scopes: ['read:data' as const], websiteIds: ['web_acme_store'] },
  ];
  const world = (seed: string) => addConfiguredKeys(createSeededWorld(seed), keys);

  it('authenticate with their configured secret, are listed with it, and come back after a reset', async () => {
    const sim = createSimulator({ createWorld: world });
    const query = async () => (await call(sim, 'GET', '/v1/query/websites', { key: SECRET })).status;
    expect(await query()).toBe(200);
    const listed = (sim.fixtures() as { apiKeys: { id: string; secret: string; purpose: string }[] }).apiKeys.find((k) => k.id === 'key_app');
    expect(listed).toMatchObject({ secret: SECRET, purpose: 'my app' });
    await sim.reset();
    expect(await query()).toBe(200);
  });

  it('draw a secret from the seed when none is given: the same seed, the same secret', () => {
    const secretOf = (seed: string) => world(seed).fixtureKeys.find((k) => k.id === 'key_drawn')?.secret;
    expect(secretOf('1')).toMatch(/^dbdy_[A-Za-z0-9]{48}$/);
    expect(secretOf('1')).toBe(secretOf('1'));
    expect(secretOf('1')).not.toBe(secretOf('2'));
  });

  it('refuse an unknown organization, a website of another organization and a taken id, naming the field', () => {
    const base = createSeededWorld('42');
    expect(() => addConfiguredKeys(base, [{ id: 'key_x', organizationId: 'org_nope', scopes: ['read:data'] }])).toThrow(/keys\[0\]\.organizationId: no organization org_nope/);
    expect(() => addConfiguredKeys(base, [{ id: 'key_x', organizationId: 'org_acme', scopes: ['read:data'], websiteIds: ['web_globex_news'] }])).toThrow(/keys\[0\]\.websiteIds\[0\]/);
    expect(() => addConfiguredKeys(base, [{ id: 'key_acme_read', organizationId: 'org_acme', scopes: ['read:data'] }])).toThrow(ConfiguredKeyError);
  });
});

describe('analytics-sim serve --config', () => {
  it('starts with the file’s seed, clock and keys, says so in its banner, and serves the configured key', async () => {
    const path = write('serve.json', { seed: 'from-file', now: '2025-03-01T00:00:00Z', keys: [{ id: 'key_app', organizationId: 'org_acme', scopes: ['read:data'], secret: SECRET }] });
    const cli = startCli(['serve', '--port', '0', '--config', path]);
    try {
      const [, url] = await cli.waitForStdout(/listening on (http:\/\/\S+)/);
      expect(cli.stdout()).toContain('seed from-file, virtual clock at 2025-03-01T00:00:00.000Z');
      expect(cli.stdout()).toContain(`config: ${path} (1 extra API key)`);
      const answer = await fetch(`${url}/v1/query/websites`, { headers: { 'x-api-key': SECRET } });
      expect(answer.status).toBe(200);
    } finally {
      cli.kill();
    }
  });

  it('exits 2 naming the field of a key the world cannot take', async () => {
    const path = write('bad-key.json', { keys: [{ id: 'key_app', organizationId: 'org_nope', scopes: ['read:data'] }] });
    const cli = startCli(['serve', '--port', '0', '--config', path]);
    expect((await cli.exited).code).toBe(2);
    expect(cli.stderr()).toMatch(/keys\[0\]\.organizationId: no organization org_nope/);
  });
});

describe('docs/config.schema.json', () => {
  it('is the JSON Schema of the config file the CLI validates with (run npm run docs:config after a change)', async () => {
    const { readFileSync } = await import('node:fs');
    const { configJsonSchema } = await import('../../src/contract/config.js');
    const written = readFileSync(new URL('../../docs/config.schema.json', import.meta.url), 'utf8');
    expect(written).toBe(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
  });
});

describe('examples/analytics-sim.config.json', () => {
  it('is a valid config whose key and scenario a simulator takes', async () => {
    const example = loadConfig(new URL('../../examples/analytics-sim.config.json', import.meta.url).pathname, dir);
    expect(example).not.toBeNull();
    const { options, given } = serve(['serve']);
    const merged = applyConfig(options, given, example as LoadedConfig);
    const sim = createSimulator({
      createWorld: (seed) => addConfiguredKeys(createSeededWorld(seed), example?.config.keys ?? []),
      scenarios: merged.scenarios as never,
      startMs: merged.startMs,
    });
    expect(sim.scenarios.list().map((s) => s.name)).toEqual(['slow-queries']);
    expect((await call(sim, 'GET', '/v1/query/websites', { key: example?.config.keys?.[0]?.secret })).status).toBe(200);
  });
});
