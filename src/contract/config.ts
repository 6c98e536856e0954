import { z } from 'zod';
import { ingestDelayMsSchema, instantSchema } from './control.js';
import { keyQuotaInputSchema } from './keys.js';
import { DEFAULT_MAX_SANDBOXES, DEFAULT_SANDBOX_IDLE_SECONDS, MAX_SANDBOX_IDLE_SECONDS, MAX_SANDBOXES_CAP } from './sandboxes.js';
import { scenarioSchema } from './scenario.js';
import { scopeSchema } from './scopes.js';
import { worldConfigSchema } from './world.js';

/**
 * A key the configuration adds to the seeded world. It is part of the world: listed in
 * `/__sim/fixtures` with its secret, and back after every reset. Without `secret` one is drawn
 * from the seed, as for the fixture keys; with one, clients can keep a key in their own config.
 */
export const configKeySchema = z
  .object({
    id: z.string().regex(/^key_[A-Za-z0-9_-]{1,64}$/, 'an id of the form key_ followed by 1 to 64 letters, digits, _ or -'),
    name: z.string().trim().min(1).max(100).optional(),
    organizationId: z.string().min(1).max(100),
    /** The owner; by default the first member of the organization. */
    userId: z.string().min(1).max(100).optional(),
    scopes: z.array(scopeSchema).min(1).max(20),
    /** Website-specific access (SPEC 5.4); omitted: the whole organization. */
    websiteIds: z.array(z.string().min(1).max(100)).min(1).max(100).optional(),
    /** `dbdy_` and 48 letters or digits. */
    secret: z
      .string()
      .regex(/^dbdy_[A-Za-z0-9]{48}$/, 'dbdy_ followed by 48 letters or digits')
      .optional(),
    quota: keyQuotaInputSchema.optional(),
    /** Epoch ms or ISO 8601; omitted: never expires. */
    expiresAt: instantSchema.optional(),
    enabled: z.boolean().optional(),
    /** What the key is for, shown in `/__sim/fixtures`. */
    purpose: z.string().max(200).optional(),
  })
  .strict();

export type ConfigKey = z.infer<typeof configKeySchema>;

/**
 * What a store prefix may be (`--store-prefix`, `storePrefix`): 1 to 64 letters, digits, `-`,
 * `_`, `.` or `:`. Every key a simulator writes in a shared store starts with it, so parallel
 * runs with different prefixes never see each other's state.
 */
export const STORE_PREFIX_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The prefix of a shared store's keys when none is given. */
export const DEFAULT_STORE_PREFIX = 'analytics-sim';

/**
 * A store found through Redis Sentinel, as an object (the config file's `store`, or
 * `createRedisStore({ url })`): the Sentinels to ask, the master group they watch, and the
 * credentials of the master and of the Sentinels. The URL form `sentinel://HOST:PORT/MASTER`
 * says the same without the Sentinels' own credentials.
 */
export const sentinelStoreSchema = z
  .object({
    sentinels: z
      .array(z.string().regex(/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)(?::\d{1,5})?$/, 'HOST:PORT'))
      .min(1)
      .max(64)
      .describe('The Sentinels to ask for the master, HOST:PORT each (port 26379 when not given).'),
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'the master group name: letters, digits, -, _ or .').describe('The master group name the Sentinels watch (sentinel monitor NAME …).'),
    db: z.number().int().min(0).max(99999).optional().describe('The database number (default 0).'),
    username: z.string().min(1).max(256).optional().describe('The ACL user of the master and its replicas (default: the default user).'),
    password: z.string().min(1).max(1024).optional().describe('The password of the master and its replicas.'),
    sentinelUsername: z.string().min(1).max(256).optional().describe('The ACL user of the Sentinels, when they ask for one.'),
    sentinelPassword: z.string().min(1).max(1024).optional().describe('The password of the Sentinels, when they ask for one.'),
  })
  .strict();

/** See {@link sentinelStoreSchema}. */
export type SentinelStoreConfig = z.infer<typeof sentinelStoreSchema>;

/** Processes `--workers` may start at most. */
export const MAX_WORKERS = 64;

/**
 * `analytics-sim.config.json`: what `analytics-sim serve` starts with. Every field is optional;
 * a command-line flag overrides the field of the same name.
 */
export const simulatorConfigSchema = z
  .object({
    $schema: z.string().optional().describe('The JSON Schema of this file, for editors (ignored by the simulator).'),
    port: z.number().int().min(0).max(65535).optional().describe('Port to listen on; 0 picks a free one (default 8787).'),
    host: z.string().min(1).max(255).optional().describe('Address to bind (default 127.0.0.1).'),
    seed: z.union([z.string().min(1).max(128), z.number().int()]).optional().describe('Seed of the world, secrets, ids and data (default 42).'),
    clock: z
      .enum(['real', 'virtual'])
      .optional()
      .describe('real follows the wall clock; virtual moves only through POST /__sim/clock (default real, or virtual when now is given).'),
    now: z.union([z.number().int().nonnegative(), z.string().min(1)]).optional().describe('Start of the virtual clock: ISO 8601 or epoch milliseconds.'),
    limits: z.enum(['enforce', 'off']).optional().describe('off skips the per-endpoint limits, per-key quotas and the concurrency cap (default enforce).'),
    strict: z.boolean().optional().describe('Refuse with 400 what the service would ignore or reinterpret, instead of a Warning header.'),
    profile: z
      .enum(['spec', 'live'])
      .optional()
      .describe('spec follows SPEC.md where it is explicit; live follows the live service on every profile switch (default spec).'),
    log: z.boolean().optional().describe('Print one line per request.'),
    store: z
      .union([z.string().min(1).max(2048), sentinelStoreSchema])
      .optional()
      .describe(
        'Where limits, the clock, the journal and the shared state live: memory (default; this process only), or a Redis store shared by every process using it: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss://… (TLS), sentinel://HOST:PORT[,HOST:PORT…]/MASTER[/DB], redis-cluster://HOST:PORT[,HOST:PORT…], or a Sentinel object { sentinels, name, … }. --store and ANALYTICS_SIM_STORE win over it.',
      ),
    storeCa: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('A PEM file of the CA that signed the certificate of a rediss:// store (default: the system CAs). --store-ca and ANALYTICS_SIM_STORE_CA win over it.'),
    storePrefix: z
      .string()
      .regex(STORE_PREFIX_PATTERN, '1 to 64 letters, digits, -, _, . or :')
      .optional()
      .describe(
        `Prefix of every key in a Redis store, so runs sharing one Redis stay apart (default ${DEFAULT_STORE_PREFIX}); only with a Redis store. --store-prefix and ANALYTICS_SIM_STORE_PREFIX win over it.`,
      ),
    workers: z
      .number()
      .int()
      .min(1)
      .max(MAX_WORKERS)
      .optional()
      .describe(`Processes serving the same port (node:cluster), 1 to ${MAX_WORKERS} (default 1); more than 1 needs a Redis store.`),
    requestTimeout: z
      .number()
      .min(0)
      .max(3600)
      .optional()
      .describe("Seconds a client has to send a request's headers and body; past it the answer is 408 and the connection closes; 0 for no limit (default 30)."),
    ingestDelay: ingestDelayMsSchema
      .optional()
      .describe('Milliseconds from an ingestion route accepting a record to queries seeing it, as the live pipeline lags (default 0: visible at once). PUT /__sim/ingest-delay changes it at run time.'),
    writeTimeout: z
      .number()
      .min(0)
      .max(3600)
      .optional()
      .describe('Seconds an answer may wait for a client that does not read it; past it the connection is closed and its in-flight slot freed; 0 for no limit (default 30).'),
    trustProxy: z
      .boolean()
      .optional()
      .describe('Take the client address of anonymous limits from cf-connecting-ip, x-forwarded-for or x-real-ip, set by a proxy in front (default false: the socket peer).'),
    controlToken: z
      .string()
      .regex(/^[A-Za-z0-9._~+/=-]{16,256}$/, '16 to 256 letters, digits, -, _, ., ~, +, / or =')
      .optional()
      .describe('The token every /__sim request must present (Authorization: Bearer) on a non-loopback host (default: generated at start and printed). --control-token and ANALYTICS_SIM_CONTROL_TOKEN win over it.'),
    harEntries: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .describe('How many of the latest exchanges GET /__sim/journal.har holds, as --har-entries (default 100).'),
    harBodies: z
      .number()
      .int()
      .min(0)
      .max(65_536)
      .optional()
      .describe('Characters of each request and answer body GET /__sim/journal.har keeps, as --har-bodies (default 0: headers and statuses only).'),
    otlpEndpoint: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .describe('Export one span per service request over OTLP/HTTP (JSON) to this collector, as --otlp-endpoint (a base URL gets /v1/traces; default: no export).'),
    replay: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe('A recording written by analytics-sim record: query parameters asked exactly as recorded ones get the recorded rows, with a Warning (as --replay; default: none).'),
    maxSandboxes: z
      .number()
      .int()
      .min(0)
      .max(MAX_SANDBOXES_CAP)
      .optional()
      .describe(`Sandboxes live at once at most (POST /__sim/sandboxes; past the cap creation gets 429), 0 to ${MAX_SANDBOXES_CAP}; 0 turns sandboxes off (default ${DEFAULT_MAX_SANDBOXES}), as --max-sandboxes.`),
    sandboxIdle: z
      .number()
      .int()
      .min(0)
      .max(MAX_SANDBOX_IDLE_SECONDS)
      .optional()
      .describe(`Seconds without a request after which a sandbox is removed, 0 for never (default ${DEFAULT_SANDBOX_IDLE_SECONDS}), as --sandbox-idle.`),
    allowedOrigins: z
      .array(z.string().min(1).max(300))
      .max(100)
      .optional()
      .describe('Web page origins that may call the API from a browser with credentials (as --allowed-origin).'),
    scenarios: z
      .array(z.union([z.string().min(1).max(100), scenarioSchema]))
      .max(50)
      .optional()
      .describe('Fault scenarios running from the start: built-in names or whole scenarios.'),
    keys: z.array(configKeySchema).max(1000).optional().describe('API keys added to the world: listed in /__sim/fixtures, back after every reset.'),
    world: worldConfigSchema
      .optional()
      .describe(
        'A world of your own instead of the seeded fixtures: declared organizations, websites (their own ids, domains, pages, events, campaigns) and keys, plus generated ones (preset or generate). --world and --locale win over preset and locale.',
      ),
  })
  .strict();

export type SimulatorConfig = z.infer<typeof simulatorConfigSchema>;

/** The JSON Schema of `analytics-sim.config.json` (what a file may say, defaults not filled in), for editors. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(simulatorConfigSchema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }),
    title: 'analytics-sim.config.json',
    description: 'Options, scenarios and extra API keys of `analytics-sim serve`. Flags given on the command line win.',
  };
}
