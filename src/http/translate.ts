import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { forwardedAddress } from '../sim/auth/authenticate.js';
import { addQueryPair, emptyQuery, MAX_BODY_BYTES, type QueryReading, type SimRequest } from '../sim/messages.js';

/** A query string with no percent-escape and no '+': its names and values are read as they are. */
const PLAIN_QUERY = /^[^%+]*$/;

/**
 * Splits a request target into its path and its query parameters (first value wins, the
 * repeated names noted), as URLSearchParams reads them.
 */
export function parseTarget(target: string): QueryReading & { path: string } {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const reading = emptyQuery();
  if (q !== -1 && q < target.length - 1) {
    const search = target.slice(q + 1);
    if (!PLAIN_QUERY.test(search)) {
      for (const [name, value] of new URLSearchParams(search)) {
        addQueryPair(reading, name, value);
      }
    } else {
      // Nothing to decode (no '%', no '+'): the pairs as URLSearchParams reads them, split by hand.
      let from = 0;
      while (from <= search.length) {
        let to = search.indexOf('&', from);
        if (to === -1) to = search.length;
        if (to > from) {
          let eq = search.indexOf('=', from);
          if (eq === -1 || eq > to) eq = to;
          const name = search.slice(from, eq);
          addQueryPair(reading, name, eq === to ? '' : search.slice(eq + 1, to));
        }
        from = to + 1;
      }
    }
  }
  return { path: path.length > 0 ? path : '/', query: reading.query, repeated: reading.repeated };
}

/** Header values by lower-case name, repeated values joined with ", ". */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name in headers) {
    const value = headers[name];
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A request body read up to a limit. Past the limit the rest is drained, not kept. */
export interface ReadBody {
  readonly body?: string;
  readonly tooLarge: boolean;
  /** The client went away before the body was complete: the request must not run. */
  readonly aborted?: boolean;
}

/**
 * Reads a request body as UTF-8 text, at most `limit` bytes. A larger body (by
 * Content-Length or by count) is discarded as it arrives and reported as too large.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<ReadBody> {
  return new Promise((resolve) => readBodyThen(req, resolve, limit));
}

/** What a request without a body reads as (shared, never changed). */
const NO_BODY: ReadBody = Object.freeze({ tooLarge: false });

/**
 * {@link readBody} with a callback, called exactly once: the node server's hot path, which
 * makes no promise for it. A request with no body (GET, HEAD, Content-Length 0) is answered at
 * once.
 */
export function readBodyThen(req: IncomingMessage, done: (read: ReadBody) => void, limit = MAX_BODY_BYTES): void {
  const length = req.headers['content-length'];
  const declared = length === undefined ? NaN : Number(length);
  if (req.method === 'GET' || req.method === 'HEAD' || declared === 0) {
    req.resume();
    done(NO_BODY);
    return;
  }
  let tooLarge = Number.isFinite(declared) && declared > limit;
  let settled = false;
  const settle = (read: ReadBody): void => {
    if (settled) return;
    settled = true;
    done(read);
  };
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    size += chunk.length;
    if (size > limit) {
      tooLarge = true;
      first = undefined;
      chunks = undefined;
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return settle({ tooLarge: true });
    if (size === 0 || first === undefined) return settle(NO_BODY);
    settle({ body: (chunks ? Buffer.concat(chunks, size) : first).toString('utf8'), tooLarge: false });
  });
  req.on('error', () => settle({ tooLarge, aborted: true }));
  req.on('close', () => {
    if (!req.complete) settle({ tooLarge, aborted: true });
  });
}

/**
 * The client's address for anonymous limits: the socket peer, or, with `trustProxy`, the
 * address the forwarded headers name (`cf-connecting-ip`, `x-forwarded-for`, `x-real-ip`) when
 * there is one. Without `trustProxy` those headers change nothing: a client cannot pick a new
 * identity per request.
 */
export function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? forwardedAddress(flattenHeaders(req.headers)) : undefined;
  return forwarded ?? req.socket?.remoteAddress ?? 'unknown';
}

/** Builds the core's request from a node request and its read body; `clientAddress` as {@link clientAddressOf} decided it. */
export function toSimRequest(req: IncomingMessage, read: ReadBody, target = req.url ?? '/', clientAddress?: string): SimRequest {
  const { path, query, repeated } = parseTarget(target);
  const request: { -readonly [K in keyof SimRequest]: SimRequest[K] } = {
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query,
    headers: flattenHeaders(req.headers),
  };
  if (repeated.length > 0) request.repeatedQuery = repeated;
  if (read.body !== undefined) request.body = read.body;
  if (read.tooLarge) request.bodyTooLarge = true;
  const remoteAddress = req.socket?.remoteAddress;
  if (remoteAddress) request.remoteAddress = remoteAddress;
  if (clientAddress !== undefined) request.clientAddress = clientAddress;
  return request;
}
