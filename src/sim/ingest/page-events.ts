import type { AnalyticsEvent, OutgoingLink } from '../../contract/ingest-events.js';
import { defineIngestKind, type IngestLedger, type IngestRecord } from './ingest-ledger.js';
import type { IngestDictionaries } from './ingest-dictionaries.js';
import type { SessionDimension } from '../model/traffic.js';
import { sanitizeText, type ClientIdentity } from './client-id-auth.js';
import { parseUserAgent } from './parse-user-agent.js';
import { storedVisitorId } from './visitor-id.js';

/**
 * A page view or other named event of the browser tracker (`screen_view`, `page_exit`, …), as
 * the service writes it to `analytics.events`: the visitor id after the daily salt, the page's
 * path (the URL's pathname), the referrer, UTM tags, locale, and what the server reads from the
 * request (browser, OS and device from the User-Agent; the country from a CDN header).
 */
export interface PageEventRecord extends IngestRecord {
  readonly name: string;
  readonly eventId: string;
  readonly anonymousId: string;
  readonly sessionId: string;
  readonly profileId: string;
  /** The website's number of the visitor ({@link IngestLedger.visitorNumber}). */
  readonly visitor: number;
  /** The URL's pathname ('/' when it has none). */
  readonly path: string;
  /** The URL as sent. */
  readonly url: string;
  readonly title: string;
  /** The referrer URL, '' for a direct visit. */
  readonly referrer: string;
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
  readonly language: string;
  readonly timezone: string;
  readonly screenResolution: string;
  readonly viewportSize: string;
  /** Seconds on the page (`page_exit`), else 0. */
  readonly timeOnPage: number;
  readonly scrollDepth: number;
  readonly interactionCount: number;
  readonly utmTerm: string;
  readonly utmContent: string;
  readonly country: string;
  readonly browser: string;
  readonly browserVersion: string;
  readonly os: string;
  readonly osVersion: string;
  readonly device: string;
  /** The properties as JSON text, '{}' when none. */
  readonly propertiesJson: string;
  /** Dictionary codes of the session dimensions and the path ({@link IngestDictionaries}). */
  readonly codes: Readonly<Record<SessionDimension | 'path', number>>;
}

/** A click on a link to another origin, as the service writes it to `analytics.outgoing_links`. */
export interface OutgoingLinkRecord extends IngestRecord {
  readonly eventId: string;
  readonly anonymousId: string;
  readonly sessionId: string;
  /** The website's number of the visitor (shared with its page views). */
  readonly visitor: number;
  readonly href: string;
  readonly text: string;
  readonly propertiesJson: string;
}

const textLength = (record: object): number => {
  let n = 0;
  for (const value of Object.values(record)) if (typeof value === 'string') n += value.length;
  return n;
};

/** Page views and named events of `/batch`, `/` and `/px.jpg`. */
export const PAGE_EVENTS = defineIngestKind<PageEventRecord>('page_event', textLength);

/** Outgoing-link clicks of `/batch`, `/` and `/px.jpg`. */
export const OUTGOING_LINKS = defineIngestKind<OutgoingLinkRecord>('outgoing_link', textLength);

/** Headers a CDN sets with the visitor's country (the service reads them before its own geo lookup). */
const COUNTRY_HEADERS = ['cf-ipcountry', 'x-vercel-ip-country', 'cloudfront-viewer-country', 'x-country-code'] as const;

/** The visitor's country from the request's CDN headers (two capital letters), or ''. */
export function countryOf(headers: Readonly<Record<string, string | undefined>>): string {
  for (const name of COUNTRY_HEADERS) {
    const value = headers[name]?.trim().toUpperCase();
    if (value !== undefined && /^[A-Z]{2}$/.test(value) && value !== 'XX' && value !== 'T1') return value;
  }
  return '';
}

/** The pathname of a URL ('/' when it cannot be read). */
function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname || '/';
  } catch {
    return '/';
  }
}

const orEmpty = (value: string | null | undefined): string => value ?? '';

/**
 * The session id as the service keeps it (the schema takes any length): sanitized and cut to
 * 128 characters, then kept only when it is `[A-Za-z0-9_-]+`, else ''.
 */
function storedSessionId(sessionId: string | null | undefined): string {
  const id = sanitizeText(sessionId, 128);
  return /^[A-Za-z0-9_-]+$/.test(id) ? id : '';
}

/** A count or duration as kept: the schema has no lower bound, the aggregates count from 0. */
const atLeastZero = (value: number | null | undefined): number => Math.max(0, value ?? 0);

/** What names a visitor: the anonymous id, else the session, else the event itself. */
function visitorKeyOf(anonymousId: string, sessionId: string, eventId: string): string {
  return anonymousId !== '' ? `a:${anonymousId}` : sessionId !== '' ? `s:${sessionId}` : `e:${eventId}`;
}

/** The record of an accepted page event. `timestamp` is the event's time, already checked. */
export function toPageEventRecord(
  seed: string,
  ledger: IngestLedger,
  dictionaries: IngestDictionaries,
  event: AnalyticsEvent,
  timestamp: number,
  client: ClientIdentity,
  country: string,
): PageEventRecord {
  const ua = parseUserAgent(client.userAgent);
  const referrer = event.referrer === 'direct' ? '' : orEmpty(event.referrer);
  const anonymousId = storedVisitorId(seed, event.anonymousId, event.anonymizeVisitorIds, timestamp, country);
  const sessionId = storedSessionId(event.sessionId);
  const visitorKey = visitorKeyOf(anonymousId, sessionId, event.eventId);
  const path = pathnameOf(event.path);
  const fields = {
    title: orEmpty(event.title),
    referrer,
    utmSource: orEmpty(event.utm_source),
    utmMedium: orEmpty(event.utm_medium),
    utmCampaign: orEmpty(event.utm_campaign),
    language: orEmpty(event.language),
    timezone: orEmpty(event.timezone),
    screenResolution: orEmpty(event.screen_resolution),
  };
  const code = (name: SessionDimension | 'path', value: string, of = ''): number => dictionaries.codeOf(name, value, of);
  return {
    timestamp,
    name: event.name,
    eventId: event.eventId,
    anonymousId,
    sessionId,
    visitor: ledger.visitorNumber(client.website.id, visitorKey),
    profileId: orEmpty(event.profileId),
    path,
    url: event.path,
    ...fields,
    viewportSize: orEmpty(event.viewport_size),
    timeOnPage: atLeastZero(event.time_on_page),
    scrollDepth: atLeastZero(event.scroll_depth),
    interactionCount: atLeastZero(event.interaction_count),
    utmTerm: orEmpty(event.utm_term),
    utmContent: orEmpty(event.utm_content),
    country,
    browser: ua.browserName,
    browserVersion: ua.browserVersion,
    os: ua.osName,
    osVersion: ua.osVersion,
    device: ua.deviceType,
    propertiesJson: event.properties ? JSON.stringify(event.properties) : '{}',
    codes: {
      path: code('path', path),
      referrer: code('referrer', referrer),
      utm_source: code('utm_source', fields.utmSource),
      utm_medium: code('utm_medium', fields.utmMedium),
      utm_campaign: code('utm_campaign', fields.utmCampaign),
      country: code('country', country),
      region: code('region', '', country),
      city: code('city', '', country),
      timezone: code('timezone', fields.timezone),
      language: code('language', fields.language),
      device_type: code('device_type', ua.deviceType),
      browser_name: code('browser_name', ua.browserName),
      os_name: code('os_name', ua.osName),
      screen_resolution: code('screen_resolution', fields.screenResolution),
    },
  };
}

/** The record of an accepted outgoing-link click. */
export function toOutgoingLinkRecord(seed: string, ledger: IngestLedger, websiteId: string, link: OutgoingLink, timestamp: number, country: string): OutgoingLinkRecord {
  const anonymousId = storedVisitorId(seed, link.anonymousId, link.anonymizeVisitorIds, timestamp, country);
  const sessionId = storedSessionId(link.sessionId);
  return {
    timestamp,
    eventId: link.eventId,
    anonymousId,
    sessionId,
    visitor: ledger.visitorNumber(websiteId, visitorKeyOf(anonymousId, sessionId, link.eventId)),
    href: link.href,
    text: orEmpty(link.text),
    propertiesJson: link.properties ? JSON.stringify(link.properties) : '{}',
  };
}
