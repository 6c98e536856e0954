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
  const reading = emptyQuery();
  for (const [name, value] of url.searchParams) addQueryPair(reading, name, value);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host ??= url.host;
  headers['user-agent'] ??= transportUserAgent();
  const read = await readBody(request, limit);
  return {
    method: request.method.toUpperCase(),
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
