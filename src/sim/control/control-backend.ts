import type { ClockRequest } from '../../contract/control.js';
import type { FixturesListing } from '../../contract/fixtures.js';
import type { LimitsReport } from '../../contract/limits.js';
import type { Scenario } from '../../contract/scenario.js';
import type { Admission } from '../admission/admission.js';
import { readLimits } from '../admission/limits-report.js';
import { replayJournal, type OracleReport } from '../admission/oracle.js';
import type { ClockSnapshot, SimClock } from '../clock.js';
import { conflict, notFound, validationError, type SimError } from '../errors.js';
import type { ActiveScenario, ScenarioRunner } from '../faults/scenario-runner.js';
import { filterEntries, type JournalEntry, type JournalInfo, type JournalQuery } from '../journal/journal.js';
import type { SharedStore } from '../store/shared-store.js';
import type { MetricsRenderer, MetricsSnapshot } from '../metrics/request-counters.js';
import { readMetrics, type SimMetrics } from '../metrics/sim-metrics.js';
import { auditRetries, type RetryAudit, type RetryPolicy } from '../journal/retry-audit.js';
import { buildHar } from '../journal/har.js';
import type { Har } from '../../contract/har.js';
import { VERSION } from '../../version.js';
import { parseDateInput } from '../query/engine/dates.js';
import type { SimState } from '../state.js';
import { suggest } from '../text.js';
import { listFixtures } from './fixtures-listing.js';
import type { ListPage } from '../routing/list-page.js';
import { createSandboxHostSlot, type SandboxHostSlot } from './sandbox-host.js';
import { followsLive, PROFILE_SWITCHES, PROFILES, type Profile } from '../profile.js';

/** What the backend works on: the simulator's parts, read when each call is made. */
export interface ControlBackendParts {
  seed(): string;
  readonly clock: SimClock;
  readonly admission: Admission;
  scenarios(): ScenarioRunner;
  readonly catalog: ReadonlyMap<string, Scenario>;
  state(): SimState;
  /** Back to the seeded state (optionally with another seed). */
  reset(seed?: string): Promise<void>;
  /** The profile setting, kept across resets. */
  readonly profile: { get(): Profile; set(profile: Profile): void };
  /** The ingestion delay setting (ms), kept across resets. */
  readonly ingestDelay: { get(): number; set(ms: number): void };
  /** This process's decision counters and the renderer an HTTP adapter installed. */
  readonly metrics: SimMetrics;
  /** The shared store when several processes serve the simulator: its journal, windows and leases are the ones read. */
  shared(): SharedStore | null;
}

/** `GET /__sim/profile`: the profile in force and every switch it sets. */
export interface ProfileReport {
  readonly profile: Profile;
  readonly profiles: readonly Profile[];
  readonly switches: readonly { readonly name: string; readonly follows: Profile; readonly spec: string; readonly live: string }[];
}

/** `GET /__sim/ingest-delay`: the delay in force and the writes it holds back now. */
export interface IngestDelayReport {
  readonly ms: number;
  readonly pending: number;
}

/** `GET /__sim/health`. */
export interface HealthReport {
  readonly ok: true;
  readonly seed: string;
  readonly clock: ClockSnapshot;
  /** API key requests in flight. */
  readonly inFlight: number;
}

/**
 * The harness operations, once: `/__sim` routes, MSW's control plane and the library API all
 * call these. Operations that can be refused return a {@link SimError} value; the HTTP routes
 * answer it, the library throws it.
 */
export interface ControlBackend {
  health(): Promise<HealthReport>;
  /** The seeded world with its secrets, as it stands now; with `page`, one page of each list. */
  fixtures(page?: ListPage): FixturesListing;
  /**
   * Every API key's windows (quota, per-endpoint, ingestion) and in-flight count at the clock's
   * instant, read from the admission store without recording anything; no secrets.
   */
  limits(): Promise<LimitsReport>;
  reset(seed?: string | number): Promise<{ ok: true; seed: string; clock: ClockSnapshot }>;
  readonly profile: {
    report(): ProfileReport;
    /** Switches the profile for every later request. */
    set(profile: Profile): ProfileReport;
  };
  /** `GET /__sim/metrics`: the snapshot, and the renderer an HTTP adapter installed (null without one). */
  readonly metrics: {
    snapshot(): Promise<MetricsSnapshot>;
    renderer(): MetricsRenderer | null;
  };
  /** The ingestion delay: records accepted from now on become visible this long after. */
  readonly ingestDelay: {
    report(): IngestDelayReport;
    /** Sets the delay for records accepted from now on (those held keep their due instant). */
    set(ms: number): IngestDelayReport;
  };
  readonly clock: {
    snapshot(): ClockSnapshot;
    /** Switches mode, sets and/or advances, in that order; 400 when a step is refused. */
    change(request: ClockRequest): ClockSnapshot | SimError;
  };
  /** The journal: this process's, or with a shared store the one every process writes. */
  readonly journal: {
    list(query?: JournalQuery): Promise<JournalEntry[]>;
    info(): Promise<JournalInfo>;
    /** Drops the entries; the limits keep their state. */
    clear(): Promise<JournalInfo>;
    oracle(): Promise<OracleReport>;
    /** The exchanges behind the entries a query selects, as HAR 1.2 (this process's latest exchanges; credentials redacted). */
    har(query?: JournalQuery): Promise<Har>;
    retryAudit(query?: JournalQuery, policy?: Partial<RetryPolicy>): Promise<RetryAudit>;
  };
  /** `/__sim/sandboxes`: the registry an HTTP adapter installed (none in process). */
  readonly sandboxes: SandboxHostSlot;
  readonly scenarios: {
    /** The built-ins that can be started by name. */
    available(): Scenario[];
    /** The running scenarios with the state of each step. */
    list(): ActiveScenario[];
    /** A catalog scenario by name; 404 with a did-you-mean when none has it. */
    find(name: string): Scenario | SimError;
    /** Starts a scenario now; 409 when one of that name is running. */
    start(scenario: Scenario): ActiveScenario | SimError;
    /** Stops one scenario by name, or all; the names stopped. */
    stop(name?: string): string[];
  };
}

function profileReport(profile: Profile): ProfileReport {
  return {
    profile,
    profiles: PROFILES,
    switches: PROFILE_SWITCHES.map((s) => ({ name: s.name, follows: followsLive(profile, s.name) ? 'live' : 'spec', spec: s.spec, live: s.live })),
  };
}

/** Creates the control backend over a simulator's parts. */
export function createControlBackend(parts: ControlBackendParts): ControlBackend {
  const { clock, admission } = parts;
  const { journal } = admission;
  const entries = async (query?: JournalQuery): Promise<JournalEntry[]> => {
    const shared = parts.shared();
    return shared ? filterEntries(await shared.journal.list(), query) : journal.list(query);
  };
  const info = async (): Promise<JournalInfo> => parts.shared()?.journal.info() ?? journal.info();
  const backend: ControlBackend = {
    async health() {
      const shared = parts.shared();
      const state = parts.state();
      return {
        ok: true,
        seed: parts.seed(),
        clock: clock.snapshot(),
        inFlight: shared ? await shared.leases.total() : admission.gate.total(),
        caches: { results: state.results.stats(), traffic: state.traffic.stats() },
        ...(shared ? { store: { location: shared.location, prefix: shared.prefix, dataLoss: shared.dataLoss ?? null } } : {}),
      };
    },
    fixtures: (page) => listFixtures(parts.state(), page),
    limits() {
      const shared = parts.shared();
      if (!shared) return readLimits({ state: parts.state(), store: admission.store, gate: admission.gate, now: clock.now() });
      return readLimits({
        state: parts.state(),
        store: { consume: () => Promise.reject(new Error('read only')), peek: (...args) => shared.windows.peek(...args), clear: () => undefined, size: () => 0 },
        gate: { held: (fingerprint) => shared.leases.held(fingerprint), total: () => shared.leases.total() },
        now: clock.now(),
      });
    },
    async reset(seed) {
      await parts.reset(seed === undefined ? undefined : String(seed));
      return { ok: true, seed: parts.seed(), clock: clock.snapshot() };
    },
    metrics: {
      snapshot: () =>
        readMetrics({
          counters: parts.metrics,
          limits: () => backend.limits(),
          journal: () => backend.journal.info(),
          clock: () => clock.snapshot(),
          shared: parts.shared() !== null,
        }),
      renderer: () => parts.metrics.renderer(),
    },
    ingestDelay: {
      report: () => ({ ms: parts.ingestDelay.get(), pending: parts.state().intake.pending }),
      set(ms) {
        parts.ingestDelay.set(ms);
        return { ms, pending: parts.state().intake.pending };
      },
    },
    profile: {
      report: () => profileReport(parts.profile.get()),
      set(profile) {
        parts.profile.set(profile);
        return profileReport(profile);
      },
    },
    clock: {
      snapshot: () => clock.snapshot(),
      change(request) {
        const steps = [
          request.mode === 'real' ? () => clock.useReal() : undefined,
          request.mode === 'virtual' ? () => clock.useVirtual(request.now === undefined ? undefined : toMs(request.now)) : undefined,
          request.now !== undefined && request.mode !== 'virtual' ? () => clock.set(toMs(request.now as number | string)) : undefined,
          request.advanceMs !== undefined ? () => clock.advance(request.advanceMs as number) : undefined,
        ];
        for (const step of steps) {
          if (!step) continue;
          const change = step();
          if (!change.ok) return validationError([{ field: 'body', message: change.reason }]);
        }
        return clock.snapshot();
      },
    },
    journal: {
      list: entries,
      info,
      async clear() {
        const shared = parts.shared();
        admission.exchanges.clear();
        if (shared) return shared.journal.clear(clock.now());
        journal.clear(clock.now());
        return journal.info();
      },
      har: async (query) => buildHar(await entries(query), admission.exchanges.bySeq(), { name: 'analytics-sim', version: VERSION }, admission.exchanges.bodyChars()),
      oracle: async () => replayJournal(await entries(), await info()),
      retryAudit: async (query, policy) => auditRetries(await entries(query), policy),
    },
    sandboxes: createSandboxHostSlot(),
    scenarios: {
      available: () => [...parts.catalog.values()],
      list: () => parts.scenarios().list(clock.now()),
      find(name) {
        const found = parts.catalog.get(name);
        if (found) return found;
        const near = suggest(name, [...parts.catalog.keys()]);
        return notFound({ kind: 'Scenario', id: name }, near ? { hint: `Did you mean '${near}'?` } : {});
      },
      start(scenario) {
        const runner = parts.scenarios();
        const started = runner.start(scenario, clock.now());
        if (!started.ok) return conflict(`Scenario ${scenario.name} is already running`, started.reason);
        return runner.list(clock.now()).find((s) => s.name === scenario.name) as ActiveScenario;
      },
      stop: (name) => parts.scenarios().stop(name),
    },
  };
  return backend;
}

function toMs(instant: number | string): number {
  return typeof instant === 'number' ? instant : (parseDateInput(instant)?.ms ?? Number.NaN);
}
