import type { ApiKeyRecord, Organization, RevenueConfig, ShortLink, UptimeMonitor, User, Website } from './model/entities.js';
import type { World } from './model/world.js';
import { hashSecret } from './auth/key-hash.js';
import { createAnswerMemo, type AnswerMemo } from './query/engine/answer-memo.js';
import { createResultCache, type ResultCache } from './query/engine/result-cache.js';
import type { ReplayIndex } from './query/engine/replay-lookup.js';
import { createTrafficCache, DEFAULT_TRAFFIC_CACHE_BYTES, DEFAULT_TRAFFIC_CACHE_ENTRIES, type TrafficReader } from './traffic-cache.js';
import { createAdminState, type AdminState } from './admin/admin-state.js';
import { createEventStore, type EventStore, type EventStoreLimits } from './ingest/event-store.js';
import { createIngestLedger, type IngestLedger } from './ingest/ingest-ledger.js';
import { createIngestDictionaries, type IngestDictionaries } from './ingest/ingest-dictionaries.js';
import { createProfileStore, type ProfileStore } from './ingest/profile-store.js';
import { createIntakeHold, NO_INTAKE_DELAY, type IntakeHold, type IntakeHoldSource } from './ingest/intake-hold.js';
import { createSetupCheckStore, type SetupCheckStore } from './ingest/setup-checks.js';
import { createManageState, type ManageState } from './manage/store.js';

/**
 * The mutable state of one simulator run, rebuilt from the world on reset. Entities are indexed
 * by id; keys and sessions by the hash of their secret, as the service stores them.
 */
export interface SimState {
  readonly world: World;
  readonly traffic: TrafficReader;
  /** Computed rows of recent queries. */
  readonly results: ResultCache;
  /** The answer texts of repeated queries, forgotten whenever data changes (`query/answer-memo.ts`). */
  readonly answers: AnswerMemo;
  readonly organizations: Map<string, Organization>;
  /** In creation order, which is the order the website list uses. */
  readonly websites: Map<string, Website>;
  readonly users: Map<string, User>;
  readonly links: Map<string, ShortLink>;
  readonly monitors: Map<string, UptimeMonitor>;
  readonly keysById: Map<string, ApiKeyRecord>;
  readonly keysByHash: Map<string, ApiKeyRecord>;
  /** Revenue configurations by webhook hash (the `:hash` of the payment webhooks). */
  readonly revenueConfigs: ReadonlyMap<string, RevenueConfig>;
  /** Session-token hash → user id. */
  readonly sessionsByHash: Map<string, string>;
  /** Presented secret → its hash, bounded (see `hashPresented`). */
  readonly hashMemo: Map<string, string>;
  /** Key administration and issued sessions: the audit log, counters, session expiries. */
  readonly admin: AdminState;
  /** Custom events accepted by `POST /track`, bounded; empty in the seeded state. */
  readonly trackedEvents: EventStore;
  /** What the other ingestion routes accepted (page views, vitals, errors, webhooks …), bounded; empty in the seeded state. */
  readonly ingested: IngestLedger;
  /** The world's string tables grown by ingested values (new paths, referrers …); queries decode through it. */
  readonly dictionaries: IngestDictionaries;
  /** Profiles and aliases of `POST /identify`, bounded; empty in the seeded state. */
  readonly profiles: ProfileStore;
  /** What the ingestion delay still holds back from the three stores above (released as the clock reaches it). */
  readonly intake: IntakeHold;
  /** The AI-traffic setup checks `POST /ai-traffic` recorded (120 s each), bounded. */
  readonly setupChecks: SetupCheckStore;
  /** Status pages, incidents, feature flags and organization settings of the management routes. */
  readonly manage: ManageState;
  /** The recording queries are answered from where they match one (`createSimulator({ replay })`); null: none. */
  readonly replay: ReplayIndex | null;
}

/** Options of {@link createState}. */
export interface StateOptions {
  /** Bounds of the tracked-event store (default a million events). */
  readonly eventStorage?: Partial<EventStoreLimits>;
  /** Estimated bytes of generated traffic kept (default {@link DEFAULT_TRAFFIC_CACHE_BYTES}). */
  readonly trafficCacheBytes?: number;
  /** The clock and the ingestion delay in force (default: no delay). */
  readonly intake?: IntakeHoldSource;
  /** A recording to answer matching query parameters from (default none); kept across resets. */
  readonly replay?: ReplayIndex | null;
}

const byId = <T extends { id: string }>(items: readonly T[]): Map<string, T> => new Map(items.map((item) => [item.id, item]));

/** Builds the initial state of a world. */
export function createState(world: World, options: StateOptions = {}): SimState {
  const websites = [...world.websites].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  const results = createResultCache();
  const intake = createIntakeHold(options.intake ?? NO_INTAKE_DELAY);
  const trackedEvents = createEventStore(options.eventStorage, intake);
  const ingested = createIngestLedger(
    {
      ...(options.eventStorage?.maxEvents !== undefined ? { maxRecords: options.eventStorage.maxEvents } : {}),
      ...(options.eventStorage?.maxChars !== undefined ? { maxChars: options.eventStorage.maxChars } : {}),
    },
    intake,
  );
  const profiles = createProfileStore({}, intake);
  return {
    world,
    traffic: createTrafficCache(world, DEFAULT_TRAFFIC_CACHE_ENTRIES, options.trafficCacheBytes ?? DEFAULT_TRAFFIC_CACHE_BYTES),
    results,
    answers: createAnswerMemo({ results, trackedEvents, ingested, profiles }),
    organizations: byId(world.organizations),
    websites: byId(websites),
    users: byId(world.users),
    links: byId(world.links),
    monitors: byId(world.monitors),
    keysById: byId(world.apiKeys),
    keysByHash: new Map(world.apiKeys.map((key) => [key.keyHash, key])),
    revenueConfigs: new Map((world.revenueConfigs ?? []).map((config) => [config.webhookHash, config])),
    sessionsByHash: new Map(world.fixtureSessions.map((s) => [hashSecret(s.token), s.userId])),
    hashMemo: new Map(),
    admin: createAdminState(world.seed),
    trackedEvents,
    ingested,
    profiles,
    intake,
    setupChecks: createSetupCheckStore(),
    manage: createManageState(world),
    dictionaries: createIngestDictionaries(world.dictionaries),
    replay: options.replay ?? null,
  };
}
