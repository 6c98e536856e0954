import { addQueryPair, emptyQuery, MAX_BODY_BYTES, type SimRequest, type SimResponse } from '../sim/messages.js';

/**
 * Translation between the Fetch API's Request and Response (which MSW hands a handler, and
 * `sim.fetch` takes and gives) and the core's plain SimRequest and SimResponse. Browser-safe:
 * no Buffer, no node modules, no msw.
 */

/** Keeps a leading byte-order mark, as node's `Buffer#toString('utf8')` does on the server. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** A body read up to a limit. */
interface ReadBody {
  readonly body?: string;
  readonly tooLarge: boolean;
}

/** Reads a request body as UTF-8 text; past `limit` bytes it is reported as too large and not kept. */
async function readBody(request: Request, limit: number): Promise<ReadBody> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return { tooLarge: false };
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit) return { tooLarge: true };
  return bytes.byteLength === 0 ? { tooLarge: false } : { body: decoder.decode(bytes), tooLarge: false };
}

/** What a request carries besides itself: where it was mounted and who sent it. */
export interface RequestContext {
  /** The path relative to the simulated host's base URL. */
  readonly path: string;
  /** The peer address the core sees (an in-process request has no socket). */
  readonly remoteAddress?: string;
  /** The base URL's path prefix (`/api`), for the links of discovery documents; none at the root. */
  readonly basePath?: string;
}

/**
 * The User-Agent the platform's own fetch puts on the wire when the caller sets none: a Request
 * handed over in process has not been through that transport. In a page, the browser's; in
 * Node, `node` (undici's), so an in-process answer is the one the HTTP server gives the same
 * client (the live service blocks a request with no User-Agent as a bot).
 */
function transportUserAgent(): string {
  const page = globalThis as { document?: unknown; navigator?: { userAgent?: string } };
  return page.document !== undefined && typeof page.navigator?.userAgent === 'string' ? page.navigator.userAgent : 'node';
}

/**
 * Builds the core's request: upper-case method, the path relative to the base URL, the query
 * with the first value of a repeated name, header values by lower-case name (a Fetch Request
 * has no `Host`: it is the URL's host, as on the wire; nor, when the caller set none, the
 * User-Agent its transport adds), the body as text up to 1 MB.
 */
export async function toSimRequest(request: Request, url: URL, context: RequestContext, limit = MAX_BODY_BYTES): Promise<SimRequest> {
  return simRequestOf(request.method, url, request.headers, await readBody(request, limit), context);
}

/** The core's request from a request's parts (see {@link toSimRequest}). */
function simRequestOf(method: string, url: URL, given: Headers, read: ReadBody, context: RequestContext): SimRequest {
  const reading = emptyQuery();
  for (const [name, value] of url.searchParams) addQueryPair(reading, name, value);
  const headers: Record<string, string> = {};
  given.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host ??= url.host;
  headers['user-agent'] ??= transportUserAgent();
  return {
    method: method.toUpperCase(),
    path: context.path,
    query: reading.query,
    ...(reading.repeated.length > 0 ? { repeatedQuery: reading.repeated } : {}),
    headers,
    ...(read.body !== undefined ? { body: read.body } : {}),
    ...(read.tooLarge ? { bodyTooLarge: true } : {}),
    ...(context.remoteAddress !== undefined ? { remoteAddress: context.remoteAddress } : {}),
    ...(context.basePath ? { basePath: context.basePath } : {}),
  };
}

/** A request given as a URL and a plain init, read without a Request (see {@link readPlainRequest}). */
export interface PlainRequest {
  readonly url: URL;
  readonly signal: AbortSignal | undefined;
  /** The core's request, given its path and peer. */
  simRequest(context: RequestContext): SimRequest;
}

/** The methods a Request upper-cases whatever their case (the Fetch standard's normalization). */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
/** The init members a Request reads besides method, headers, body and signal: one that is set (mode, credentials, a window, …) goes through a Request, which validates it. */
const OTHER_INIT_MEMBERS = ['referrer', 'referrerPolicy', 'mode', 'credentials', 'cache', 'redirect', 'integrity', 'keepalive', 'window', 'duplex', 'priority', 'dispatcher'] as const;
/** A lone surrogate (a pair is one code point under the u flag): UTF-8 would write U+FFFD for it. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** In Node (and runtimes that say they are it), where a Request keeps every header it is given; a browser's drops the forbidden ones (Host, Cookie, …). */
function requestKeepsAllHeaders(): boolean {
  return (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node !== undefined;
}

/**
 * `fetch(input, init)` read as the Request it would build, without building it (a Request
 * costs tens of microseconds in Node, more than the simulator's answer to a cheap query): an
 * absolute URL (string or URL) without credentials, an init of method, headers, a string body
 * and a signal. The headers are a `Headers` of the init's (validated and combined as a
 * Request's), with `text/plain;charset=UTF-8` as its Content-Type when a string body comes
 * without one. Undefined for anything else (another input or init member, a body of other
 * bytes, a method a Request would refuse or leave alone, a body that may pass the limit, a
 * string that is not well-formed UTF-16), which then goes through a Request: same answer,
 * same errors.
 */
export function readPlainRequest(target: string | URL | Request, init: RequestInit | undefined, limit = MAX_BODY_BYTES): PlainRequest | undefined {
  if (target instanceof Request || !requestKeepsAllHeaders()) return undefined;
  if (init !== undefined && OTHER_INIT_MEMBERS.some((member) => (init as Record<string, unknown>)[member] !== undefined)) return undefined;
  const given = init?.method;
  if (given !== undefined && typeof given !== 'string') return undefined;
  const method = given === undefined ? 'GET' : NORMALIZED_METHODS.has(given.toUpperCase()) ? given.toUpperCase() : given === 'PATCH' ? given : undefined;
  if (method === undefined) return undefined;
  const body = init?.body ?? undefined;
  if (body !== undefined && (typeof body !== 'string' || method === 'GET' || method === 'HEAD' || body.length * 3 > limit || LONE_SURROGATE.test(body))) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '') return undefined;
  const signal = init?.signal ?? undefined;
  if (signal !== undefined && !(signal instanceof AbortSignal)) return undefined;
  return {
    url,
    signal,
    simRequest: (context) => {
      const headers = new Headers(init?.headers);
      if (body !== undefined && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
      return simRequestOf(method, url, headers, body === undefined || body === '' ? { tooLarge: false } : { body, tooLarge: false }, context);
    },
  };
}

/**
 * Builds the Fetch Response of a core response: its status, headers and exact body bytes (no
 * body for HEAD, 204 and 304). A dropped connection (`abort`) is a network error: `fetch` rejects.
 */
export function toResponse(response: SimResponse, method: string): Response {
  if (response.abort) return Response.error();
  const empty = method === 'HEAD' || response.status === 204 || response.status === 304 || (response.body.length === 0 && !response.bytes?.length);
  // Bytes, not a string: a string body would make the Response add a text/plain Content-Type.
  return new Response(empty ? null : (response.bytes ?? encoder.encode(response.body)), { status: response.status, headers: response.headers });
}
