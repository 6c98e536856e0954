/**
 * The plain-data request and response the core works on. Adapters (node:http, express, MSW)
 * translate to and from these and do nothing else.
 */

import type { ExchangeTrace } from './trace/trace-context.js';

/** An incoming request, already read from the wire. */
export interface SimRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path without the query string, e.g. `/v1/query`. */
  readonly path: string;
  /** Query-string parameters; the first value of a repeated name wins. */
  readonly query: Readonly<Record<string, string>>;
  /**
   * Names the query string gave more than once (each once, at most {@link MAX_REPEATED_NAMES}):
   * their later values were dropped, and the route names them in a warning.
   */
  readonly repeatedQuery?: readonly string[];
  /** Header values by lower-case name; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The body as text, when there is one. */
  readonly body?: string;
  /** Set by the adapter when the body exceeded {@link MAX_BODY_BYTES} and was not read whole. */
  readonly bodyTooLarge?: boolean;
  /** The peer address, used for anonymous limit identities when no proxy header names one. */
  readonly remoteAddress?: string;
  /**
   * The client's address as the adapter decided it (the node server sets it: the socket peer,
   * or under `--trust-proxy` the address the forwarded headers name). When set, anonymous
   * limit identities use it and no forwarded header is read.
   */
  readonly clientAddress?: string;
  /**
   * The path prefix the adapter is mounted under, e.g. `/analytics` for express's
   * `app.use('/analytics', …)` (its `req.baseUrl`); `path` is relative to it. Absent at the
   * root. Discovery documents put it in their absolute links.
   */
  readonly basePath?: string;
}

/** What to send back. `body` is the exact bytes' text: the core serializes, adapters copy. */
/**
 * Why a request was refused, as its answer said it: the error's code and message, the first
 * field at fault and what was wrong with it, and the fix the answer gave (its hint, or the
 * ingestion envelope's `fix`). Never holds a secret: answers never carry one.
 */
export interface RefusalReason {
  readonly code: string;
  readonly message: string;
  readonly field: string | null;
  readonly cause: string | null;
  readonly fix: string | null;
}

export interface SimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** A binary body (the pixel's GIF): adapters send these bytes instead of `body`, which is then ''. */
  readonly bytes?: Uint8Array;
  /** Milliseconds the adapter waits before sending (injected latency); absent means none. */
  readonly delayMs?: number;
  /**
   * True when the adapter must drop the connection without answering (a scenario's `reset`);
   * `status` is then 0 and there are no headers.
   */
  readonly abort?: boolean;
  /**
   * Present only when `handle` was asked to hold the in-flight slot (`holdSlot`): the adapter
   * calls it once the response is completely sent or the client went away. Idempotent.
   */
  readonly release?: () => void;
  /**
   * Why the request was refused (a service answer of 4xx or 5xx, or a dropped connection), as
   * the journal keeps it: for an adapter's request log. Not part of the wire answer.
   */
  readonly reason?: RefusalReason;
  /**
   * The request as one span (ids, route, outcome, stage timings), present only when `handle`
   * was asked for it (`trace`) and the request was a service request. Not part of the wire answer.
   */
  readonly trace?: ExchangeTrace;
}

/** Options of one `handle` call. */
export interface HandleOptions {
  /**
   * Keep the request's in-flight slot (SPEC 8.2.2) until the returned `release` is called,
   * as a server does until the last byte is sent. Without it the slot is released when
   * `handle` resolves.
   */
  readonly holdSlot?: boolean;
  /** Describe the request as a span in the response's `trace` (an adapter that exports spans asks). */
  readonly trace?: boolean;
  /**
   * With `trace`: a clock in milliseconds (e.g. `performance.now`) to time each stage with. The
   * core reads no clock of its own; without one, the trace has no stage timings.
   */
  readonly timer?: () => number;
}

/** Repeated query names a request reports, at most. */
export const MAX_REPEATED_NAMES = 10;

/**
 * A query string's pairs read into {@link SimRequest.query}, the first value of a name winning,
 * and the names given more than once ({@link SimRequest.repeatedQuery}). Only own properties
 * count, so a parameter named `constructor`, `toString` or `__proto__` is kept (and reported as
 * unknown where the route has no such parameter) instead of being taken for an inherited property
 * and dropped without a word. The record is a plain object (a prototype-less one is a slow
 * dictionary on the hot path, measured): `__proto__` is defined as an own property.
 */
export interface QueryReading {
  readonly query: Record<string, string>;
  readonly repeated: string[];
}

/** An empty {@link QueryReading}, to fill with {@link addQueryPair}. */
export function emptyQuery(): QueryReading {
  return { query: {}, repeated: [] };
}

/** Adds one pair: a new name keeps its value; a repeated one is noted (once), its value dropped. */
export function addQueryPair(reading: QueryReading, name: string, value: string): void {
  if (!Object.hasOwn(reading.query, name)) {
    if (name === '__proto__') Object.defineProperty(reading.query, name, { value, enumerable: true, writable: true, configurable: true });
    else reading.query[name] = value;
  } else if (reading.repeated.length < MAX_REPEATED_NAMES && !reading.repeated.includes(name)) reading.repeated.push(name);
}

/** Largest body the simulator reads: 1 MB, as the service's ingestion limit. */
export const MAX_BODY_BYTES = 1_000_000;
