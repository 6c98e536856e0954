import { existsSync } from 'node:fs';
import { configKeySchema, simulatorConfigSchema, type ConfigKey, type SimulatorConfig } from '../contract/config.js';
import { normalizeAllowedOrigin } from '../sim/cors/origins.js';
import { suggest } from '../sim/text.js';
import { parseInstant, type ServeOptions } from './args.js';
import { readJsonFile, UsageError } from './read-json-file.js';

/** The file `analytics-sim serve` reads from the working directory when no `--config` is given. */
export const CONFIG_FILE = 'analytics-sim.config.json';

/** Problems of a config file listed at most; past it the message says how many more there are. */
export const MAX_LISTED_PROBLEMS = 100;

/** A config file that cannot be used; the message names the file and the field. */
export class ConfigError extends UsageError {}

/** A config file read and checked, with where it came from. */
export interface LoadedConfig {
  readonly path: string;
  readonly config: SimulatorConfig;
}

/**
 * Reads the config file: `explicitPath` (an error when missing), else `analytics-sim.config.json`
 * in `cwd` when it exists, else none. Checks it against the schema; every problem is named.
 */
export function loadConfig(explicitPath: string | undefined, cwd: string): LoadedConfig | null {
  const path = explicitPath ?? (existsSync(`${cwd}/${CONFIG_FILE}`) ? `${cwd}/${CONFIG_FILE}` : undefined);
  if (path === undefined) return null;
  const parsed = readJsonFile(path, 'config file', ConfigError);
  const result = simulatorConfigSchema.safeParse(parsed);
  if (!result.success) {
    // Every problem, up to a bound: a world section can have many, and each is worth fixing in one go.
    const problems = result.error.issues.slice(0, MAX_LISTED_PROBLEMS).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}${didYouMean(issue)}`);
    const more = result.error.issues.length > MAX_LISTED_PROBLEMS ? ` (and ${result.error.issues.length - MAX_LISTED_PROBLEMS} more)` : '';
    throw new ConfigError(`invalid config file ${path}: ${problems.join('; ')}${more}`);
  }
  return { path, config: result.data };
}

/** " ('prot': did you mean 'port'?)" for each misspelt field of the file or of one of its keys. */
function didYouMean(issue: { code: string; path: readonly PropertyKey[]; keys?: readonly string[] }): string {
  if (issue.code !== 'unrecognized_keys' || !issue.keys) return '';
  const fields = issue.path.length === 0 ? Object.keys(simulatorConfigSchema.shape) : issue.path[0] === 'keys' ? Object.keys(configKeySchema.shape) : [];
  const hints = issue.keys.slice(0, 10).flatMap((key) => {
    const near = suggest(key, fields);
    return near ? [`'${key}': did you mean '${near}'?`] : [];
  });
  return hints.length > 0 ? ` (${hints.join('; ')})` : '';
}

/**
 * The options with the config file's values for every option the command line (or the
 * environment variable standing in for a flag) did not give (`given`). Pure; throws
 * {@link ConfigError} for a value the flags would refuse too. The store URL is checked by the
 * caller (`src/cli/store-option.ts`), which names the file when it came from there.
 */
export function applyConfig(options: ServeOptions, given: readonly (keyof ServeOptions)[], loaded: LoadedConfig): ServeOptions {
  const { config, path } = loaded;
  const fromFile = (name: keyof ServeOptions): boolean => !given.includes(name);
  const fail = (field: string, message: string): never => {
    throw new ConfigError(`config file ${path}: ${field}: ${message}`);
  };
  let startMs = options.startMs;
  if (fromFile('startMs') && config.now !== undefined) {
    startMs = parseInstant(String(config.now)) ?? fail('now', `must be an ISO 8601 instant or epoch milliseconds (got '${config.now}')`);
  }
  const clock = fromFile('clock') ? (config.clock ?? (startMs !== undefined ? 'virtual' : options.clock)) : options.clock;
  if (clock === 'real' && startMs !== undefined) fail('clock', 'now sets the start of the virtual clock; it cannot go with clock "real"');
  const allowedOrigins =
    fromFile('allowedOrigins') && config.allowedOrigins !== undefined
      ? config.allowedOrigins.map((entry, i) => {
          const normalized = normalizeAllowedOrigin(entry);
          return normalized.ok ? normalized.origin : fail(`allowedOrigins[${i}]`, normalized.message);
        })
      : options.allowedOrigins;
  const pick = <K extends keyof ServeOptions>(name: K, value: ServeOptions[K] | undefined): ServeOptions[K] =>
    fromFile(name) && value !== undefined ? value : options[name];
  return {
    port: pick('port', config.port),
    host: pick('host', config.host),
    seed: pick('seed', config.seed === undefined ? undefined : String(config.seed)),
    clock,
    startMs,
    log: pick('log', config.log),
    scenarios: pick('scenarios', config.scenarios),
    limits: pick('limits', config.limits),
    allowedOrigins,
    strict: pick('strict', config.strict),
    profile: pick('profile', config.profile),
    store: pick('store', config.store),
    storePrefix: fromFile('storePrefix') && config.storePrefix !== undefined ? config.storePrefix : options.storePrefix,
    ...(fromFile('storeCa') && config.storeCa !== undefined ? { storeCa: config.storeCa } : options.storeCa !== undefined ? { storeCa: options.storeCa } : {}),
    workers: pick('workers', config.workers),
    requestTimeout: pick('requestTimeout', config.requestTimeout),
    writeTimeout: pick('writeTimeout', config.writeTimeout),
    ingestDelay: pick('ingestDelay', config.ingestDelay),
    trustProxy: pick('trustProxy', config.trustProxy),
    harBodies: pick('harBodies', config.harBodies),
    harEntries: pick('harEntries', config.harEntries),
    otlpEndpoint: pick('otlpEndpoint', config.otlpEndpoint),
    replay: pick('replay', config.replay),
    maxSandboxes: pick('maxSandboxes', config.maxSandboxes),
    sandboxIdle: pick('sandboxIdle', config.sandboxIdle),
    controlToken: fromFile('controlToken') && config.controlToken !== undefined ? config.controlToken : options.controlToken,
    ...worldOf(options.world, config.world),
  };
}

/** The file's world section with `--world` and `--locale` over it (a preset given on the command line replaces the file's counts). */
function worldOf(flags: ServeOptions['world'], file: SimulatorConfig['world']): Pick<ServeOptions, 'world'> {
  if (file === undefined) return flags !== undefined ? { world: flags } : {};
  if (flags === undefined) return { world: file };
  const { generate, preset, ...rest } = file;
  const counts = flags.preset !== undefined ? { preset: flags.preset } : { ...(preset !== undefined ? { preset } : {}), ...(generate !== undefined ? { generate } : {}) };
  return { world: { ...rest, ...counts, ...(flags.locale !== undefined ? { locale: flags.locale } : {}) } };
}

/** The keys a config file adds to the world (none without a file). */
export function configuredKeys(loaded: LoadedConfig | null): readonly ConfigKey[] {
  return loaded?.config.keys ?? [];
}
