import { basketError, type SimError } from '../errors.js';
import type { Website } from '../model/entities.js';
import type { DocumentedResponse, RouteContext } from '../routing/route.js';
import { classifyUserAgent, missingUserAgent, type MissingUserAgent } from './bots.js';
import { basketRefusal } from './basket-envelope.js';

/**
 * The live ingestion service's "client id" authentication (`validateRequest` of
 * `apps/basket/src/lib/request-validation.ts`), used by the browser-facing routes (`/batch`, `/`,
 * `/vitals`, `/errors`, `/events`, `/engagement`, `/px.jpg`, and `/identify` without a key).
 * The checks run in the service's order:
 *
 * 1. the website id from `?client_id=`, else the `databuddy-client-id` header, stripped of
 *    control characters, trimmed and cut to 255: missing → 400 `basket.INGEST_MISSING_CLIENT_ID`;
 * 2. the website exists and is `ACTIVE`, else 400 `basket.INGEST_INVALID_CLIENT_ID` (400, not 404);
 * 3. the Origin: with `allowedOrigins` set, a request without one is refused; a present Origin
 *    must be the website's domain or a subdomain of it (`www.` ignored), else an entry of
 *    `allowedOrigins`; the origin `null` is refused: 403 `basket.INGEST_ORIGIN_NOT_AUTHORIZED`;
 * 4. with `allowedIps` set, the client IP must be one of them (or in an IPv4 CIDR range):
 *    403 `basket.INGEST_IP_NOT_AUTHORIZED`.
 *
 * The service's billing check (402/503 from its billing provider) has no counterpart: the
 * simulator has no event quota.
 */

/** Who sent an ingestion request that passed client-id authentication. */
export interface ClientIdentity {
  readonly website: Website;
  /** The client IP the pipeline determined (proxy headers only with --trust-proxy). */
  readonly ip: string;
  /** The User-Agent header, cut to 2048 characters ('' when absent). */
  readonly userAgent: string;
}

/** The query string a client-id route reads. */
export interface ClientIdQuery {
  readonly client_id?: string | undefined;
}

/** Characters of a client id kept (the service's SHORT_STRING limit). */
const CLIENT_ID_MAX = 255;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A text field as the service sanitizes it: control characters removed, trimmed, cut to `max`. */
export function sanitizeText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  return value.replace(CONTROL_CHARACTERS, '').trim().slice(0, max);
}

/** The client id a request names, sanitized ('' when it names none). */
export function clientIdOf(ctx: RouteContext<ClientIdQuery>): string {
  const fromQuery = sanitizeText(ctx.query.client_id, CLIENT_ID_MAX);
  return fromQuery !== '' ? fromQuery : sanitizeText(ctx.request.headers['databuddy-client-id'], CLIENT_ID_MAX);
}

/** A domain or URL as the service compares them: lower case, host name only, without `www.`. */
export function normalizeDomain(domain: string): string {
  let text = domain.toLowerCase().trim();
  if (!text.includes('://')) text = `https://${text}`;
  try {
    return new URL(text).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** Whether a Host is a website's domain or a subdomain of it (a leading `www.` of either ignored; case and a port ignored). */
export function hostBelongsTo(host: string, domain: string): boolean {
  const bare = (name: string): string => name.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '').replace(/^www\./, '');
  const h = bare(host);
  const d = bare(domain);
  return d.length > 0 && (h === d || h.endsWith(`.${d}`));
}

/** Whether `origin` is the website's domain or one of its subdomains. */
function isOwnOrigin(origin: string, domain: string): boolean {
  try {
    return hostBelongsTo(new URL(origin).host, domain);
  } catch {
    return false;
  }
}

/** Whether an entry of `allowedOrigins` admits `origin` (an exact origin, a host, or `*.host`). */
function isListedOrigin(origin: string, allowed: readonly string[]): boolean {
  const host = normalizeDomain(origin);
  return allowed.some((entry) => {
    const trimmed = entry.trim();
    if (trimmed === '*') return true;
    if (trimmed.replace(/\/+$/, '') === origin.replace(/\/+$/, '')) return true;
    if (trimmed.startsWith('*.')) {
      const base = normalizeDomain(trimmed.slice(2));
      return base !== '' && host.endsWith(`.${base}`);
    }
    const listed = normalizeDomain(trimmed);
    return listed !== '' && listed === host;
  });
}

/** Whether an Origin header passes the website's origin rules (step 3 above). */
export function isOriginAllowed(origin: string, website: Website): boolean {
  const trimmed = origin.trim();
  if (trimmed === '') return true;
  if (trimmed === 'null') return false;
  if (isOwnOrigin(trimmed, website.domain)) return true;
  const allowed = website.allowedOrigins ?? [];
  return allowed.length > 0 && isListedOrigin(trimmed, allowed);
}

/** The 32-bit value of a dotted IPv4 address, or null. */
function ipv4Value(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** Whether `ip` is one of `allowed` (an address, or an IPv4 range `a.b.c.d/n`). */
export function isIpAllowed(ip: string, allowed: readonly string[]): boolean {
  const bare = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const value = ipv4Value(bare);
  return allowed.some((entry) => {
    const [base, bits] = entry.trim().split('/');
    if (bits === undefined) return base === ip || base === bare;
    const prefix = Number(bits);
    const network = ipv4Value(base ?? '');
    if (value === null || network === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) return false;
    const size = 2 ** (32 - prefix);
    return Math.floor(value / size) === Math.floor(network / size);
  });
}

/**
 * Authenticates a request by its client id (see the module comment): the website, client IP
 * and user agent, or the refusal in the service's envelope.
 */
export function authenticateClientId(ctx: RouteContext<ClientIdQuery>): ClientIdentity | SimError {
  const clientId = clientIdOf(ctx);
  if (clientId === '') return basketError('INGEST_MISSING_CLIENT_ID');
  const website = ctx.state.websites.get(clientId);
  if (!website || (website.status ?? 'ACTIVE') !== 'ACTIVE') return basketError('INGEST_INVALID_CLIENT_ID');
  const origin = ctx.request.headers.origin;
  if ((website.allowedOrigins?.length ?? 0) > 0 && (origin === undefined || origin.trim() === '')) return basketError('INGEST_ORIGIN_NOT_AUTHORIZED');
  if (origin !== undefined && !isOriginAllowed(origin, website)) return basketError('INGEST_ORIGIN_NOT_AUTHORIZED');
  const ip = ctx.principal.ip;
  if ((website.allowedIps?.length ?? 0) > 0 && !isIpAllowed(ip, website.allowedIps ?? [])) return basketError('INGEST_IP_NOT_AUTHORIZED');
  return { website, ip, userAgent: sanitizeText(ctx.request.headers['user-agent'], 2048) };
}

/** The 413 of an ingestion route answering in the basket envelope (the body is over 1 MB). */
export const BASKET_TOO_LARGE: DocumentedResponse = basketRefusal('The body is over 1 MB (basket.INGEST_PAYLOAD_TOO_LARGE)');

/** The 204 of a client-id route whose sender is a bot. */
export const BOT_IGNORED: DocumentedResponse = { description: 'The user agent is a bot: nothing is stored, empty body' };

/** A browser route's sender: its website, and what the bot check made of its User-Agent. */
export interface ClientSender {
  readonly client: ClientIdentity;
  /** Whether a bot sent the request: nothing of it is stored. */
  readonly bot: boolean;
  /** Whether an AI crawler sent it (its page views are kept as AI traffic). */
  readonly aiCrawler: boolean;
  /** Whether the request had no User-Agent, and whether that blocked it (said in a `Warning`). */
  readonly missingUserAgent: MissingUserAgent;
}

/** Client-id authentication ({@link authenticateClientId}), then the bot check of the sender's User-Agent. */
export function authenticateSender(ctx: RouteContext<ClientIdQuery>): ClientSender | SimError {
  const client = authenticateClientId(ctx);
  if ('code' in client) return client;
  const verdict = classifyUserAgent(client.userAgent, ctx.profile);
  return { client, bot: verdict.action !== 'allow', aiCrawler: verdict.action === 'track_only', missingUserAgent: missingUserAgent(verdict) };
}

/**
 * The refusals every client-id route documents, in the ingestion envelope: 400 for the client
 * id (and `bodyProblems`, the route's own), 403 for the allow-lists, 413 (`tooLarge`), 415 for
 * a form body, 503 for a full store.
 */
export function clientIdRefusals(bodyProblems: string, tooLarge?: string): Readonly<Record<number, DocumentedResponse>> {
  return {
    400: basketRefusal(`No client id (basket.INGEST_MISSING_CLIENT_ID), an unknown or inactive website (basket.INGEST_INVALID_CLIENT_ID), ${bodyProblems} or malformed JSON (PARSE)`),
    403: basketRefusal('An Origin or client IP the website does not allow (basket.INGEST_ORIGIN_NOT_AUTHORIZED, basket.INGEST_IP_NOT_AUTHORIZED)'),
    413: tooLarge === undefined ? BASKET_TOO_LARGE : basketRefusal(tooLarge),
    415: basketRefusal('A form body (send JSON; text/plain is read as JSON, for beacons)'),
    503: basketRefusal('The simulator’s ingestion storage is full (basket.DELIVERY_UNAVAILABLE): nothing was stored'),
  };
}
