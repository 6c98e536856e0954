import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HELP, parseCommand, type Command } from '../../src/cli/args.js';
import { applyConfig, type LoadedConfig } from '../../src/cli/config.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'analytics-sim-store-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serveCommand(command: Command): Extract<Command, { kind: 'serve' }> {
  if (command.kind !== 'serve') throw new Error(`expected serve, got ${JSON.stringify(command)}`);
  return command;
}

function errorMessage(command: Command): string {
  if (command.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(command)}`);
  return command.message;
}

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Env without the store variables of the machine running the tests. */
const CLEAN_ENV = { ANALYTICS_SIM_STORE: '', ANALYTICS_SIM_STORE_PREFIX: '' };

describe('parseCommand store and worker flags', () => {
  it('uses the memory store, the default prefix and one process when given nothing', () => {
    expect(serveCommand(parseCommand(['serve'])).options).toMatchObject({ store: 'memory', storePrefix: undefined, workers: 1 });
  });

  it('reads --store, --store-prefix and --workers, and says the command line gave them', () => {
    const command = serveCommand(parseCommand(['serve', '--store', 'redis://127.0.0.1:6379/2', '--store-prefix', 'ci-job_7.a:b', '--workers', '3']));
    expect(command.options).toMatchObject({ store: 'redis://127.0.0.1:6379/2', storePrefix: 'ci-job_7.a:b', workers: 3 });
    expect(command.given).toEqual(['store', 'storePrefix', 'workers']);
    expect(command).toMatchObject({ storeSource: '--store', storePrefixSource: '--store-prefix' });
  });

  it('takes the store and the prefix from the environment when the flags are not given, and the flags over the environment', () => {
    const env = { ANALYTICS_SIM_STORE: 'redis://10.0.0.1:6379', ANALYTICS_SIM_STORE_PREFIX: 'from-env' };
    const fromEnv = serveCommand(parseCommand(['serve'], env));
    expect(fromEnv.options).toMatchObject({ store: 'redis://10.0.0.1:6379', storePrefix: 'from-env' });
    expect(fromEnv).toMatchObject({ storeSource: 'ANALYTICS_SIM_STORE', storePrefixSource: 'ANALYTICS_SIM_STORE_PREFIX', given: ['store', 'storePrefix'] });
    const fromFlags = serveCommand(parseCommand(['serve', '--store', 'memory', '--store-prefix', 'flag'], env));
    expect(fromFlags.options).toMatchObject({ store: 'memory', storePrefix: 'flag' });
  });

  it('reads an empty environment variable as unset', () => {
    expect(serveCommand(parseCommand(['serve'], CLEAN_ENV)).options).toMatchObject({ store: 'memory', storePrefix: undefined });
  });

  it('lets the flags and the environment win over a config file, which fills in what neither gives', () => {
    const loaded: LoadedConfig = { path: 'sim.json', config: { store: 'redis://file:6379', storePrefix: 'file', workers: 4 } };
    const fromFile = serveCommand(parseCommand(['serve']));
    expect(applyConfig(fromFile.options, fromFile.given, loaded)).toMatchObject({ store: 'redis://file:6379', storePrefix: 'file', workers: 4 });
    const overridden = serveCommand(parseCommand(['serve', '--workers', '2'], { ANALYTICS_SIM_STORE: 'redis://env:6379', ANALYTICS_SIM_STORE_PREFIX: 'env' }));
    expect(applyConfig(overridden.options, overridden.given, loaded)).toMatchObject({ store: 'redis://env:6379', storePrefix: 'env', workers: 2 });
  });

  it.each([
    [['--store-prefix', ''], /--store-prefix must be 1 to 64 letters, digits, -, _, \. or :/],
    [['--store-prefix', 'has space'], /--store-prefix must be .*\(got 'has space'\)/],
    [['--store-prefix', 'x'.repeat(65)], /--store-prefix must be/],
    [['--store-prefix', 'a{b}'], /--store-prefix must be/],
    [['--workers', '0'], /--workers must be a whole number from 1 to 64 \(got '0'\)/],
    [['--workers', '65'], /--workers must be a whole number from 1 to 64/],
    [['--workers', '1.5'], /--workers/],
    [['--workers', 'two'], /--workers.*'two'/],
    [['--stroe', 'memory'], /Did you mean --store\?/],
    [['--worker', '2'], /Did you mean --workers\?/],
  ])('refuses serve %j in one line', (flags, message) => {
    const text = errorMessage(parseCommand(['serve', ...flags]));
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  it('names the environment variable when its prefix is refused', () => {
    expect(errorMessage(parseCommand(['serve'], { ANALYTICS_SIM_STORE_PREFIX: 'no/slash' }))).toMatch(/^ANALYTICS_SIM_STORE_PREFIX must be .*\(got 'no\/slash'\)/);
  });

  it('documents the three flags, their environment variables and which source wins in --help', () => {
    for (const text of ['--store <url>', '--store-prefix <name>', '--workers <n>', 'ANALYTICS_SIM_STORE', 'ANALYTICS_SIM_STORE_PREFIX', 'redis://HOST:PORT[/DB]']) expect(HELP).toContain(text);
    expect(HELP).toMatch(/A flag\s+wins over its environment variable, which wins over the file/);
  });
});

describe('analytics-sim serve refuses store options it cannot use', () => {
  it.concurrent('exits 2 with one line naming the accepted forms for --store ftp://x', async () => {
    const result = await runCli(['serve', '--port', '0', '--store', 'ftp://x'], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^analytics-sim: --store must be memory, redis:\/\/HOST:PORT\[\/DB\] or rediss:\/\/HOST:PORT\[\/DB\] \(.*ftp:\/\/x.*\)\.\n$/);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it.concurrent('names ANALYTICS_SIM_STORE when the bad URL came from the environment, and hides a password', async () => {
    const result = await runCli(['serve', '--port', '0'], { env: { ...CLEAN_ENV, ANALYTICS_SIM_STORE: 'http://user:hunter2@example.test' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^analytics-sim: ANALYTICS_SIM_STORE must be memory, redis:\/\//);
    expect(result.stderr).not.toContain('hunter2');
  });

  it.concurrent('names the config file field when the bad URL came from there', async () => {
    const path = join(dir, 'bad-store.json');
    writeFileSync(path, JSON.stringify({ store: 'mysql://db:3306' }));
    const result = await runCli(['serve', '--port', '0', '--config', path], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`analytics-sim: config file ${path}: store must be memory, redis://`);
  });

  it.concurrent('exits 2 for --store-prefix without a Redis store', async () => {
    const result = await runCli(['serve', '--port', '0', '--store-prefix', 'ci-7'], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('analytics-sim: --store-prefix names the keys of a Redis store, and with --store memory there is none: add --store redis://HOST:PORT, or drop it.\n');
  });

  it.concurrent('refuses --workers 2 on the memory store, saying each process would keep its own limits', async () => {
    const result = await runCli(['serve', '--port', '0', '--workers', '2'], { env: CLEAN_ENV });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'analytics-sim: --workers needs a shared store: with --store memory each process would keep its own limits (admitting N times the quota); add --store redis://HOST:PORT\n',
    );
  });

  it.concurrent('exits 1 with one line, no stack trace, when the Redis store cannot be reached', async () => {
    const port = await closedPort();
    const result = await runCli(['serve', '--port', '0', '--store', `redis://127.0.0.1:${port}`], { env: CLEAN_ENV });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `analytics-sim: cannot reach the store at redis://127.0.0.1:${port}/0 (connect ECONNREFUSED): start Redis (redis-server --port ${port}) or fix --store\n`,
    );
  });
});
