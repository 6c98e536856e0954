import type { Organization } from '../model/entities.js';
import type { World } from '../model/world.js';
import { createRandom } from '../random.js';
import type { FeatureFlag, Incident, OrganizationSettings, StatusPage } from './model.js';

const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Issues ids of records created at run time: `<prefix>_` + a base-36 counter (4 digits) + 8
 * characters of the stream `manage-ids` of the seed. The n-th id is a function of (seed, n), and
 * ids of one instant sort in creation order.
 */
export interface IdSource {
  next(prefix: string): string;
  /** `length` letters and digits from the same stream (generated link slugs). */
  token(length: number): string;
}

export function createIdSource(seed: string): IdSource {
  const stream = createRandom(seed).fork('manage-ids');
  let counter = 0;
  return {
    next(prefix) {
      counter += 1;
      return `${prefix}_${counter.toString(36).padStart(4, '0')}${stream.string(8, LOWER_ALPHANUMERIC)}`;
    },
    token: (length) => stream.string(length, LOWER_ALPHANUMERIC),
  };
}

/** Management records kept by the simulator beyond the websites, links and monitors of `SimState`. */
export interface ManageState {
  /** In creation order. */
  readonly statusPages: Map<string, StatusPage>;
  readonly incidents: Map<string, Incident>;
  readonly flags: Map<string, FeatureFlag>;
  /** By organization id; every organization has settings. */
  readonly settings: Map<string, OrganizationSettings>;
  readonly ids: IdSource;
}

/** Settings of an organization the world has none for. */
export function defaultSettings(organization: Organization): OrganizationSettings {
  return {
    organizationId: organization.id,
    timezone: 'UTC',
    defaultWebsiteId: null,
    dataRetentionDays: 365,
    allowedOrigins: [],
    updatedAt: organization.createdAt,
  };
}

/** The management state of a fresh world (and of every reset). */
export function createManageState(world: World): ManageState {
  const seeded = new Map((world.organizationSettings ?? []).map((s) => [s.organizationId, s]));
  return {
    statusPages: new Map((world.statusPages ?? []).map((p) => [p.id, p])),
    incidents: new Map((world.incidents ?? []).map((i) => [i.id, i])),
    flags: new Map((world.flags ?? []).map((f) => [f.id, f])),
    settings: new Map(world.organizations.map((o) => [o.id, seeded.get(o.id) ?? defaultSettings(o)])),
    ids: createIdSource(world.seed),
  };
}
