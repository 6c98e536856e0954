import { DEFAULT_STORE_PREFIX, MAX_WORKERS, STORE_PREFIX_PATTERN, type SentinelStoreConfig } from '../contract/config.js';
import { isHttpUrl } from './http-url.js';
import { DEFAULT_EXCHANGES_KEPT, MAX_EXCHANGES_KEPT, MAX_HAR_BODY_CHARS } from '../sim/journal/exchange-log.js';
import { DEFAULT_VIRTUAL_START, MAX_INSTANT } from '../sim/clock.js';
import { parseDateInput } from '../sim/query/engine/dates.js';
import { normalizeAllowedOrigin } from '../sim/cors/origins.js';
import type { ScenarioInput } from '../contract/scenario.js';
import { MAX_INGEST_DELAY_MS } from '../contract/control.js';
import { WORLD_LOCALES, WORLD_PRESETS, type WorldConfigInput, type WorldPreset } from '../contract/world.js';
import { DEFAULT_MAX_SANDBOXES, DEFAULT_SANDBOX_IDLE_SECONDS, MAX_SANDBOX_IDLE_SECONDS, MAX_SANDBOXES_CAP } from '../contract/sandboxes.js';
import { suggest } from '../sim/text.js';
import { parseFlags } from './argument-error.js';
import { CONFORM_HELP, CONFORM_HELP_SECTION, parseConformCommand, type ConformOptions } from './conform/options.js';
import { RECORD_HELP, RECORD_HELP_SECTION, parseRecordCommand, type RecordOptions } from './record/options.js';

export { describeArgumentError } from './argument-error.js';
import { parseProfile, type Profile } from '../sim/profile.js';

/** Options of `analytics-sim serve`. */
export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly seed: string;
  readonly clock: 'real' | 'virtual';
  /** Start of the virtual clock, epoch ms. */
  readonly startMs: number | undefined;
  readonly log: boolean;
  /** Scenarios to run from the start: built-in names, paths of JSON files, or (from a config file) whole scenarios. */
  readonly scenarios: readonly (string | ScenarioInput)[];
  /** `off` skips the SPEC 8 limits (benchmarks, end-to-end runs). */
  readonly limits: 'enforce' | 'off';
  /** Page origins allowed by CORS (normalized); empty for the default (any localhost port). */
  readonly allowedOrigins: readonly string[];
  /** Refuse with 400 what would otherwise be ignored or reinterpreted (and sent as a `Warning`). */
  readonly strict: boolean;
  /** `spec` follows SPEC.md where it is explicit; `live` follows the live service. */
  readonly profile: Profile;
  /**
   * `memory` (this process only) or, as given, a Redis store shared by every process using it:
   * a URL (`redis://HOST:PORT[/DB]`, `rediss://…`, `sentinel://…/MASTER`, `redis-cluster://…`)
   * or, from a config file, a Sentinel object; checked by the caller (`src/cli/store-option.ts`).
   */
  readonly store: string | SentinelStoreConfig;
  /** Prefix of every key in the shared store; `undefined` for the default. Only with a Redis store. */
  readonly storePrefix: string | undefined;
  /** The PEM file of the CA that signed a `rediss://` store's certificate; `undefined`: the system CAs. */
  readonly storeCa?: string | undefined;
  /** Processes serving the port through `node:cluster` (1 to {@link MAX_WORKERS}); more than 1 needs a shared store. */
  readonly workers: number;
  /** Seconds a client has to send a request's headers and body (0: no limit). */
  readonly requestTimeout: number;
  /** Seconds a response may wait for a client that does not read it (0: no limit). */
  readonly writeTimeout: number;
  /** Milliseconds from an ingestion route accepting a record to queries seeing it (0: at once). */
  readonly ingestDelay: number;
  /** Believe the forwarded headers (`x-forwarded-for`, …) for the client address of anonymous limits. */
  readonly trustProxy: boolean;
  /** The token `/__sim` requires on a non-loopback host; undefined: generated at start when needed. */
  readonly controlToken: string | undefined;
  /** Characters of each body `GET /__sim/journal.har` keeps (0: none). */
  readonly harBodies: number;
  /** How many of the latest exchanges `GET /__sim/journal.har` holds. */
  readonly harEntries: number;
  /** Where to export one span per request over OTLP/HTTP (an http(s) URL); undefined: no export. */
  readonly otlpEndpoint: string | undefined;
  /** A recording (`analytics-sim record`) to answer matching query parameters from; undefined: none. */
  readonly replay: string | undefined;
  /** Live sandboxes at most (`POST /__sim/sandboxes`; 0: no sandboxes). */
  readonly maxSandboxes: number;
  /** Seconds without a request after which a sandbox is removed (0: never). */
  readonly sandboxIdle: number;
  /**
   * The world to serve instead of the seeded fixtures: `--world PRESET` and `--locale`, over
   * the config file's `world` section; undefined: the seeded fixtures.
   */
  readonly world?: WorldConfigInput | undefined;
}

/** The environment variables `serve` reads: each stands in for its flag when the flag is not given. */
export const STORE_ENV = 'ANALYTICS_SIM_STORE';
/** See {@link STORE_ENV}. */
export const STORE_PREFIX_ENV = 'ANALYTICS_SIM_STORE_PREFIX';
/** See {@link STORE_ENV}. */
export const STORE_CA_ENV = 'ANALYTICS_SIM_STORE_CA';
/** See {@link STORE_ENV}; also how the primary of `--workers` hands a generated token to its workers. */
export const CONTROL_TOKEN_ENV = 'ANALYTICS_SIM_CONTROL_TOKEN';

/** What a control token may be: 16 to 256 letters, digits, `-`, `_`, `.`, `~`, `+`, `/` or `=`. */
export const CONTROL_TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,256}$/;

/** Whether `host` is a loopback address or name: the control plane stays open there. */
export function isLoopbackHost(host: string): boolean {
  return /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i.test(host);
}

/** What the command line asks for. */
export type Command =
  | {
      readonly kind: 'serve';
      /** The options, with defaults for what the command line does not give. */
      readonly options: ServeOptions;
      /** The options the command line or the environment gives (they win over a config file's). */
      readonly given: readonly (keyof ServeOptions)[];
      /** Where `store` came from when `given` has it: `--store` or the environment variable. */
      readonly storeSource?: string;
      /** Where `storePrefix` came from when `given` has it: `--store-prefix` or the environment variable. */
      readonly storePrefixSource?: string;
      /** Where `storeCa` came from when `given` has it: `--store-ca` or the environment variable. */
      readonly storeCaSource?: string;
      /** `--config FILE`, when given. */
      readonly configPath?: string;
    }
  | {
      readonly kind: 'conform';
      /** The deployment to check and how (`src/cli/conform/`). */
      readonly options: ConformOptions;
    }
  | {
      readonly kind: 'record';
      /** The deployment to record and what (`src/cli/record/`). */
      readonly options: RecordOptions;
    }
  /** `topic`: the command whose help was asked for (`analytics-sim serve --help`); none for `analytics-sim --help`. */
  | { readonly kind: 'help'; readonly topic?: 'serve' | 'conform' | 'record' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string };

/** An instant as ISO 8601 without milliseconds (2025-06-02T12:00:00Z). */
function formatIsoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** The flags of `analytics-sim serve`, with the defaults it applies. */
const SERVE_OPTIONS = `  --port <n>            Port to listen on; 0 picks a free one (default 8787)
  --host <addr>         Address to bind (default 127.0.0.1)
  --seed <s>            Seed of the world, secrets, ids and data (default 42)
  --clock real|virtual  real follows the wall clock; virtual moves only through
                        POST /__sim/clock (default real, or virtual with --now)
  --now <instant>       Start of the virtual clock: ISO 8601 or epoch ms; implies
                        --clock virtual. Without it, --clock virtual starts at
                        ${formatIsoSeconds(DEFAULT_VIRTUAL_START)}
  --scenario <s>        Run a fault scenario from the start: a built-in name or a JSON
                        file with a scenario (or an array of them); repeatable.
                        Built-ins: steady, rate-limit-storm, outage-window, flaky-5xx,
                        slow-tail, concurrency-squeeze, brownout, quota-crunch
  --limits enforce|off  off skips the per-endpoint limits, per-key quotas and the
                        concurrency cap, for runs where limits are not under test
                        (default enforce)
  --allowed-origin <o>  A web page origin that may call the API from a browser with
                        credentials (CORS; its session cookie counts): scheme://host[:port],
                        scheme://host:* for any port, or *; repeatable. The simulator's own
                        origin is always allowed. Default: any port of http://localhost,
                        http://127.0.0.1 and http://[::1]
  --strict              Refuse with 400 VALIDATION_ERROR what the service would ignore or
                        reinterpret (unknown or misspelt fields, an unknown time zone, a
                        dropped filter, an organization-wide fallback); without it such
                        answers carry a Warning header per finding
  --profile spec|live   spec follows SPEC.md where it is explicit; live follows the live
                        service on every switch (row shapes of summary_metrics and
                        top_pages, /types meta, rate-limit timing, 429 bodies, auth codes,
                        public types, /track errors, validation). GET /__sim/profile lists
                        the switches; PUT /__sim/profile changes it at run time (default spec)
  --store <url>         Where limits, leases, the clock, the journal, tracked events and
                        key changes live: memory (this process only) or a Redis store,
                        one simulator shared by every process using it:
                        redis://HOST:PORT[/DB] (one Redis; USER:PASSWORD@ before HOST
                        for a password), rediss://… (over TLS),
                        sentinel://HOST:PORT[,HOST:PORT…]/MASTER[/DB] (the master the
                        Sentinels name) or redis-cluster://HOST:PORT[,HOST:PORT…] (a
                        Redis Cluster; one simulator's keys share the hash tag {prefix},
                        so one slot). Env ANALYTICS_SIM_STORE (default memory)
  --store-prefix <name> Prefix of every key in the Redis store, so runs sharing one Redis
                        stay apart: 1 to 64 letters, digits, - _ . or :; only with a
                        Redis store. Env ANALYTICS_SIM_STORE_PREFIX (default ${DEFAULT_STORE_PREFIX})
  --store-ca <file>     PEM file of the CA that signed a rediss:// store's certificate
                        (default: the system CAs). Env ANALYTICS_SIM_STORE_CA
  --workers <n>         Serve the port from n processes (node:cluster), 1 to 64; more
                        than 1 needs a Redis store (default 1)
  --request-timeout <s> Seconds a client has to send a request's headers and body; past
                        it the answer is 408 and the connection closes; 0 for no limit
                        (default 30)
  --write-timeout <s>   Seconds an answer may wait for a client that does not read it;
                        past it the connection is closed and its in-flight slot freed;
                        0 for no limit (default 30)
  --ingest-delay <ms>   Milliseconds from an ingestion route accepting a record to queries
                        seeing it, to test a client against the live pipeline's lag;
                        PUT /__sim/ingest-delay changes it at run time (default 0: what
                        you send is in every answer asked from its instant on)
  --trust-proxy         Take the client address of anonymous limits from cf-connecting-ip,
                        x-forwarded-for or x-real-ip (set by a proxy in front); without it
                        the socket peer is the client, whatever those headers say
  --control-token <t>   On a non-loopback --host, /__sim requires Authorization: Bearer <t>
                        (16 to 256 letters, digits or -._~+/=). Default: one is generated
                        at start and printed. Env ANALYTICS_SIM_CONTROL_TOKEN
  --har-entries <n>     How many of the latest exchanges GET /__sim/journal.har holds as
                        HAR 1.2, 0 to 100000 (default 100)
  --har-bodies <n>      Keep up to n characters (0 to 65536) of each request and answer
                        body of those exchanges (default 0: headers and statuses only)
  --otlp-endpoint <url> Export one span per service request over OTLP/HTTP (JSON) to this
                        collector (a base URL gets /v1/traces): route, outcome, the refusing
                        rule and stage timings; a request's traceparent makes it a child of
                        the caller's span (default: no export)
  --replay <file>       Answer a query parameter asked exactly as one of the recording
                        (analytics-sim record: same type, website, range, time zone,
                        filters, paging) with the recorded rows and a Warning naming it;
                        everything else from the generated world. A recording with an
                        unknown version, a malformed entry or a secret is refused at start
  --max-sandboxes <n>   Sandboxes live at once at most, 0 to ${MAX_SANDBOXES_CAP}: POST /__sim/sandboxes
                        makes an isolated simulator (own seed, clock, journal, limits,
                        keys, data) reached under /__sandbox/<id>/ or with the header
                        x-sim-sandbox: <id>; past the cap creation gets 429; 0 turns
                        sandboxes off (default ${DEFAULT_MAX_SANDBOXES})
  --sandbox-idle <s>    Seconds without a request after which a sandbox is removed, 0 to
                        ${MAX_SANDBOX_IDLE_SECONDS}; 0 keeps them (default ${DEFAULT_SANDBOX_IDLE_SECONDS})
  --world <size>        Serve a generated world instead of the fixtures: small (2
                        organizations, 10 websites), medium (50, 1,000) or large
                        (1,000, 10,000); declare your own in the config file's world
  --locale <code>       Faker locale of a generated world's names and domains: en,
                        en_GB, de, fr, es, it, nl, pt_BR, pl, sv, ja or ko (English
                        when not given); half of each generated website's visitors
                        then live where it is spoken (in faker's towns too, in its
                        first country), with its language; en keeps the worldwide mix
  --log                 Print one line per request (method, path, status, time, request id)
  --config <file>       Read options, scenarios and extra API keys from a JSON file
                        (default: ./analytics-sim.config.json when it exists). A flag
                        wins over its environment variable, which wins over the file
  -h, --help            Show this help
  -v, --version         Print the version
`;

/** What the control plane is, after the options of the serve help. */
const CONTROL_PLANE_NOTE = `The control plane is served at /__sim: health, fixtures (with API key secrets), reset, clock,
scenarios (start and stop at run time), journal (every admission decision;
/__sim/journal/oracle replays it against the rules, /__sim/journal/retry-audit judges how a
client retried), keys (create, change, rotate, revoke, delete API keys; /__sim/audit lists
every change), sessions (POST signs a fixture user in and sets the session cookie) and
sandboxes (POST /__sim/sandboxes: an isolated simulator per parallel test worker, reached under
/__sandbox/<id>/ or with the header x-sim-sandbox: <id>).
It is meant for local use. On a loopback --host (the default) it is open to this machine; on
any other address the banner says the server is reachable from the network, and every /__sim
request needs Authorization: Bearer <control token>.
`;

/** The text of `analytics-sim serve --help`: the serve command and its flags. */
export const SERVE_HELP = `analytics-sim serve: serve the simulated Query API, its ingestion routes and the control plane

Usage:
  analytics-sim serve [options]
  analytics-sim [options]           (serve is the default command)

Options:
${SERVE_OPTIONS}
${CONTROL_PLANE_NOTE}`;

/** The text of `analytics-sim --help`: every command and flag. */
export const HELP = `analytics-sim: a deterministic simulator of the analytics Query API

Usage:
  analytics-sim serve [options]
  analytics-sim conform --target <url> --key <key> [options]
  analytics-sim record --target <url> --key <key> [options]
  analytics-sim --help | --version
  analytics-sim serve --help | analytics-sim conform --help | analytics-sim record --help
                                    (one command's help)

Options (serve):
${SERVE_OPTIONS}
${CONFORM_HELP_SECTION}
${RECORD_HELP_SECTION}
${CONTROL_PLANE_NOTE}`;

/** The help a `help` command prints: one command's, or every command's without a topic. */
export function helpText(topic?: 'serve' | 'conform' | 'record'): string {
  return topic === 'serve' ? SERVE_HELP : topic === 'conform' ? CONFORM_HELP : topic === 'record' ? RECORD_HELP : HELP;
}

function parsePort(text: string): number | null {
  if (!/^\d+$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}

/** Epoch ms, or an ISO 8601 date or datetime (without a zone it is read as UTC). */
export function parseInstant(text: string): number | null {
  if (/^\d{1,16}$/.test(text)) {
    const ms = Number(text);
    return ms <= MAX_INSTANT ? ms : null;
  }
  return parseDateInput(text)?.ms ?? null;
}

/** Seconds from 0 to 3600, decimals allowed, or null. */
function parseSeconds(text: string): number | null {
  if (!/^\d{1,4}(\.\d{1,3})?$/.test(text)) return null;
  const seconds = Number(text);
  return seconds <= 3600 ? seconds : null;
}

/** Whole milliseconds from 0 to {@link MAX_INGEST_DELAY_MS}, or null. */
function parseMilliseconds(text: string): number | null {
  if (!/^\d{1,8}$/.test(text)) return null;
  const ms = Number(text);
  return ms <= MAX_INGEST_DELAY_MS ? ms : null;
}

/** A whole number from 1 to {@link MAX_WORKERS}, or null. */
function parseWorkers(text: string): number | null {
  if (!/^\d{1,3}$/.test(text)) return null;
  const count = Number(text);
  return count >= 1 && count <= MAX_WORKERS ? count : null;
}

/** The flags of `serve` (and of no command). */
const SERVE_FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  clock: { type: 'string' },
  now: { type: 'string' },
  log: { type: 'boolean' },
  scenario: { type: 'string', multiple: true },
  limits: { type: 'string' },
  'allowed-origin': { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  profile: { type: 'string' },
  store: { type: 'string' },
  'store-prefix': { type: 'string' },
  'store-ca': { type: 'string' },
  workers: { type: 'string' },
  'request-timeout': { type: 'string' },
  'write-timeout': { type: 'string' },
  'ingest-delay': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  'control-token': { type: 'string' },
  'otlp-endpoint': { type: 'string' },
  'har-bodies': { type: 'string' },
  'har-entries': { type: 'string' },
  replay: { type: 'string' },
  'max-sandboxes': { type: 'string' },
  'sandbox-idle': { type: 'string' },
  world: { type: 'string' },
  locale: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/**
 * Parses argv (without node and the script) and the environment variables that stand in for
 * flags ({@link STORE_ENV}, {@link STORE_PREFIX_ENV}; an empty one counts as unset). Never
 * throws: bad input becomes an `error` command. A config file is read by the caller
 * (`src/cli/config.ts`); `given` says which options it may not change. The store URL is only
 * carried here; the caller checks it.
 */
export function parseCommand(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Command {
  if (argv[0] === 'conform') return parseConformCommand(argv.slice(1));
  if (argv[0] === 'record') return parseRecordCommand(argv.slice(1));
  const parsed = parseFlags(argv, SERVE_FLAGS, "Try 'analytics-sim --help'.");
  if (typeof parsed === 'string') return { kind: 'error', message: parsed };
  const { values, positionals } = parsed;
  if (values.help) return positionals[0] === 'serve' ? { kind: 'help', topic: 'serve' } : { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command = 'serve', ...rest] = positionals;
  if (command !== 'serve') {
    const near = suggest(command, COMMANDS);
    return { kind: 'error', message: `Unknown command '${command}'.${near ? ` Did you mean ${near}?` : ''} Try 'analytics-sim --help'.` };
  }
  if (rest.length > 0) return { kind: 'error', message: `Unexpected argument '${rest[0]}'.` };
  const port = parsePort(values.port ?? '8787');
  if (port === null) return { kind: 'error', message: `--port must be a number from 0 to 65535 (got '${values.port}').` };
  const clock = values.clock ?? (values.now !== undefined ? 'virtual' : 'real');
  if (clock !== 'real' && clock !== 'virtual') return { kind: 'error', message: `--clock must be real or virtual (got '${clock}').` };
  if (clock === 'real' && values.now !== undefined) {
    return { kind: 'error', message: '--now sets the start of the virtual clock; drop --clock real (or --now).' };
  }
  let startMs: number | undefined;
  if (values.now !== undefined) {
    const at = parseInstant(values.now);
    if (at === null) return { kind: 'error', message: `--now must be an ISO 8601 instant or epoch milliseconds (got '${values.now}').` };
    startMs = at;
  }
  const limits = values.limits ?? 'enforce';
  if (limits !== 'enforce' && limits !== 'off') return { kind: 'error', message: `--limits must be enforce or off (got '${limits}').` };
  const allowedOrigins: string[] = [];
  for (const entry of values['allowed-origin'] ?? []) {
    const normalized = normalizeAllowedOrigin(entry);
    if (!normalized.ok) return { kind: 'error', message: `--allowed-origin: ${normalized.message}.` };
    allowedOrigins.push(normalized.origin);
  }
  const profile = parseProfile(values.profile ?? 'spec');
  if (profile === null) return { kind: 'error', message: `--profile must be spec or live (got '${values.profile}').` };
  const seed = values.seed ?? '42';
  if (seed.length === 0 || seed.length > 128) return { kind: 'error', message: '--seed must be 1 to 128 characters.' };
  const fromEnv = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const storeSource = values.store !== undefined ? '--store' : fromEnv(STORE_ENV) !== undefined ? STORE_ENV : undefined;
  const store = values.store ?? fromEnv(STORE_ENV);
  const storePrefix = values['store-prefix'] ?? fromEnv(STORE_PREFIX_ENV);
  const prefixSource = values['store-prefix'] !== undefined ? '--store-prefix' : storePrefix !== undefined ? STORE_PREFIX_ENV : undefined;
  if (storePrefix !== undefined && !STORE_PREFIX_PATTERN.test(storePrefix)) {
    return { kind: 'error', message: `${prefixSource} must be 1 to 64 letters, digits, -, _, . or : (got '${storePrefix}').` };
  }
  const storeCa = values['store-ca'] ?? fromEnv(STORE_CA_ENV);
  const storeCaSource = values['store-ca'] !== undefined ? '--store-ca' : storeCa !== undefined ? STORE_CA_ENV : undefined;
  const workers = parseWorkers(values.workers ?? '1');
  if (workers === null) return { kind: 'error', message: `--workers must be a whole number from 1 to ${MAX_WORKERS} (got '${values.workers}').` };
  const requestTimeout = parseSeconds(values['request-timeout'] ?? '30');
  if (requestTimeout === null) return { kind: 'error', message: `--request-timeout must be seconds from 0 to 3600 (got '${values['request-timeout']}').` };
  const writeTimeout = parseSeconds(values['write-timeout'] ?? '30');
  if (writeTimeout === null) return { kind: 'error', message: `--write-timeout must be seconds from 0 to 3600 (got '${values['write-timeout']}').` };
  const ingestDelay = parseMilliseconds(values['ingest-delay'] ?? '0');
  if (ingestDelay === null) return { kind: 'error', message: `--ingest-delay must be whole milliseconds from 0 to ${MAX_INGEST_DELAY_MS} (got '${values['ingest-delay']}').` };
  const controlToken = values['control-token'] ?? fromEnv(CONTROL_TOKEN_ENV);
  if (controlToken !== undefined && !CONTROL_TOKEN_PATTERN.test(controlToken)) {
    const source = values['control-token'] !== undefined ? '--control-token' : CONTROL_TOKEN_ENV;
    return { kind: 'error', message: `${source} must be 16 to 256 letters, digits, -, _, ., ~, +, / or =.` };
  }
  const harBodies = /^\d{1,5}$/.test(values['har-bodies'] ?? '0') ? Number(values['har-bodies'] ?? '0') : Number.NaN;
  if (!(harBodies <= MAX_HAR_BODY_CHARS)) return { kind: 'error', message: `--har-bodies must be whole characters from 0 to ${MAX_HAR_BODY_CHARS} (got '${values['har-bodies']}').` };
  const harEntries = /^\d{1,6}$/.test(values['har-entries'] ?? String(DEFAULT_EXCHANGES_KEPT)) ? Number(values['har-entries'] ?? DEFAULT_EXCHANGES_KEPT) : Number.NaN;
  if (!(harEntries <= MAX_EXCHANGES_KEPT)) return { kind: 'error', message: `--har-entries must be whole exchanges from 0 to ${MAX_EXCHANGES_KEPT} (got '${values['har-entries']}').` };
  const otlpEndpoint = values['otlp-endpoint'];
  if (otlpEndpoint !== undefined && !isHttpUrl(otlpEndpoint)) return { kind: 'error', message: `--otlp-endpoint must be an http(s) URL of an OTLP/HTTP collector, such as http://127.0.0.1:4318 (got '${otlpEndpoint}').` };
  const maxSandboxes = /^\d{1,4}$/.test(values['max-sandboxes'] ?? String(DEFAULT_MAX_SANDBOXES)) ? Number(values['max-sandboxes'] ?? DEFAULT_MAX_SANDBOXES) : Number.NaN;
  if (!(maxSandboxes <= MAX_SANDBOXES_CAP)) return { kind: 'error', message: `--max-sandboxes must be a whole number from 0 to ${MAX_SANDBOXES_CAP} (got '${values['max-sandboxes']}').` };
  const sandboxIdle = /^\d{1,5}$/.test(values['sandbox-idle'] ?? String(DEFAULT_SANDBOX_IDLE_SECONDS)) ? Number(values['sandbox-idle'] ?? DEFAULT_SANDBOX_IDLE_SECONDS) : Number.NaN;
  if (!(sandboxIdle <= MAX_SANDBOX_IDLE_SECONDS)) return { kind: 'error', message: `--sandbox-idle must be whole seconds from 0 to ${MAX_SANDBOX_IDLE_SECONDS} (got '${values['sandbox-idle']}').` };
  const preset = values.world;
  if (preset !== undefined && !(preset in WORLD_PRESETS)) return { kind: 'error', message: `--world must be small, medium or large (got '${preset}').` };
  const locale = values.locale;
  if (locale !== undefined && !(WORLD_LOCALES as readonly string[]).includes(locale)) {
    return { kind: 'error', message: `--locale must be one of ${WORLD_LOCALES.join(', ')} (got '${locale}').` };
  }
  const world: WorldConfigInput | undefined =
    preset !== undefined || locale !== undefined
      ? { ...(preset !== undefined ? { preset: preset as WorldPreset } : {}), ...(locale !== undefined ? { locale: locale as WorldConfigInput['locale'] } : {}) }
      : undefined;
  const flagOf: Record<keyof ServeOptions, unknown> = {
    port: values.port,
    host: values.host,
    seed: values.seed,
    clock: values.clock ?? values.now,
    startMs: values.now,
    log: values.log,
    scenarios: values.scenario,
    limits: values.limits,
    allowedOrigins: values['allowed-origin'],
    strict: values.strict,
    profile: values.profile,
    store,
    storePrefix,
    storeCa,
    workers: values.workers,
    requestTimeout: values['request-timeout'],
    writeTimeout: values['write-timeout'],
    ingestDelay: values['ingest-delay'],
    trustProxy: values['trust-proxy'],
    controlToken,
    harBodies: values['har-bodies'],
    harEntries: values['har-entries'],
    otlpEndpoint,
    replay: values.replay,
    maxSandboxes: values['max-sandboxes'],
    sandboxIdle: values['sandbox-idle'],
    world,
  };
  const given = (Object.keys(flagOf) as (keyof ServeOptions)[]).filter((name) => flagOf[name] !== undefined);
  return {
    kind: 'serve',
    given,
    ...(values.config !== undefined ? { configPath: values.config } : {}),
    ...(storeSource !== undefined ? { storeSource } : {}),
    ...(prefixSource !== undefined ? { storePrefixSource: prefixSource } : {}),
    ...(storeCaSource !== undefined ? { storeCaSource } : {}),
    options: {
      port,
      host: values.host ?? '127.0.0.1',
      seed,
      clock,
      startMs,
      log: values.log ?? false,
      scenarios: values.scenario ?? [],
      limits,
      allowedOrigins,
      strict: values.strict ?? false,
      profile,
      store: store ?? 'memory',
      storePrefix,
      ...(storeCa !== undefined ? { storeCa } : {}),
      workers,
      requestTimeout,
      writeTimeout,
      ingestDelay,
      trustProxy: values['trust-proxy'] ?? false,
      controlToken,
      harBodies,
      harEntries,
      otlpEndpoint,
      replay: values.replay,
      maxSandboxes,
      sandboxIdle,
      ...(world !== undefined ? { world } : {}),
    },
  };
}

/** The commands, for "did you mean" on a mistyped one. */
const COMMANDS = ['serve', 'conform', 'record'];

