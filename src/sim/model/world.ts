import type {
  ApiKeyRecord,
  Organization,
  RevenueConfig,
  ShortLink,
  UptimeMonitor,
  User,
  Website,
} from './entities.js';
import type { CheckBatch, ClickBatch, Dictionaries, SessionBatch } from './traffic.js';
import type { FeatureFlag, Incident, OrganizationSettings, StatusPage } from '../manage/model.js';

/** A fixture API key as the harness reveals it: the record plus its secret and why it exists. */
export interface FixtureApiKey {
  readonly id: string;
  /** The full secret, `dbdy_` + 48 letters and digits. */
  readonly secret: string;
  /** What a client developer tests with this key, in a few words. */
  readonly purpose: string;
}

/** A fixture user's dashboard session token, revealed by the harness. */
export interface FixtureSession {
  readonly userId: string;
  readonly token: string;
}

/**
 * The seeded world the simulator starts from. Entities are plain data; traffic is computed on
 * demand by pure functions, so any date, past or future, has data without being stored.
 * The core never imports the generator: it receives a {@link WorldFactory}.
 */
export interface World {
  readonly seed: string;
  readonly organizations: readonly Organization[];
  readonly websites: readonly Website[];
  readonly users: readonly User[];
  readonly links: readonly ShortLink[];
  readonly monitors: readonly UptimeMonitor[];
  /** Management fixtures (status pages, incidents, feature flags, organization settings); absent means none. */
  readonly statusPages?: readonly StatusPage[];
  readonly incidents?: readonly Incident[];
  readonly flags?: readonly FeatureFlag[];
  readonly organizationSettings?: readonly OrganizationSettings[];
  /**
   * Where each organization's payment webhooks post and the secrets that sign them (at most one
   * per organization); absent means none, and every webhook answers 404.
   */
  readonly revenueConfigs?: readonly RevenueConfig[];
  /** Stored records only: hashes, never secrets. */
  readonly apiKeys: readonly ApiKeyRecord[];
  /** Secrets of the fixture keys, for the `/__sim/fixtures` listing only. */
  readonly fixtureKeys: readonly FixtureApiKey[];
  /** Session tokens of the fixture users, for the `/__sim/fixtures` listing only. */
  readonly fixtureSessions: readonly FixtureSession[];
  readonly dictionaries: Dictionaries;
  /** Sessions of `website` on UTC day `day` (days since epoch). Pure; callers cache. */
  sessions(website: Website, day: number): SessionBatch;
  /** Clicks of `link` on UTC day `day`. Pure; callers cache. */
  clicks(link: ShortLink, day: number): ClickBatch;
  /** Checks of `monitor` on UTC day `day`. Pure; callers cache. */
  checks(monitor: UptimeMonitor, day: number): CheckBatch;
}

/** Builds the world for a seed. Must be pure: the same seed gives an equal world. */
export type WorldFactory = (seed: string) => World;

/** Milliseconds in a UTC day. */
export const DAY_MS = 86_400_000;
