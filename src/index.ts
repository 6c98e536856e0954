/**
 * analytics-sim as a library: a deterministic simulator of the analytics Query API.
 *
 * ```ts
 * import { createSimulator } from 'analytics-sim';
 * const sim = createSimulator({ seed: 42 });
 * const res = await sim.handle({ method: 'GET', path: '/v1/query/types', query: {}, headers: {} });
 * ```
 */
import { createSimulatorFetch, type SimulatorFetch } from './fetch/simulator-fetch.js';
import type { WorldConfigInput } from './contract/world.js';
import { createDeclaredWorldFactory } from './fixtures/declared-world.js';
import { createSeededWorld } from './fixtures/world.js';
import { BUILT_IN_SCENARIOS } from './scenarios/registry.js';
import {
  createSimulator as createSimulatorWithWorld,
  type Simulator as CoreSimulator,
  type SimulatorOptions,
} from './sim/simulator.js';

/** A simulator, with a `fetch` of its own for clients that take a custom one. */
export interface Simulator extends CoreSimulator {
  /**
   * A WHATWG-compatible `fetch` answered in process (Request in, Response out): pass it to the
   * official SDK, openapi-fetch, ky or anything that takes a `fetch`. Any URL reaches the
   * simulator (its path and query count); a bare path is resolved against
   * `http://analytics.test`. The same bytes as over HTTP, without a socket or MSW.
   */
  readonly fetch: SimulatorFetch;
}

/** What {@link createSimulator} takes: the core's options, and a declared world. */
export interface CreateSimulatorOptions extends Partial<SimulatorOptions> {
  /**
   * A world of your own instead of the seeded fixtures (the config file's `world` section):
   * declared organizations, websites (your own ids, domains, pages, events) and keys, plus a
   * `preset` or `generate` counts of generated ones. Checked at once: a `WorldConfigError`
   * lists every problem (so a section read from JSON, or built with widened types, is accepted
   * as it is and checked then). Not with `createWorld`.
   */
  readonly world?: WorldConfigInput | Readonly<Record<string, unknown>>;
}

/**
 * Creates a simulator over the seeded fixture world. Defaults: seed 42, virtual clock at
 * 2025-06-02T12:00:00Z. Pass `world` to declare a world (or generate one of a preset size),
 * or `createWorld` to use a world factory of your own.
 */
export function createSimulator(options: CreateSimulatorOptions = {}): Simulator {
  const { world, ...rest } = options;
  if (world !== undefined && rest.createWorld !== undefined) throw new TypeError('createSimulator: give world or createWorld, not both');
  const createWorld = world !== undefined ? createDeclaredWorldFactory(world) : createSeededWorld;
  const simulator = createSimulatorWithWorld({ createWorld, catalog: BUILT_IN_SCENARIOS, ...rest });
  return Object.assign(simulator, { fetch: createSimulatorFetch(simulator) });
}

export { createSeededWorld } from './fixtures/world.js';
export { createDeclaredWorldFactory, parseWorldConfig, WorldConfigError } from './fixtures/declared-world.js';
export {
  worldConfigSchema,
  WORLD_PRESETS,
  WORLD_LOCALES,
  MAX_WORLD_ORGANIZATIONS,
  MAX_WORLD_WEBSITES,
  MAX_WORLD_KEYS,
  type WorldConfig,
  type WorldConfigInput,
  type WorldPreset,
} from './contract/world.js';
export type { SimulatorOptions, ScenarioControl } from './sim/simulator.js';
export { createSimulatorFetch, type SimulatorFetch, type SimulatorFetchOptions } from './fetch/simulator-fetch.js';
export { BUILT_IN_SCENARIOS } from './scenarios/registry.js';
export { scenarioSchema, type Scenario, type ScenarioInput } from './contract/scenario.js';
export type { ActiveScenario, StepRef } from './sim/faults/scenario-runner.js';
export { MAX_BODY_BYTES, type SimRequest, type SimResponse, type HandleOptions } from './sim/messages.js';
export type { SimClock, ClockMode, ClockSnapshot } from './sim/clock.js';
export type { World, WorldFactory } from './sim/model/world.js';
export { DEFAULT_VIRTUAL_START } from './sim/clock.js';
export { replayJournal, type OracleReport, type Disagreement } from './sim/admission/oracle.js';
export type { Journal, JournalEntry, JournalInfo, JournalQuery, WindowCheck } from './sim/journal/journal.js';
export { createMemoryStore, type AdmissionStore } from './sim/admission/store.js';
export type { WindowDecision } from './sim/admission/sliding-log.js';
export { CONCURRENCY_CAP, DEFAULT_KEY_QUOTA, ENDPOINT_LIMITS, INGEST_LIMIT, ingestRule } from './sim/admission/rules.js';
export { auditRetries, isRetryable, DEFAULT_RETRY_POLICY } from './sim/journal/retry-audit.js';
export type { RetryAudit, RetryChain, RetryPolicy, RetryViolation, RetryViolationKind } from './sim/journal/retry-audit.js';
export { expectRetriesCompliant, RetryComplianceError } from './testing/expect-retries.js';
export { SimulatorAdminError, type KeyAdmin, type SessionAdmin, type AdminCallOptions } from './sim/admin/admin-api.js';
export type { ApiKeyView, IssuedKey, AuditRecord, AuditKind, CreateKeyRequest, UpdateKeyRequest } from './contract/keys.js';
export type { SignInResponse } from './contract/sessions.js';
export { DEFAULT_ALLOWED_ORIGINS } from './sim/cors/origins.js';
export { trackEventSchema, trackBodySchema, trackResponseSchema, TRACK_BATCH_MAX, type TrackEvent, type TrackBody, type TrackResponse } from './contract/track.js';
export { DEFAULT_EVENT_STORE_LIMITS } from './sim/ingest/event-store.js';
export { PROFILES, PROFILE_SWITCHES, type Profile, type ProfileSwitch, type SwitchName } from './sim/profile.js';
export { recordingSchema, parseRecording, RECORDING_VERSION, MAX_RECORDING_ENTRIES, MAX_RECORDING_BYTES, type Recording, type RecordingInput, type RecordingEntry } from './contract/recording.js';
export { RecordingRefused } from './sim/query/engine/replay-index.js';
