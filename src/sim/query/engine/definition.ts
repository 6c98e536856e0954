import type { Scope } from '../../../contract/scopes.js';
import type { LiveQueryTypeMeta, RowValue } from '../../../contract/query-response.js';
import type { ShortLink, UptimeMonitor, Website } from '../../model/entities.js';
import type { Dictionaries } from '../../model/traffic.js';
import type { Derivation, TrafficReader } from '../../traffic-cache.js';
import type { EventReader } from '../../ingest/event-store.js';
import type { IngestLedger } from '../../ingest/ingest-ledger.js';
import type { ProfileReader } from '../../ingest/profile-store.js';
import type { TimeUnit } from './dates.js';
import type { FilterPlan } from './filters.js';
import { followsLive, type Profile } from '../../profile.js';
import type { Catalogue } from './catalogue.js';
import { runToEnd, type PassSteps } from './pass-steps.js';
import { fieldTypes, liveMeta, type DeclaredMeta, type FieldDeclaration, type FieldType } from './fields.js';

/** A result row. Counts are numbers; dates are strings; a few types nest lists or objects. */
export type Row = Record<string, RowValue>;

/** Which resource a query type reads. */
export type QueryTarget = 'website' | 'link' | 'monitor';


/**
 * A live builder family's name: the name of its folder under `src/sim/query/families/`
 * (`registry.ts` lists the families).
 */
export type QueryFamily = string;

/**
 * A family as its declarations name it: its name, and what its types read unless a type says
 * otherwise: the `table` of their default SQL (`analytics.events` when unset) and the records
 * their pass `derives` on every day of their range (none when unset).
 */
export interface QueryFamilySpec {
  readonly name: QueryFamily;
  readonly table?: string;
  readonly derives?: readonly DerivationSource[];
  /** Its rows are observed up to the instant of the request, whatever the range (retention). */
  readonly observedAtNow?: boolean;
  /** It reads the tracked events and ingested records of every day, not only its range's. */
  readonly readsEveryDay?: boolean;
  /** It reads the profiles and aliases of `POST /identify`. */
  readonly readsProfiles?: boolean;
  /**
   * The words of its types that their declarations leave out (`fields`, `meta`): its
   * `<family>-catalogue.json`, read by `readCatalogue` (`catalogue.ts`).
   */
  readonly catalogue?: Catalogue;
}

export type { FieldType } from './fields.js';

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
  /** Inclusive bounds, epoch ms. `toMs` never passes the clock's now: there is no future data. */
  readonly fromMs: number;
  readonly toMs: number;
  /** The range as requested, before the cut at now (for types that report the range they cover). */
  readonly requestedToMs: number;
  readonly unit: TimeUnit;
  readonly timezone: string;
  readonly filters: FilterPlan;
  /** The simulator clock's current instant. */
  readonly now: number;
  readonly traffic: TrafficReader;
  readonly dictionaries: Dictionaries;
  /** Custom events accepted by `POST /track`. */
  readonly events: EventReader;
  /**
   * What the other ingestion routes accepted, per kind, website and day. A family adds a
   * website-day's records of its kinds to the generated traffic of that day.
   */
  readonly ingested: IngestLedger;
  /** Profiles and aliases of `POST /identify` (the profile types link an aliased visitor to its profile). */
  readonly profiles: ProfileReader;
  /**
   * For types that page themselves (`paging: 'self'`): the request's `limit` (undefined when it
   * sent none, so the type's own default applies) and the offset of the requested page.
   */
  readonly limit: number | undefined;
  readonly offset: number;
  /**
   * A value kept across runs of this parameter with the same range, scope, zone, filters and
   * profile (whatever tracked events, page or order), made by `make` the first time: `part`
   * names it within the type. For work the next run extends instead of redoing, such as a fold
   * over tracked events that only the events appended since need to bring up to date. The value
   * may be dropped at any time (a small LRU, emptied with the caches), so it must never be the
   * only record of anything.
   */
  memo<T>(part: string, make: () => T): T;
  /** {@link RunContext.memo} made by a pass in pieces: its steps run only when nothing is kept. */
  memoSteps<T>(part: string, make: () => PassSteps<T>): PassSteps<T>;
}

/**
 * A derivation a type's pass reads (errors, vitals, device details …): fixed, or made over the
 * world's string tables. Resolve it with {@link derivationOf}.
 */
export type DerivationSource = Derivation<unknown> | ((dictionaries: Dictionaries) => Derivation<unknown>);

/** The derivation a {@link DerivationSource} stands for over `dictionaries`. */
export function derivationOf(source: DerivationSource, dictionaries: Dictionaries): Derivation<unknown> {
  return typeof source === 'function' ? source(dictionaries) : source;
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
 * The SPEC.md shape of a type whose rows SPEC.md shows explicitly (`summary_metrics`,
 * `top_pages`): served under the spec profile instead of the live rows.
 */
export interface SpecShape {
  readonly fields: readonly string[];
  run(ctx: RunContext): Row[];
  /** The same rows in pieces ({@link QueryTypeDefinition.steps}); `run` is then these driven to their end. */
  readonly steps?: (ctx: RunContext) => PassSteps<Row[]>;
}

/**
 * One query type: its public configuration (SPEC 2.3), its live facts and its semantics. `run`
 * returns the live rows, every row in order; the engine pages them unless the type pages itself.
 * Invariant: each row of `run` has exactly the keys of `fields`, in that order, with values of
 * those types; each row of `spec.run` has exactly `spec.fields`.
 */
export interface QueryTypeDefinition {
  readonly name: string;
  readonly family: QueryFamily;
  readonly target: QueryTarget;
  /** The scope an API key needs to run this type. */
  readonly scope: Scope;
  /** Readable without authentication on a public website, per the live service's current list. */
  readonly publicAccess: boolean;
  /** Readable without authentication per the older, broader list (the spec profile's). */
  readonly olderPublicAccess: boolean;
  /** Filter fields the builder accepts in addition to the 14 global ones. */
  readonly extraFilters: readonly string[];
  /** Whether the type accepts the 14 global filter fields (every live type does: `allowedFilterFields` is their union with the builder's). */
  readonly commonFilters: boolean;
  /**
   * The accepted filter fields its query applies, when not all of them: a live custom-SQL
   * builder lists the global fields yet applies only its own (or none). A filter on another
   * accepted field is ignored with a warning. Undefined: every accepted field applies.
   */
  readonly appliedFilters: readonly string[] | undefined;
  /** The live builder's `customizable`; undefined when the builder sets none. */
  readonly liveCustomizable: boolean | undefined;
  /** The live builder's own `limit`; undefined when it sets none. */
  readonly liveLimit: number | undefined;
  /** `customizable` as the spec profile reports it (the live value, true when live has none). */
  readonly customizable: boolean;
  /** `defaultLimit` as the spec profile reports it (the live limit, 100 when live has none). */
  readonly defaultLimit: number;
  /** The plan feature the type needs (402 FEATURE_UNAVAILABLE on a plan without it), per the route version read (the spec profile's). */
  readonly gate: 'error_tracking' | undefined;
  /** The plan feature the newest service gates the type behind (the live profile's, `plan-gate`): `gate`, or more. */
  readonly liveGate: 'error_tracking' | undefined;
  /** Served to the API, hidden from the AI agent's type list, as live. */
  readonly insightsOnly: boolean;
  /**
   * `engine`: the engine pages the rows (LIMIT/OFFSET of a standard builder) and applies
   * `sortBy`; `self`: the type applies `ctx.limit`/`ctx.offset` where its SQL does (custom SQL:
   * many return every row, for example every bucket of a time series) and ignores `sortBy`.
   */
  readonly paging: 'engine' | 'self';
  /** Row fields and their JSON types, in row order: the live select aliases and plugin fields. */
  readonly fields: Readonly<Record<string, FieldType>>;
  /** The live service's meta, as `/types?include_meta=true` sends it under the live profile. */
  readonly meta: LiveQueryTypeMeta;
  /** The SPEC.md row shape, for the types SPEC.md shows. */
  readonly spec: SpecShape | undefined;
  /** True for types that ignore the date range (they read "now"); their rows are never cached. */
  readonly skipDateRange: boolean;
  /** The longest range this type accepts, in days (types that list every record). */
  readonly maxRangeDays: number | undefined;
  /** True for types that read tracked events too: their cached rows are keyed by the store's version. */
  readonly readsTrackedEvents: boolean;
  /** Its rows are observed up to the request's instant: its cache key holds that instant, and its answer is never remembered. */
  readonly observedAtNow: boolean;
  /** Its cache key counts the tracked events and ingested records of every day, not only its range's. */
  readonly readsEveryDay: boolean;
  /** Its cache key holds the version of the identified profiles of its websites. */
  readonly readsProfiles: boolean;
  /**
   * The derived records its pass reads on every day of its range (and the day before, for
   * records past midnight): a long range derives them in pieces before the pass, with the
   * session days (`prefetch-traffic.ts`), so the pass itself derives nothing. Records read for
   * a few sessions only (the rows of one page) are not listed, nor those a type with
   * {@link QueryTypeDefinition.steps} reads on one path of its pass only (with filters, instead
   * of a digest): its steps count deriving them, so that pass is in pieces too.
   */
  readonly derives: readonly DerivationSource[];
  readonly sql: SqlShape;
  run(ctx: RunContext): Row[];
  /**
   * The same pass in pieces, for the types whose pass over a long range reads too much for one
   * turn of the event loop (every value of a range, every visitor): `run` is this driven to its
   * end. Undefined for the others, whose long ranges read per-day digests.
   */
  readonly steps: ((ctx: RunContext) => PassSteps<Row[]>) | undefined;
}

/** What a declaration gives; {@link defineQueryType} fills the rest. */
export interface QueryTypeSpec {
  readonly name: string;
  /** The family's name, or its {@link QueryFamilySpec} when its types share a table or derivations. */
  readonly family: QueryFamily | QueryFamilySpec;
  readonly target?: QueryTarget;
  readonly scope?: Scope;
  /** On the live service's current public list. */
  readonly publicAccess?: boolean;
  /** On the older public list (defaults to `publicAccess`). */
  readonly olderPublicAccess?: boolean;
  readonly filters?: readonly string[];
  readonly commonFilters?: boolean;
  /** See {@link QueryTypeDefinition.appliedFilters}. */
  readonly appliedFilters?: readonly string[];
  readonly customizable?: boolean;
  readonly limit?: number;
  readonly gate?: 'error_tracking';
  /** Gated by the newest service only (defaults to `gate`). */
  readonly liveGate?: 'error_tracking';
  readonly insightsOnly?: boolean;
  readonly paging?: 'engine' | 'self';
  /**
   * Row fields in row order: a JSON type alone, or made by `text`, `int`, `num`, … (`fields.ts`)
   * with the field's entry in the live meta's `output_fields`. Left out, the family's catalogue
   * gives them (its entry for the type), else `defaultFields`.
   */
  readonly fields?: Readonly<Record<string, FieldDeclaration>>;
  /** The fields of a factory's types whose declaration and catalogue entry give none. */
  readonly defaultFields?: Readonly<Record<string, FieldDeclaration>>;
  /** The live meta but for `output_fields`, which the fields give. Left out, the family's catalogue gives it. */
  readonly meta?: DeclaredMeta;
  readonly spec?: SpecShape;
  readonly skipDateRange?: boolean;
  readonly maxRangeDays?: number;
  readonly readsTrackedEvents?: boolean;
  /** Defaults to the family's `derives` ({@link QueryFamilySpec}), none when it has none. */
  readonly derives?: readonly DerivationSource[];
  /** Defaults to a select of the fields over the family's `table`. */
  readonly sql?: SqlShape;
  /** The rows, every row in order. A declaration gives `run` or `steps`, not both. */
  readonly run?: (ctx: RunContext) => Row[];
  /** The pass in pieces ({@link QueryTypeDefinition.steps}), instead of `run`. */
  readonly steps?: (ctx: RunContext) => PassSteps<Row[]>;
}

/**
 * Declares a query type. Defaults: a website type, scope `read:data` (`read:monitors` for
 * monitor types), not public, the global filters plus `filters`, paged by the engine, and SQL
 * that selects the fields from the family's table.
 */
export function defineQueryType(spec: QueryTypeSpec): QueryTypeDefinition {
  const family: QueryFamilySpec = typeof spec.family === 'string' ? { name: spec.family } : spec.family;
  const { fields, meta } = wordsOf(spec, family);
  const target = spec.target ?? 'website';
  const publicAccess = spec.publicAccess ?? false;
  const { run, steps } = spec;
  if ((run === undefined) === (steps === undefined)) throw new Error(`${spec.name}: its declaration must give run or steps, and not both`);
  // Every definition has the same keys in the same order (one hidden class), so the engine's
  // property reads stay monomorphic across all 155 types.
  return {
    name: spec.name,
    family: family.name,
    target,
    scope: spec.scope ?? (target === 'monitor' ? 'read:monitors' : 'read:data'),
    publicAccess,
    olderPublicAccess: spec.olderPublicAccess ?? publicAccess,
    extraFilters: spec.filters ?? [],
    commonFilters: spec.commonFilters ?? true,
    appliedFilters: spec.appliedFilters,
    liveCustomizable: spec.customizable,
    liveLimit: spec.limit,
    customizable: spec.customizable ?? true,
    defaultLimit: spec.limit ?? 100,
    gate: spec.gate,
    liveGate: spec.liveGate ?? spec.gate,
    insightsOnly: spec.insightsOnly ?? false,
    paging: spec.paging ?? 'engine',
    fields: fieldTypes(fields),
    meta: liveMeta(meta, fields),
    spec: spec.spec,
    skipDateRange: spec.skipDateRange ?? false,
    maxRangeDays: spec.maxRangeDays,
    readsTrackedEvents: spec.readsTrackedEvents ?? false,
    observedAtNow: family.observedAtNow ?? false,
    readsEveryDay: family.readsEveryDay ?? false,
    readsProfiles: family.readsProfiles ?? false,
    derives: spec.derives ?? family.derives ?? [],
    sql: spec.sql ?? {
      table: family.table ?? 'analytics.events',
      select: Object.keys(fields),
      where: ['client_id = {websiteId:String}'],
    },
    run: run ?? ((ctx) => runToEnd((steps as (ctx: RunContext) => PassSteps<Row[]>)(ctx))),
    steps,
  };
}

/**
 * A declaration's fields and meta: its own, or else what its family's catalogue says of it
 * (the fields then a factory's `defaultFields`). Said in both places, or in neither, is a
 * mistake in the declarations: it throws when the registry loads.
 */
function wordsOf(spec: QueryTypeSpec, family: QueryFamilySpec): { fields: Readonly<Record<string, FieldDeclaration>>; meta: DeclaredMeta } {
  const entry = family.catalogue?.entries.get(spec.name);
  const where = family.catalogue?.file ?? `the ${family.name} family's catalogue (it has none)`;
  if (spec.fields !== undefined && entry?.fields !== undefined) throw new Error(`${spec.name}: its fields are declared both in code and in ${where}`);
  if (spec.meta !== undefined && entry?.meta !== undefined) throw new Error(`${spec.name}: its meta is declared both in code and in ${where}`);
  const fields = spec.fields ?? entry?.fields ?? spec.defaultFields;
  const meta = spec.meta ?? entry?.meta;
  if (fields === undefined) throw new Error(`${spec.name}: no fields, neither in its declaration nor in ${where}`);
  if (meta === undefined) throw new Error(`${spec.name}: no meta, neither in its declaration nor in ${where}`);
  return { fields, meta };
}

/** The row field names a type answers with under `profile`. */
export function rowFields(type: QueryTypeDefinition, profile: Profile): readonly string[] {
  return type.spec && !followsLive(profile, 'row-shapes') ? type.spec.fields : Object.keys(type.fields);
}

/**
 * What every type of a family (or of a group of its types) shares: any part of a declaration,
 * and the meta's `category`.
 */
export interface SharedDeclaration extends Partial<Omit<QueryTypeSpec, 'name' | 'fields' | 'meta' | 'run' | 'steps'>> {
  readonly family: QueryFamily | QueryFamilySpec;
  readonly category?: string;
}

/**
 * A declaration under a {@link SharedDeclaration}: what it says overrides what is shared; its
 * meta names a category only where none is shared.
 */
export type DeclarationUnder = Omit<QueryTypeSpec, 'family' | 'meta'> & {
  readonly family?: QueryFamily | QueryFamilySpec;
  readonly meta?: Omit<DeclaredMeta, 'category'> & { readonly category?: string };
};

/**
 * {@link defineQueryType} with what `shared` says filled in: the meta's category right after
 * its description, as the live meta lists it (a meta of the family's catalogue names its own).
 */
export function declareUnder(shared: SharedDeclaration): (spec: DeclarationUnder) => QueryTypeDefinition {
  const { category, ...common } = shared;
  return (spec) => {
    if (spec.meta === undefined) return defineQueryType({ ...common, ...spec, meta: undefined });
    if (category === undefined && spec.meta.category === undefined) throw new Error(`${spec.name}: its meta names no category and none is shared`);
    if (category === undefined || spec.meta.category !== undefined) return defineQueryType({ ...common, ...spec, meta: spec.meta as DeclaredMeta });
    const meta: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(spec.meta)) {
      meta[key] = value;
      if (key === 'description') meta.category = category;
    }
    return defineQueryType({ ...common, ...spec, meta: meta as DeclaredMeta });
  };
}
