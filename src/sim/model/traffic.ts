/**
 * The columnar shape of generated traffic. A day of a website is a bounded set of weighted
 * session samples: each sample stands for `weight` real sessions by `weight` real visitors, so
 * totals stay consistent across breakdowns and filters while cost stays independent of volume.
 * String values are dictionary codes (indexes into {@link Dictionaries.values}).
 */

import type { ErrorKindsOf } from './error-kind.js';

/** Where a visitor is, as far as a short-link click says too. */
const PLACE_DIMENSIONS = ['country', 'region', 'city'] as const;

/** What a visitor browses with, as far as a short-link click says too. */
const CLIENT_DIMENSIONS = ['device_type', 'browser_name', 'os_name'] as const;

/** Dimensions that belong to a visitor: every session of one visitor has the same values. */
export const VISITOR_DIMENSIONS = [...PLACE_DIMENSIONS, 'timezone', 'language', ...CLIENT_DIMENSIONS, 'screen_resolution'] as const;

/** One of {@link VISITOR_DIMENSIONS}. */
export type VisitorDimension = (typeof VISITOR_DIMENSIONS)[number];

/** Session-level dimensions, named as the filter fields that select them. */
export const SESSION_DIMENSIONS = [...VISITOR_DIMENSIONS, 'referrer', 'utm_source', 'utm_medium', 'utm_campaign'] as const;

/** One of {@link SESSION_DIMENSIONS}. */
export type SessionDimension = (typeof SESSION_DIMENSIONS)[number];

/** Dimensions of a short-link click. */
export const CLICK_DIMENSIONS = [...PLACE_DIMENSIONS, ...CLIENT_DIMENSIONS, 'referrer'] as const;

/** One of {@link CLICK_DIMENSIONS}. */
export type ClickDimension = (typeof CLICK_DIMENSIONS)[number];

/** Every dictionary the world defines. */
export type DictionaryName =
  | SessionDimension
  | 'path'
  | 'event_name'
  | 'probe_region'
  | 'check_error';

/**
 * String tables shared by every batch of one world. Code 0 of a dimension that can be empty
 * (referrer, utm_*) is the empty string.
 */
export interface Dictionaries {
  readonly values: Readonly<Record<DictionaryName, readonly string[]>>;
  /** Region code → country code. */
  readonly regionCountry: Uint16Array;
  /** City code → region code. */
  readonly cityRegion: Uint16Array;
  /** Country code (ISO 3166-1 alpha-2 value) → English country name, by country code index. */
  readonly countryNames: readonly string[];
  /** Referrer code → index into {@link Dictionaries.sourceTypes}. */
  readonly referrerSourceType: Uint8Array;
  /** Traffic source categories: Direct, Search, Social, Email, Referral. */
  readonly sourceTypes: readonly string[];
  /**
   * The properties a declared world's custom events send, by event name (in place of the
   * built-in ones for that name); absent: the built-in ones only.
   */
  readonly eventProperties?: Readonly<Record<string, readonly EventPropertyShape[]>>;
  /**
   * Each website's error kinds, with its own code words (a declared or generated world draws
   * them from faker, once per website); absent: the built-in kinds for every website.
   */
  readonly errorKindsOf?: ErrorKindsOf;
}

/**
 * One property a declared custom event sends: its key and what its values are (`string`: an
 * id-like text, `number`: a whole number from 1 to 100, `boolean`, or one of the listed values).
 */
export interface EventPropertyShape {
  readonly key: string;
  readonly type: 'string' | 'number' | 'boolean' | readonly string[];
}

/** Sessions of one website on one UTC day. Pure function of (seed, website, day). */
export interface SessionBatch {
  readonly websiteId: string;
  /** Days since 1970-01-01 (UTC). */
  readonly day: number;
  /** Number of samples. */
  readonly count: number;
  /** Real sessions (and visitors) each sample stands for; constant for a website. */
  readonly weight: number;
  /** Session start, epoch ms, within the day, ascending. */
  readonly startMs: Float64Array;
  /** Session length in seconds (0 for a bounce). */
  readonly durationS: Uint32Array;
  /** Visitor id in the website's visitor pool; the same id on other days is a returning visitor. */
  readonly visitor: Uint32Array;
  /** Dictionary codes per session-level dimension. */
  readonly dims: Readonly<Record<SessionDimension, Uint16Array>>;
  /** Pageviews of sample i are at indexes [pageOffsets[i], pageOffsets[i+1]). Length count+1. */
  readonly pageOffsets: Uint32Array;
  /** Path codes of the pageviews, in visit order (first = entry, last = exit). */
  readonly pagePaths: Uint16Array;
  /** Seconds spent on each pageview. */
  readonly pageTimeS: Uint16Array;
  /** Custom events of sample i are at indexes [eventOffsets[i], eventOffsets[i+1]). */
  readonly eventOffsets: Uint32Array;
  /** Event-name codes. */
  readonly eventNames: Uint16Array;
  /** Event time, epoch ms. */
  readonly eventTimeMs: Float64Array;
  /**
   * Set on the sessions built from ingested page views (weight 1): what they were sent with,
   * per sample. No generated activity (errors, revenue …) belongs to them, so a derivation of
   * their day must not be read by their index.
   */
  readonly ingested?: IngestedSessionFacts;
}

/**
 * The dimensions the session samples lack, derived per visitor: browser and OS versions, the
 * viewport, and the utm_term and utm_content of a UTM-tagged session. Each value is a pure
 * function of (seed, website, visitor, the visitor's sampled attributes), so one visitor keeps
 * the same browser version and viewport on every day, and every type sees the same values.
 */
export interface DeviceDetails {
  /** Per sample of the day's batch: the browser version (never empty). */
  readonly browserVersion: readonly string[];
  /** Per sample: the OS version ('' where the user agent names none, as Linux). */
  readonly osVersion: readonly string[];
  /** Per sample: the viewport as `WxH` (never empty). */
  readonly viewportSize: readonly string[];
  /** Per sample: utm_term, '' when the session has no UTM tags or its medium carries no term. */
  readonly utmTerm: readonly string[];
  /** Per sample: utm_content, '' when the session has no UTM tags. */
  readonly utmContent: readonly string[];
}

/** Per sample of an ingested session batch: what the tracker sent, where generated samples derive it. */
export interface IngestedSessionFacts {
  readonly anonymousIds: readonly string[];
  readonly profileIds: readonly string[];
  readonly sessionIds: readonly string[];
  /** As {@link DeviceDetails} of a generated day: versions from the User-Agent, viewport and UTM tags as sent. */
  readonly details: DeviceDetails;
}

/** Clicks on one short link on one UTC day. */
export interface ClickBatch {
  readonly linkId: string;
  readonly day: number;
  readonly count: number;
  /** Real clicks each sample stands for. */
  readonly weight: number;
  /** Click time, epoch ms, ascending. */
  readonly timeMs: Float64Array;
  readonly dims: Readonly<Record<ClickDimension, Uint16Array>>;
}

/** Checks of one uptime monitor on one UTC day; one entry per real check (no weights). */
export interface CheckBatch {
  readonly monitorId: string;
  readonly day: number;
  readonly count: number;
  /** Check time, epoch ms, ascending. */
  readonly timeMs: Float64Array;
  /** 1 = up, 0 = down, 2 = pending. */
  readonly status: Uint8Array;
  /** HTTP status of the probe; 0 when the connection failed. */
  readonly httpCode: Uint16Array;
  readonly totalMs: Float32Array;
  readonly ttfbMs: Float32Array;
  /** Code into the `probe_region` dictionary. */
  readonly region: Uint8Array;
  /** Code into the `check_error` dictionary; 0 is the empty string (no error). */
  readonly error: Uint8Array;
  /** Days until the TLS certificate expires, as seen by each check. */
  readonly sslDaysLeft: Uint16Array;
}
