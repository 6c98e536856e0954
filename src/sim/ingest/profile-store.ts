import type { ProfileTraits } from '../../contract/ingest.js';
import { createIntakeHold, NO_INTAKE_DELAY, type IntakeHold } from './intake-hold.js';

/**
 * The identified profiles of `POST /identify`, per website: what the service keeps in its
 * Postgres `profiles` and `profile_aliases` tables. A profile is upserted on (website, profile
 * id): its traits merge into the ones it has (a null value deletes a trait), `username` (else
 * `name`) becomes its display name and `email` is kept lower-cased, beside the traits. An alias
 * links a website's raw anonymous id to one profile (the last identify that named it wins).
 *
 * Bounded: at most `maxProfiles` profiles, `maxAliases` aliases and `maxChars` characters of
 * ids and trait text in all; an identify that would pass a bound changes nothing. Empty in the
 * seeded state; a reset makes a new, empty store.
 */

/** A trait value once stored (a null deletes instead). */
export type TraitValue = string | number | boolean;

/** One identified profile. */
export interface IdentifiedProfile {
  readonly websiteId: string;
  readonly profileId: string;
  /** From the `username` trait, else `name`; null when neither was given. */
  readonly displayName: string | null;
  /** The `email` trait, lower-cased; null when none was given. */
  readonly email: string | null;
  /** Every other trait, in first-set order. */
  readonly traits: Readonly<Record<string, TraitValue>>;
  /** The anonymous ids linked to the profile, in first-linked order. */
  readonly anonymousIds: readonly string[];
  /** Epoch ms of the first and the latest identify. */
  readonly firstIdentifiedAt: number;
  readonly lastIdentifiedAt: number;
}

/** What an identify says. */
export interface IdentifyInput {
  readonly websiteId: string;
  readonly profileId: string;
  /** The raw anonymous id to link; null for none. */
  readonly anonymousId: string | null;
  readonly traits: ProfileTraits | null;
}

/** Bounds of a profile store. */
export interface ProfileStoreLimits {
  readonly maxProfiles: number;
  readonly maxAliases: number;
  /** Characters of ids, names and trait text kept at most: a memory bound. */
  readonly maxChars: number;
}

/** Default bounds: 100,000 profiles and aliases, 64 Mi characters. */
export const DEFAULT_PROFILE_STORE_LIMITS: ProfileStoreLimits = { maxProfiles: 100_000, maxAliases: 100_000, maxChars: 64 * 1024 * 1024 };

/** What an identify decided: stored, or nothing changed because a bound would be passed. */
export type IdentifyResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'profiles' | 'aliases' | 'chars' };

/** The read side, as the query families see it. */
export interface ProfileReader {
  /** A website's profile, or undefined. */
  profile(websiteId: string, profileId: string): IdentifiedProfile | undefined;
  /** The profile a website's anonymous id is linked to, or undefined. */
  profileOfAlias(websiteId: string, anonymousId: string): string | undefined;
  /** The first `max` of a website's profiles, in first-identified order. */
  profilesOf(websiteId: string, max: number): readonly IdentifiedProfile[];
  /** How many profiles a website has. */
  countOf(websiteId: string): number;
  /**
   * Identifies that touched any of the websites so far: grows exactly when one of them gained or
   * changed a profile or an alias (query results of the profile types key on it).
   */
  version(websiteIds: readonly string[]): number;
}

/** Which profiles {@link ProfileStore.list} lists: a website's, one profile id's, or every one. */
export interface ProfileFilter {
  readonly websiteId?: string;
  readonly profileId?: string;
}

/** The store of one simulator run. */
export interface ProfileStore extends ProfileReader {
  readonly limits: ProfileStoreLimits;
  /** Profiles kept, all websites. */
  readonly size: number;
  /** Identifies applied so far, all websites: grows whenever any profile or alias changes. */
  readonly changes: number;
  /** Upserts a profile (and its alias) as of `now`: all of it, or nothing when a bound would be passed. */
  identify(input: IdentifyInput, now: number): IdentifyResult;
  /** The profiles the filter selects (`total`) and the first `max` of them, first identified first, over every website. */
  list(filter: ProfileFilter, max: number): { readonly total: number; readonly profiles: readonly IdentifiedProfile[] };
}

interface MutableProfile {
  readonly websiteId: string;
  readonly profileId: string;
  displayName: string | null;
  email: string | null;
  traits: Record<string, TraitValue>;
  readonly anonymousIds: Set<string>;
  readonly firstIdentifiedAt: number;
  lastIdentifiedAt: number;
  chars: number;
  /** Profiles created before this one, all websites: the listing's order. */
  readonly order: number;
}

/** Characters a profile holds, for the memory bound. */
function charsOf(p: Pick<MutableProfile, 'websiteId' | 'profileId' | 'displayName' | 'email' | 'traits'>): number {
  let chars = p.websiteId.length + p.profileId.length + (p.displayName?.length ?? 0) + (p.email?.length ?? 0);
  for (const [name, value] of Object.entries(p.traits)) chars += name.length + String(value).length;
  return chars;
}

const PROMOTED = new Set(['username', 'name', 'email']);

/** The profile after merging traits into it (a new object; the old one is left as it is). */
function merged(base: Pick<MutableProfile, 'displayName' | 'email' | 'traits'>, traits: ProfileTraits): Pick<MutableProfile, 'displayName' | 'email' | 'traits'> {
  const next = { ...base.traits };
  for (const [name, value] of Object.entries(traits)) {
    if (PROMOTED.has(name)) continue;
    if (value === null) delete next[name];
    else next[name] = value;
  }
  let { displayName, email } = base;
  if ('username' in traits || 'name' in traits) {
    // username wins over name; a null clears the display name.
    const value = traits.username ?? traits.name;
    displayName = value === undefined || value === null ? null : String(value);
  }
  if ('email' in traits) email = traits.email === undefined || traits.email === null ? null : String(traits.email).toLowerCase();
  return { displayName, email, traits: next };
}

function snapshot(p: MutableProfile): IdentifiedProfile {
  return {
    websiteId: p.websiteId,
    profileId: p.profileId,
    displayName: p.displayName,
    email: p.email,
    traits: { ...p.traits },
    anonymousIds: [...p.anonymousIds],
    firstIdentifiedAt: p.firstIdentifiedAt,
    lastIdentifiedAt: p.lastIdentifiedAt,
  };
}

/**
 * Creates an empty store. With an ingestion delay (`hold`), an identify is checked against the
 * bounds (counting those still held) when it is accepted and applied once its delay has passed.
 */
export function createProfileStore(limits: Partial<ProfileStoreLimits> = {}, hold: IntakeHold = createIntakeHold(NO_INTAKE_DELAY)): ProfileStore {
  const bounds: ProfileStoreLimits = { ...DEFAULT_PROFILE_STORE_LIMITS, ...limits };
  /** website id → profile id → profile. */
  const profiles = new Map<string, Map<string, MutableProfile>>();
  /** website id → anonymous id → profile id. */
  const aliases = new Map<string, Map<string, string>>();
  /** website id → identifies that changed it. */
  const versions = new Map<string, number>();
  let size = 0;
  let created = 0;
  let changes = 0;
  let aliasCount = 0;
  let chars = 0;
  /** What an identify still held reserves of each bound. */
  const held = { profiles: 0, aliases: 0, chars: 0 };
  /** Characters an identify adds: its profile's growth and a new alias. */
  const charsDelta = (input: IdentifyInput, existing: MutableProfile | undefined, newAlias: boolean): number => {
    const base = existing ?? { websiteId: input.websiteId, profileId: input.profileId, displayName: null, email: null, traits: {} };
    const next = input.traits ? merged(base, input.traits) : base;
    return charsOf({ ...base, ...next }) - (existing?.chars ?? 0) + (newAlias ? (input.anonymousId as string).length : 0);
  };
  /** Applies an identify whose bounds were checked. */
  const write = (input: IdentifyInput, now: number): void => {
    let sites = profiles.get(input.websiteId);
    const existing = sites?.get(input.profileId);
    const siteAliases = aliases.get(input.websiteId);
    const linked = input.anonymousId === null ? undefined : siteAliases?.get(input.anonymousId);
    const newAlias = input.anonymousId !== null && linked === undefined;
    const base = existing ?? { websiteId: input.websiteId, profileId: input.profileId, displayName: null, email: null, traits: {} };
    const next = input.traits ? merged(base, input.traits) : { displayName: base.displayName, email: base.email, traits: base.traits };
    const nextChars = charsOf({ ...base, ...next });
    const delta = nextChars - (existing?.chars ?? 0) + (newAlias ? (input.anonymousId as string).length : 0);
    if (!sites) profiles.set(input.websiteId, (sites = new Map()));
    let profile = existing;
    if (!profile) {
      profile = { ...base, ...next, anonymousIds: new Set(), firstIdentifiedAt: now, lastIdentifiedAt: now, chars: 0, order: created++ };
      sites.set(input.profileId, profile);
      size++;
    } else {
      profile.displayName = next.displayName;
      profile.email = next.email;
      profile.traits = next.traits;
      profile.lastIdentifiedAt = now;
    }
    if (input.anonymousId !== null && linked !== input.profileId) {
      let map = siteAliases;
      if (!map) aliases.set(input.websiteId, (map = new Map()));
      if (linked !== undefined) sites.get(linked)?.anonymousIds.delete(input.anonymousId);
      else aliasCount++;
      map.set(input.anonymousId, input.profileId);
      profile.anonymousIds.add(input.anonymousId);
    }
    chars += delta;
    profile.chars = nextChars;
    versions.set(input.websiteId, (versions.get(input.websiteId) ?? 0) + 1);
    changes++;
  };
  return {
    limits: bounds,
    get size() {
      return size;
    },
    get changes() {
      return changes;
    },
    identify(input, now) {
      const sites = profiles.get(input.websiteId);
      const existing = sites?.get(input.profileId);
      if (!existing && size + held.profiles >= bounds.maxProfiles) return { ok: false, reason: 'profiles' };
      const linked = input.anonymousId === null ? undefined : aliases.get(input.websiteId)?.get(input.anonymousId);
      const newAlias = input.anonymousId !== null && linked === undefined;
      if (newAlias && aliasCount + held.aliases >= bounds.maxAliases) return { ok: false, reason: 'aliases' };
      const delta = charsDelta(input, existing, newAlias);
      if (chars + held.chars + delta > bounds.maxChars) return { ok: false, reason: 'chars' };
      // Every bound holds: apply, now or once the ingestion delay has passed (reserving its share meanwhile).
      const reserved = { profiles: existing ? 0 : 1, aliases: newAlias ? 1 : 0, chars: Math.max(0, delta) };
      let waited = false;
      const applied = hold.defer(() => {
        if (waited) {
          held.profiles -= reserved.profiles;
          held.aliases -= reserved.aliases;
          held.chars -= reserved.chars;
        }
        write(input, now);
      });
      if (!applied) {
        waited = true;
        held.profiles += reserved.profiles;
        held.aliases += reserved.aliases;
        held.chars += reserved.chars;
      }
      return { ok: true };
    },
    profile(websiteId, profileId) {
      const found = profiles.get(websiteId)?.get(profileId);
      return found ? snapshot(found) : undefined;
    },
    profileOfAlias(websiteId, anonymousId) {
      return aliases.get(websiteId)?.get(anonymousId);
    },
    profilesOf(websiteId, max) {
      const out: IdentifiedProfile[] = [];
      for (const profile of profiles.get(websiteId)?.values() ?? []) {
        if (out.length >= max) break;
        out.push(snapshot(profile));
      }
      return out;
    },
    list(filter, max) {
      const sites = filter.websiteId !== undefined ? [profiles.get(filter.websiteId) ?? new Map<string, MutableProfile>()] : [...profiles.values()];
      const selected: MutableProfile[] = [];
      for (const site of sites) {
        if (filter.profileId === undefined) selected.push(...site.values());
        else {
          const one = site.get(filter.profileId);
          if (one) selected.push(one);
        }
      }
      // One website's map is already in creation order; several are merged by it.
      if (sites.length > 1) selected.sort((a, b) => a.order - b.order);
      return { total: selected.length, profiles: selected.slice(0, max).map(snapshot) };
    },
    countOf(websiteId) {
      return profiles.get(websiteId)?.size ?? 0;
    },
    version(websiteIds) {
      let total = 0;
      for (const id of websiteIds) total += versions.get(id) ?? 0;
      return total;
    },
  };
}
