import type { Scope } from '../../contract/scopes.js';
import type { QueryTypeMeta } from '../../contract/query-response.js';
import type { ShortLink, UptimeMonitor, Website } from '../model/entities.js';
import type { Dictionaries } from '../model/traffic.js';
import type { TrafficReader } from '../traffic-cache.js';
import type { EventReader } from '../ingest/event-store.js';
import type { TimeUnit } from './dates.js';
import type { FilterPlan } from './filters.js';

/** A result row. Counts are numbers; dates are strings. */
export type Row = Record<string, string | number | boolean | null>;

/** Which resource a query type reads. */
export type QueryTarget = 'website' | 'link' | 'monitor';

/** The resource a parameter runs against, after access checks. */
export type QueryScope =
  | {
      readonly kind: 'websites';
      readonly websites: readonly Website[];
      /** Set when the scope is an organization: its own events (sent without a website) belong to it too. */
      readonly organizationId?: string;
    }
  | { readonly kind: 'link'; readonly link: ShortLink }
  | { readonly kind: 'monitor'; readonly monitor: UptimeMonitor };

/** Everything a query type needs to compute its rows. */
export interface RunContext {
  readonly scope: QueryScope;
  /** Inclusive bounds, epoch ms. */
  readonly fromMs: number;
  readonly toMs: number;
  readonly unit: TimeUnit;
  readonly timezone: string;
  readonly filters: FilterPlan;
  /** The simulator clock's current instant. */
  readonly now: number;
  readonly traffic: TrafficReader;
  readonly dictionaries: Dictionaries;
  /** Custom events accepted by `POST /track`. */
  readonly events: EventReader;
}

/** How `/v1/query/compile` renders a type as SQL. */
export interface SqlShape {
  readonly table: string;
  readonly select: readonly string[];
  readonly where?: readonly string[];
  readonly groupBy?: readonly string[];
  readonly orderBy?: string;
}

/**
 * One query type: its public configuration (SPEC 2.3) and its semantics. `run` returns every
 * row in order; the engine pages them. Invariant: each row has exactly `meta.outputFields`.
 */
export interface QueryTypeDefinition {
  readonly name: string;
  readonly target: QueryTarget;
  /** The scope an API key needs to run this type. */
  readonly scope: Scope;
  /** Readable without authentication on a public website. */
  readonly publicAccess: boolean;
  /** Filter fields accepted in addition to (or, with `commonFilters: false`, instead of) the global ones. */
  readonly extraFilters?: readonly string[];
  readonly commonFilters?: boolean;
  readonly customizable: boolean;
  readonly defaultLimit: number;
  /** True for types that ignore the date range (they read "now"); their rows are never cached. */
  readonly skipDateRange?: boolean;
  /** The longest range this type accepts, in days (types that list every record). */
  readonly maxRangeDays?: number;
  /** True for types that read tracked events too: their cached rows are keyed by the store's version. */
  readonly readsTrackedEvents?: boolean;
  readonly meta: QueryTypeMeta;
  readonly sql: SqlShape;
  run(ctx: RunContext): Row[];
}

/** The fields a website type may leave to {@link defineWebsiteType}'s defaults. */
type WebsiteTypeDefaults = 'target' | 'scope' | 'publicAccess' | 'customizable' | 'defaultLimit';

/**
 * Declares a website query type with the defaults most of them share: scope `read:data`,
 * readable on public websites, customizable, 100 rows by default. A field given replaces its
 * default; `target` is always `website`.
 */
export function defineWebsiteType(
  spec: Omit<QueryTypeDefinition, WebsiteTypeDefaults> & Partial<Pick<QueryTypeDefinition, Exclude<WebsiteTypeDefaults, 'target'>>>,
): QueryTypeDefinition {
  return { target: 'website', scope: 'read:data', publicAccess: true, customizable: true, defaultLimit: 100, ...spec };
}
