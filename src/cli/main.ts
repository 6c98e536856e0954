#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { startServer } from '../http/node-server.js';
import { createSandboxRegistry, sandboxStorePrefix, type SandboxOverrides } from '../http/sandboxes/sandbox-registry.js';
import { createSharedSandboxRegistry } from '../http/sandboxes/shared-sandbox-registry.js';
import { createSpanSink, tracesUrl } from '../http/otlp-spans.js';
import type { ConfigKey } from '../contract/config.js';
import { DEFAULT_MAX_SANDBOXES, DEFAULT_SANDBOX_IDLE_SECONDS } from '../contract/sandboxes.js';
import type { SharedStore } from '../sim/store/shared-store.js';
import { addConfiguredKeys } from '../fixtures/configured-keys.js';
import { BUILT_IN_SCENARIOS, createDeclaredWorldFactory, createSeededWorld, createSimulator, scenarioSchema, type ScenarioInput, type WorldFactory } from '../index.js';
import { CONTROL_TOKEN_ENV, helpText, isLoopbackHost, parseCommand, type ServeOptions } from './args.js';
import { applyConfig, configuredKeys, loadConfig } from './config.js';
import { conformCommand } from './conform/command.js';
import { recordCommand } from './record/command.js';
import { readRecordingFile } from './record/recording-file.js';
import { readJsonFile, UsageError } from './read-json-file.js';
import { describeReason } from '../sim/journal/refusal-reason.js';
import { describeStoreFailure, describeStoreLine, resolveStore, StoreError, type StoreChoice } from './store-option.js';
import { startedByNpm, watchParent } from './parent-watch.js';
import { isWorkerProcess, reportFailure, reportReady, runPrimary } from './workers.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}


/** Built-in names stay names, whole scenarios (from a config file) stay as they are; anything else is read as a JSON file of one scenario or a list. */
function loadScenarios(entries: readonly (string | ScenarioInput)[]): (string | ScenarioInput)[] {
  return entries.flatMap((entry): (string | ScenarioInput)[] => {
    if (typeof entry !== 'string') return [entry];
    if (BUILT_IN_SCENARIOS.some((s) => s.name === entry)) return [entry];
    if (!/\.json$/i.test(entry) && !existsSync(entry)) return [entry];
    const parsed = readJsonFile(entry, 'scenario file');
    const list: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
    return list.map((candidate, i) => {
      const result = scenarioSchema.safeParse(candidate);
      if (result.success) return candidate as ScenarioInput;
      const where = Array.isArray(parsed) ? `${entry} [${i}]` : entry;
      const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
      throw new UsageError(`invalid scenario in ${where}: ${problems.join('; ')}`);
    });
  });
}

/** "12 recorded parameters of http://… (2025-06-02T12:00:00.000Z)": what a checked recording holds. */
function describeRecording(recording: unknown): string {
  const { entries, target, recordedAt, complete } = recording as { entries: unknown[]; target: string; recordedAt: string; complete: boolean };
  return `${entries.length} recorded parameter${entries.length === 1 ? '' : 's'} of ${target} (${recordedAt}${complete ? '' : ', incomplete'})`;
}

/** Set by the primary of `--workers` beside the token it drew, so the banner prints it. */
const DRAWN_TOKEN_ENV = 'ANALYTICS_SIM_CONTROL_TOKEN_DRAWN';

/** A control token from 24 random bytes (32 URL-safe characters). */
function generateControlToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The URLs a server bound to `address` answers on: every interface's address for a wildcard
 * bind (`0.0.0.0`: IPv4 ones; `::`: all), else the address itself.
 */
function reachableUrls(address: string, port: number): string[] {
  const url = (ip: string): string => `http://${ip.includes(':') ? `[${ip}]` : ip}:${port}`;
  if (address !== '0.0.0.0' && address !== '::') return [url(address)];
  const ips = Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => address === '::' || entry.family === 'IPv4')
    .map((entry) => entry.address);
  return ips.length > 0 ? ips.map(url) : [url(address)];
}

/** Closes a shared store, giving up after `ms` (a store whose Redis is gone must not hold the exit). */
async function closeStore(store: SharedStore | undefined, ms = 3_000): Promise<void> {
  if (!store) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    store.close().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Runs one serving process: creates the simulator (on a Redis store when chosen, then waits for
 * `ready()` before listening), listens, and stops on SIGTERM/SIGINT (the server, then the
 * store). Alone it prints the banner; as a worker of `--workers` it hands the banner to the
 * primary instead, and leaves SIGINT to the primary (which stops every worker with SIGTERM).
 */
async function serve(options: ServeOptions, store: StoreChoice, keys: readonly ConfigKey[], configPath: string | null, worker: boolean, recording: unknown): Promise<void> {
  // A worker's terminal also sends it Ctrl-C's SIGINT, even while it starts: the primary
  // decides, and stops every worker with SIGTERM.
  if (worker) process.on('SIGINT', () => undefined);
  // Off loopback the control plane needs a token: the one given, or one drawn now (the primary
  // of --workers draws it once and hands it to its workers through the environment).
  const network = !isLoopbackHost(options.host);
  const controlToken = network ? (options.controlToken ?? generateControlToken()) : undefined;
  const redis = store.kind === 'redis' ? await import('../store/redis-store.js') : undefined;
  const sandboxDirectory = store.kind === 'redis' ? await import('../store/redis-sandbox-directory.js') : undefined;
  /** A Redis store under `prefix` (each sandbox gets its own), or none in memory; a Redis that lost its data is said on stderr. */
  const openStore = (prefix: string): SharedStore | undefined =>
    redis && store.kind === 'redis'
      ? redis.createRedisStore({
          url: store.url,
          prefix,
          ...(store.ca ? { tls: { ca: store.ca } } : {}),
          onDataLoss: (loss) => process.stderr.write(`analytics-sim: ${loss.message}\n`),
        })
      : undefined;
  const shared = store.kind === 'redis' ? openStore(store.prefix) : undefined;
  // A declared or generated world (the config file's world, --world): checked once, built per seed.
  let worldFactory: WorldFactory = createSeededWorld;
  try {
    if (options.world !== undefined) worldFactory = createDeclaredWorldFactory(options.world);
  } catch (error) {
    await closeStore(shared);
    throw new UsageError((error as Error).message);
  }
  const buildWorld = keys.length > 0 ? (seed: string) => addConfiguredKeys(worldFactory(seed), keys) : worldFactory;
  /** The server's simulator, or (with overrides) a sandbox's: the same options but the overrides (a world of its own), and a sandbox's own store prefix. */
  const buildSimulator = (overrides: Partial<SandboxOverrides>, own: SharedStore | undefined) =>
    createSimulator({
      ...(overrides.world !== undefined ? { world: overrides.world } : buildWorld !== createSeededWorld ? { createWorld: buildWorld } : {}),
      seed: overrides.seed ?? options.seed,
      clock: overrides.clock ?? options.clock,
      startMs: overrides.startMs ?? options.startMs,
      realNow: Date.now,
      // Between the queries of a batch, other connections get their turn.
      yieldToEventLoop: () => new Promise<void>((resolve) => setImmediate(resolve)),
      scenarios: loadScenarios(options.scenarios),
      guardControlHost: isLoopbackHost(options.host),
      ...(controlToken !== undefined ? { controlToken } : {}),
      limits: options.limits,
      strict: options.strict,
      profile: overrides.profile ?? options.profile,
      ingestDelayMs: options.ingestDelay,
      harBodies: options.harBodies,
      harEntries: options.harEntries,
      ...(options.allowedOrigins.length > 0 ? { allowedOrigins: options.allowedOrigins } : {}),
      ...(own ? { store: own } : {}),
      ...(recording !== undefined ? { replay: recording } : {}),
    });
  let simulator;
  try {
    simulator = buildSimulator({}, shared);
  } catch (error) {
    await closeStore(shared);
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
  if (store.kind === 'redis') {
    try {
      await simulator.ready();
    } catch (error) {
      await closeStore(shared);
      throw new StoreError(describeStoreFailure(error, store));
    }
  }
  // The OpenTelemetry packages load only when spans are exported.
  const spans = options.otlpEndpoint !== undefined ? await createSpanSink(new URL(options.otlpEndpoint)) : undefined;
  // Sandboxes: in memory, this process's registry; on a Redis store, a directory every process
  // of the store shares (so --workers N and separate processes serve every sandbox), each
  // sandbox under a store prefix of its own.
  const sandboxLimits = { maxSandboxes: options.maxSandboxes, idleMs: options.sandboxIdle * 1000 };
  const sandboxes =
    store.kind === 'redis' && sandboxDirectory
      ? createSharedSandboxRegistry({
          create: (overrides) => buildSimulator(overrides, openStore(overrides.storePrefix ?? sandboxStorePrefix(store.prefix, overrides.id))),
          directory: sandboxDirectory.createRedisSandboxDirectory({ url: store.url, prefix: store.prefix, ...(store.ca ? { tls: { ca: store.ca } } : {}) }),
          storePrefixOf: (id) => sandboxStorePrefix(store.prefix, id),
          defaults: { seed: options.seed, profile: options.profile },
          ...sandboxLimits,
        })
      : createSandboxRegistry({ create: (overrides) => buildSimulator(overrides, undefined), ...sandboxLimits });
  let running;
  try {
    running = await startServer(simulator, {
      sandboxes,
      ...(spans ? { spans } : {}),
      port: options.port,
      host: options.host,
      now: () => performance.now(),
      requestTimeoutMs: options.requestTimeout * 1000,
      writeTimeoutMs: options.writeTimeout * 1000,
      trustProxy: options.trustProxy,
      ...(options.log
        ? {
            log: (e) => process.stdout.write(`${e.method} ${e.path} ${e.status} ${e.durationMs.toFixed(1)}ms ${e.requestId}${e.reason ? ` ${describeReason(e.reason)}` : ''}\n`),
          }
        : {}),
    });
  } catch (error) {
    await closeStore(shared);
    throw error;
  }
  const fixtures = simulator.fixtures() as { apiKeys: { id: string; secret: string | null; scopes: readonly string[] }[] };
  // The README's key, or in a world of your own its first key that reads data.
  const key = (fixtures.apiKeys.find((k) => k.id === 'key_acme_read') ?? fixtures.apiKeys.find((k) => k.secret !== null && k.scopes.includes('read:data')))?.secret ?? '<key>';
  const clock = simulator.clock.snapshot();
  const scenarioNames = simulator.scenarios.list().map((s) => s.name);
  // Before the banner, so a signal sent as soon as it is read stops the server cleanly.
  // Ctrl-C under `npm start` delivers SIGINT twice (from the terminal and forwarded by npm):
  // the first one stops the server, a repeat while it closes changes nothing.
  let stopping = false;
  const server = running;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server
      .close()
      .then(() => spans?.shutdown())
      .catch(() => undefined)
      .then(() => closeStore(shared))
      .then(() => process.exit(0));
  };
  if (!worker) process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A drawn token is printed (it is the only way to learn it); a given one is not repeated.
  const drawn = options.controlToken === undefined || (worker && process.env[DRAWN_TOKEN_ENV] === '1');
  const shownToken = drawn ? controlToken : '<control token>';
  const auth = controlToken !== undefined ? ` -H "Authorization: Bearer ${shownToken}"` : '';
  const networkLines =
    controlToken !== undefined
      ? [
          `  reachable from the network: bound to ${running.address}, answering on ${reachableUrls(running.address, running.port).join(', ')}`,
          drawn
            ? `  control plane (/__sim) needs Authorization: Bearer ${controlToken} (generated now; choose one with --control-token)`
            : '  control plane (/__sim) needs Authorization: Bearer <control token> (the one given)',
        ]
      : [];
  const banner = [
    `analytics-sim listening on ${running.url}`,
    ...networkLines,
    `  seed ${simulator.seed}, ${clock.mode} clock at ${clock.iso}`,
    ...(store.kind === 'redis' ? [describeStoreLine(store)] : []),
    ...(configPath !== null ? [`  config: ${configPath}${keys.length > 0 ? ` (${keys.length} extra API key${keys.length === 1 ? '' : 's'})` : ''}`] : []),
    ...(scenarioNames.length > 0 ? [`  scenarios: ${scenarioNames.join(', ')}`] : []),
    ...(options.limits === 'off' ? ['  limits: off (no per-endpoint limits, quotas or concurrency cap)'] : []),
    ...(options.strict ? ['  strict: what the service would ignore or reinterpret is refused with 400'] : []),
    ...(options.profile === 'live' ? ['  profile: live (answers as the live service where it differs from SPEC.md; GET /__sim/profile)'] : []),
    ...(options.allowedOrigins.length > 0 ? [`  allowed origins (CORS): ${options.allowedOrigins.join(', ')} and the simulator's own`] : []),
    ...(options.trustProxy ? ['  trust proxy: the client address of anonymous limits comes from x-forwarded-for and the like'] : []),
    ...(options.otlpEndpoint !== undefined ? [`  spans: one per service request over OTLP/HTTP to ${tracesUrl(new URL(options.otlpEndpoint))}`] : []),
    ...(options.maxSandboxes !== DEFAULT_MAX_SANDBOXES || options.sandboxIdle !== DEFAULT_SANDBOX_IDLE_SECONDS ? [`  sandboxes: at most ${options.maxSandboxes}, removed after ${options.sandboxIdle} s idle (POST /__sim/sandboxes)`] : []),
    ...(options.replay !== undefined ? [`  replay: ${describeRecording(recording)} from ${options.replay}; each answered parameter says so in a Warning`] : []),
    `  fixtures and API keys: curl -s${auth} ${running.url}/__sim/fixtures`,
    `  inspector: ${running.url}/__sim/ui`,
    `  try: curl -s -H "x-api-key: ${key}" ${running.url}/v1/query/websites`,
    '',
  ];
  if (worker) reportReady(running.url, banner);
  else process.stdout.write(banner.join('\n'));
}

async function main(): Promise<void> {
  const command = parseCommand(process.argv.slice(2), process.env);
  switch (command.kind) {
    case 'help':
      process.stdout.write(helpText(command.topic));
      return;
    case 'version':
      process.stdout.write(`${version()}\n`);
      return;
    case 'error':
      process.stderr.write(`analytics-sim: ${command.message}\n`);
      process.exitCode = 2;
      return;
    case 'conform':
      process.exitCode = await conformCommand(command.options, (text) => process.stdout.write(text));
      return;
    case 'record':
      process.exitCode = await recordCommand(command.options, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
      return;
    case 'serve': {
      // Under npx a SIGTERM to npm kills only the shell between npm and this process: once
      // orphaned, stop as that SIGTERM would have stopped us (a worker stops with its primary).
      if (!isWorkerProcess() && startedByNpm(process.env)) watchParent(() => process.kill(process.pid, 'SIGTERM'));
      const loaded = loadConfig(command.configPath, process.cwd());
      const options = loaded ? applyConfig(command.options, command.given, loaded) : command.options;
      // Read and checked before anything starts: a refused recording stops here, naming the entry.
      const recording = options.replay !== undefined ? readRecordingFile(options.replay) : undefined;
      const fromFile = (field: string): string | undefined => (loaded && field in loaded.config ? `config file ${loaded.path}: ${field}` : undefined);
      const store = await resolveStore(options, {
        store: command.storeSource ?? fromFile('store') ?? '--store',
        storePrefix: command.storePrefixSource ?? fromFile('storePrefix') ?? '--store-prefix',
        storeCa: command.storeCaSource ?? fromFile('storeCa') ?? '--store-ca',
      });
      if (options.workers > 1 && !isWorkerProcess()) {
        // One control token for every worker: drawn here, inherited through the environment.
        if (!isLoopbackHost(options.host) && options.controlToken === undefined) {
          process.env[CONTROL_TOKEN_ENV] = generateControlToken();
          process.env[DRAWN_TOKEN_ENV] = '1';
        }
        const exitCode = await runPrimary(options.workers, {
          stdout: (text) => process.stdout.write(text),
          stderr: (text) => process.stderr.write(text),
        });
        // Every worker is gone; nothing of the primary's (cluster handles, IPC) may hold the exit.
        process.exit(exitCode);
      }
      await serve(options, store, configuredKeys(loaded), loaded?.path ?? null, options.workers > 1, recording);
    }
  }
}

/** The one line and the exit status of what stopped the command: 2 for usage, 1 for anything else. */
function describeFailure(error: unknown): { message: string; exitCode: number } {
  if (error instanceof UsageError) return { message: error.message, exitCode: 2 };
  const err = error as NodeJS.ErrnoException;
  const message =
    err.code === 'EADDRINUSE'
      ? `the port is already in use (${err.message}). Pick another with --port, or --port 0 for a free one.`
      : err.code === 'EACCES'
        ? `not allowed to listen there (${err.message}).`
        : err.message;
  return { message, exitCode: 1 };
}

main().catch(async (error: unknown) => {
  const { message, exitCode } = describeFailure(error);
  // A worker of --workers tells the primary, which prints the line once for every worker.
  if (isWorkerProcess()) await reportFailure(message, exitCode);
  else process.stderr.write(`analytics-sim: ${message}\n`);
  process.exit(exitCode);
});
