import type { FixturesListing } from '../contract/fixtures.js';
import { replayJournal, type OracleReport } from '../sim/admission/oracle.js';
import type { KeyAdmin, SessionAdmin } from '../sim/admin/admin-api.js';
import type { SimClock } from '../sim/clock.js';
import type { JournalEntry, JournalInfo, JournalQuery } from '../sim/journal/journal.js';
import { auditRetries, type RetryAudit, type RetryPolicy } from '../sim/journal/retry-audit.js';
import type { ScenarioControl, Simulator } from '../sim/simulator.js';
import { expectRetriesCompliant } from '../testing/expect-retries.js';

/** A fixture API key as `GET /__sim/fixtures` lists it (the contract's schema). */
export type { FixtureApiKey, FixtureUser } from '../contract/fixtures.js';

/** The seeded world, secrets included, as `GET /__sim/fixtures` lists it (the contract's schema). */
export type SimulatorFixtures = FixturesListing;

/** The journal of admission decisions, with its judges. */
export interface SimulatorJournal {
  /** Decisions, oldest first; the filters of `GET /__sim/journal`. */
  list(query?: JournalQuery): JournalEntry[];
  info(): JournalInfo;
  /** Drops the entries; the limits keep their state. */
  clear(): void;
  /** Judges how clients retried (`GET /__sim/journal/retry-audit`). */
  retryAudit(query?: JournalQuery, policy?: Partial<RetryPolicy>): RetryAudit;
  /** Replays the whole journal against the rules (`GET /__sim/journal/oracle`): `accuracy` 100 when exact. */
  oracle(): OracleReport;
}

/**
 * The programmatic control plane of a simulator behind MSW: what `/__sim` offers over HTTP,
 * as calls, without a request.
 */
export interface SimulatorControl {
  /** The simulator itself (`handle` answers a request in process). */
  readonly simulator: Simulator;
  /** The intercepted API base URL, e.g. `http://analytics.test`. */
  readonly baseUrl: string;
  /** The intercepted ingestion base URL (`baseUrl` unless one was given). */
  readonly ingestUrl: string;
  /** The seed in force (it changes with `reset(seed)`). */
  readonly seed: string;
  /** The simulator clock: `advance(ms)`, `set(epochMs)`, `now()`, `snapshot()`. Virtual by default. */
  readonly clock: SimClock;
  readonly journal: SimulatorJournal;
  /** Fault scenarios: `start(name | definition)`, `stop(name?)`, `list()`. */
  readonly scenarios: ScenarioControl;
  /** API key administration and the audit log. */
  readonly keys: KeyAdmin;
  /** Dashboard sessions of fixture users. */
  readonly sessions: SessionAdmin;
  /** The seeded world with API key secrets and session tokens. */
  fixtures(): SimulatorFixtures;
  /** The secret of a fixture API key (`key_acme_read`, …); throws when the key has none. */
  secretOf(keyId: string): string;
  /** `baseUrl` joined with a path: `url('/v1/query')`. */
  url(path: string): string;
  /** Back to the seeded state (optionally with another seed): clock, limits, journal, records, scenarios. */
  reset(seed?: string | number): Promise<void>;
  /** Throws a readable error listing every retry that broke SPEC 8.4 rule 4; returns the audit otherwise. */
  expectRetriesCompliant(policy?: Partial<RetryPolicy>): RetryAudit;
}

/** Builds the control plane of a simulator mounted at `baseUrl` and `ingestUrl`: the simulator's control backend as calls. */
export function controlPlane(simulator: Simulator, urls: { baseUrl: string; ingestUrl: string }): SimulatorControl {
  const { journal } = simulator;
  const fixtures = (): SimulatorFixtures => simulator.control.fixtures();
  return {
    simulator,
    baseUrl: urls.baseUrl,
    ingestUrl: urls.ingestUrl,
    get seed() {
      return simulator.seed;
    },
    clock: simulator.clock,
    journal: {
      list: (query) => journal.list(query),
      info: () => journal.info(),
      clear: () => {
        journal.clear(simulator.clock.now());
      },
      retryAudit: (query, policy) => auditRetries(journal.list(query), policy),
      oracle: () => replayJournal(journal.list(), journal.info()),
    },
    scenarios: simulator.scenarios,
    keys: simulator.keys,
    sessions: simulator.sessions,
    fixtures,
    secretOf(keyId) {
      const key = fixtures().apiKeys.find((k) => k.id === keyId);
      if (!key) throw new Error(`No fixture API key '${keyId}'. Fixture keys: ${fixtures().apiKeys.map((k) => k.id).join(', ')}`);
      if (key.secret === null) throw new Error(`The fixture key '${keyId}' has no secret to show (rotated, or created at run time: keep the secret keys.create returned).`);
      return key.secret;
    },
    url: (path) => `${urls.baseUrl}${path.startsWith('/') ? path : `/${path}`}`,
    reset: (seed) => simulator.reset(seed),
    expectRetriesCompliant: (policy) => expectRetriesCompliant(simulator, policy),
  };
}
