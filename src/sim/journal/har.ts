/**
 * The journal as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): what browsers'
 * developer tools, proxies and Playwright (`routeFromHAR`) read. Each journal entry this process
 * still keeps the exchange of becomes an entry: the request (method, absolute URL, headers,
 * query string, body when kept) and the answer (status, headers, body when kept), timed on the
 * simulator's clock. Credentials never appear: the headers that carry them and any secret in a
 * body or query value are replaced by `[redacted]`.
 */
import type { Har, HarEntry } from '../../contract/har.js';
import type { JournalEntry } from './journal.js';
import type { KeptExchange } from './exchange-log.js';

/** What stands where a credential was. */
export const REDACTED = '[redacted]';

/** Headers whose values are credentials or signatures. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization', 'stripe-signature', 'paddle-signature', 'x-sim-control-token']);
/** Secrets by their prefixes (API keys, webhook secrets) wherever they stand in a body or a query value. */
const SECRET_VALUE = /(?:dbdy_|whsec_|pdl_ntfset_)[A-Za-z0-9_-]*/g;
/** The reason phrases of the statuses the simulator answers with. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** A HAR name/value pair. */
type HarPair = HarEntry['request']['headers'][number];

const redactText = (text: string): string => text.replace(SECRET_VALUE, REDACTED);

function headerPairs(headers: Readonly<Record<string, string | undefined>>): HarPair[] {
  const pairs: HarPair[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    pairs.push({ name, value: SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : redactText(value) });
  }
  return pairs;
}

function headerOf(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Bytes as base64 (the core has no Buffer). */
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i] ?? 0, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]! + (b === undefined ? '=' : BASE64[(n >> 6) & 63]!) + (c === undefined ? '=' : BASE64[n & 63]!);
  }
  return out;
}

/** The request's absolute URL: its Host (http://localhost in process, where there is none), mount path, path and query. */
function urlOf(x: KeptExchange): { url: string; queryString: HarPair[] } {
  const host = headerOf(x.requestHeaders, 'host') ?? 'localhost';
  const queryString = Object.entries(x.query).map(([name, value]) => ({ name, value: redactText(value) }));
  const search = queryString.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&');
  return { url: `http://${host}${x.basePath ?? ''}${x.path}${search ? `?${search}` : ''}`, queryString };
}

/** One journal entry and the exchange kept for it, as a HAR entry. */
function harEntry(entry: JournalEntry, x: KeptExchange, bodyChars: number): HarEntry {
  const { url, queryString } = urlOf(x);
  const requestType = headerOf(x.requestHeaders, 'content-type') ?? '';
  const responseType = headerOf(x.responseHeaders, 'content-type') ?? 'application/octet-stream';
  const body = x.responseBody;
  const cut = (x.requestBody !== undefined && x.requestBodySize > x.requestBody.length) || (body !== undefined && x.responseBodySize > body.length);
  return {
    startedDateTime: new Date(entry.at).toISOString(),
    time: x.delayMs,
    request: {
      method: x.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerPairs(x.requestHeaders),
      queryString,
      ...(x.requestBody !== undefined ? { postData: { mimeType: requestType, text: redactText(x.requestBody) } } : {}),
      headersSize: -1,
      bodySize: Math.max(0, x.requestBodySize),
    },
    response: {
      status: x.status,
      statusText: STATUS_TEXT[x.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerPairs(x.responseHeaders),
      content: {
        size: x.responseBodySize,
        mimeType: responseType,
        ...(body === undefined ? {} : typeof body === 'string' ? { text: redactText(body) } : { text: base64(body), encoding: 'base64' as const }),
      },
      redirectURL: headerOf(x.responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: x.responseBodySize,
    },
    cache: {},
    timings: { send: 0, wait: x.delayMs, receive: 0 },
    _requestId: entry.requestId,
    _outcome: entry.outcome,
    _seq: entry.seq,
    ...(cut ? { comment: `bodies cut at ${bodyChars} characters (--har-bodies)` } : {}),
  };
}

/**
 * The HAR of `entries` (the journal's, filtered as `GET /__sim/journal` filters them), from the
 * exchanges this process keeps. An entry whose exchange is not kept (older than the latest
 * exchanges kept, or served by another process on a shared store) is counted in the comment.
 */
export function buildHar(entries: readonly JournalEntry[], exchanges: ReadonlyMap<number, KeptExchange>, creator: { name: string; version: string }, bodyChars: number): Har {
  const out: HarEntry[] = [];
  let missing = 0;
  for (const entry of entries) {
    const exchange = exchanges.get(entry.seq);
    if (exchange === undefined) missing++;
    else out.push(harEntry(entry, exchange, bodyChars));
  }
  const bodies = bodyChars > 0 ? `bodies kept up to ${bodyChars} characters` : 'no bodies (serve with --har-bodies N to keep them)';
  const comment = `analytics-sim journal: ${out.length} exchanges, ${bodies}; credentials redacted${missing > 0 ? `; ${missing} journal entries matched whose exchanges are not kept here (older than the latest ${exchanges.size === 0 ? 'kept' : 'ones kept'}, or served by another process)` : ''}`;
  return { log: { version: '1.2', creator, entries: out, comment } };
}
