import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { forwardedAddress } from '../sim/auth/authenticate.js';
import { MAX_BODY_BYTES, type SimRequest } from '../sim/messages.js';

/** Splits a request target into its path and its query parameters (first value wins). */
export function parseTarget(target: string): { path: string; query: Record<string, string> } {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  const query: Record<string, string> = {};
  if (q !== -1) {
    for (const [name, value] of new URLSearchParams(target.slice(q + 1))) {
      if (!(name in query)) query[name] = value;
    }
  }
  return { path: path.length > 0 ? path : '/', query };
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
  const declared = Number(req.headers['content-length']);
  if (req.method === 'GET' || req.method === 'HEAD' || declared === 0) {
    req.resume();
    return Promise.resolve({ tooLarge: false });
  }
  return new Promise((resolve) => {
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return resolve({ tooLarge: true });
      resolve(size === 0 ? { tooLarge: false } : { body: Buffer.concat(chunks, size).toString('utf8'), tooLarge: false });
    });
    req.on('error', () => resolve({ tooLarge, aborted: true }));
    req.on('close', () => {
      if (!req.complete) resolve({ tooLarge, aborted: true });
    });
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
  const { path, query } = parseTarget(target);
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query,
    headers: flattenHeaders(req.headers),
    ...(read.body !== undefined ? { body: read.body } : {}),
    ...(read.tooLarge ? { bodyTooLarge: true } : {}),
    ...(req.socket?.remoteAddress ? { remoteAddress: req.socket.remoteAddress } : {}),
    ...(clientAddress !== undefined ? { clientAddress } : {}),
  };
}
