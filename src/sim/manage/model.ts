import type { FlagOperator, FlagValue } from '../../contract/manage/flags.js';
import type { IncidentImpact, IncidentStatus } from '../../contract/manage/status-pages.js';

/**
 * The management records that only the management routes use. Websites, short links and
 * monitors are the entities of `model/entities.ts` (the Query API reads them too).
 * Instants are epoch milliseconds; records are replaced, never mutated.
 */

/** A public status page: the monitors it shows, in order, and its incidents (stored apart). */
export interface StatusPage {
  readonly id: string;
  readonly organizationId: string;
  /** The website it belongs to; null for the whole organization. */
  readonly websiteId: string | null;
  readonly name: string;
  /** Unique across the service: the public read finds the page by it. */
  readonly slug: string;
  readonly description: string | null;
  /** Only published pages answer the public read. */
  readonly published: boolean;
  readonly monitorIds: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** One entry of an incident's timeline. */
export interface IncidentUpdate {
  readonly id: string;
  readonly status: IncidentStatus;
  readonly message: string;
  readonly createdAt: number;
}

/** An incident of a status page. */
export interface Incident {
  readonly id: string;
  readonly organizationId: string;
  readonly statusPageId: string;
  readonly title: string;
  readonly status: IncidentStatus;
  readonly impact: IncidentImpact;
  /** Oldest first. */
  readonly updates: readonly IncidentUpdate[];
  /** When the incident was last resolved; null while it is open. */
  readonly resolvedAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A targeting rule: first match wins. */
export interface FlagRule {
  readonly attribute: string;
  readonly operator: FlagOperator;
  readonly values: readonly string[];
  readonly value: FlagValue;
}

/** A feature flag with its targeting rules. */
export interface FeatureFlag {
  readonly id: string;
  readonly organizationId: string;
  readonly websiteId: string | null;
  /** Unique in its organization. */
  readonly key: string;
  readonly description: string | null;
  readonly enabled: boolean;
  readonly rolloutPercentage: number;
  readonly rules: readonly FlagRule[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Settings of an organization (its name lives on the organization record). */
export interface OrganizationSettings {
  readonly organizationId: string;
  readonly timezone: string;
  readonly defaultWebsiteId: string | null;
  readonly dataRetentionDays: number;
  readonly allowedOrigins: readonly string[];
  readonly updatedAt: number;
}
