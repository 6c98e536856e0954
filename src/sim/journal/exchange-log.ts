import type { SimRequest, SimResponse } from '../messages.js';

/**
 * How many of the latest service exchanges a simulator keeps for `GET /__sim/journal.har` by
 * default. Each kept exchange holds its request's and answer's headers past the young
 * generation of the heap: 1,000 cost about 3% of the cheapest query's throughput, 100 nothing
 * measurable.
 */
export const DEFAULT_EXCHANGES_KEPT = 100;
/** The most exchanges `harEntries` may keep. */
export const MAX_EXCHANGES_KEPT = 100_000;
/** The most characters of a body `harBodies` may keep (per body: the exchanges kept × 2 bodies × this at most). */
export const MAX_HAR_BODY_CHARS = 65_536;

/** One service exchange as the log kept it: the request line and headers, the answer's status and headers, bodies only when asked. */
export interface KeptExchange {
  /** The journal position of the request (its entry's `seq`). */
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly basePath: string | undefined;
  readonly query: Readonly<Record<string, string>>;
  readonly requestHeaders: Readonly<Record<string, string | undefined>>;
  /** The request body, cut at the body limit; undefined when bodies are not kept or there was none. */
  readonly requestBody: string | undefined;
  /** The request body's length in characters, kept or not (-1: none). */
  readonly requestBodySize: number;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  /** The answer's text (or its bytes, for the pixel), cut at the body limit; undefined when bodies are not kept. */
  readonly responseBody: string | Uint8Array | undefined;
  /** The answer's size in characters (bytes for a binary answer). */
  readonly responseBodySize: number;
  /** Injected latency, in milliseconds. */
  readonly delayMs: number;
}

/** The latest service exchanges of this process, bounded: what the journal's HAR is made of. */
export interface ExchangeLog {
  /** Keeps an exchange (the oldest is dropped past the capacity). References, not copies: the request and answer are not changed after. */
  record(seq: number, request: SimRequest, response: SimResponse): void;
  /** The exchanges kept, by journal position (read when a HAR is asked for, not per request). */
  bySeq(): Map<number, KeptExchange>;
  /** Forgets every exchange (the journal was cleared or the simulator reset). */
  clear(): void;
  /** Characters of each body kept (0: none). */
  bodyChars(): number;
  readonly capacity: number;
}

/**
 * A string that holds only its own characters: a slice of a long string may keep the whole
 * string alive in V8, which would defeat the bound on what the log keeps.
 */
function detached(text: string, chars: number): string {
  return text.length <= chars ? text : (JSON.parse(JSON.stringify(text.slice(0, chars))) as string);
}

/**
 * Creates an empty log keeping the latest `capacity` exchanges, with `bodyChars` characters of
 * each body (0: no bodies). Kept as columns, so recording a request allocates nothing (it runs
 * on every service request) and holds no body it was not asked to keep; a {@link KeptExchange}
 * is made only when a HAR is read.
 */
export function createExchangeLog(capacity = DEFAULT_EXCHANGES_KEPT, bodyChars = 0): ExchangeLog {
  const seqs = new Float64Array(capacity).fill(-1);
  const methods: string[] = new Array(capacity);
  const paths: string[] = new Array(capacity);
  const basePaths: (string | undefined)[] = new Array(capacity);
  const queries: Readonly<Record<string, string>>[] = new Array(capacity);
  const requestHeaders: Readonly<Record<string, string | undefined>>[] = new Array(capacity);
  const requestBodySizes = new Float64Array(capacity);
  const requestBodies: (string | undefined)[] = new Array(capacity);
  const statuses = new Uint16Array(capacity);
  const responseHeaders: Readonly<Record<string, string>>[] = new Array(capacity);
  const responseBodySizes = new Float64Array(capacity);
  const responseBodies: (string | Uint8Array | undefined)[] = new Array(capacity);
  const delays = new Float64Array(capacity);
  let next = 0;
  const chars = bodyChars;
  const exchangeAt = (slot: number): KeptExchange => ({
    seq: seqs[slot] as number,
    method: methods[slot] as string,
    path: paths[slot] as string,
    basePath: basePaths[slot],
    query: queries[slot] as Readonly<Record<string, string>>,
    requestHeaders: requestHeaders[slot] as Readonly<Record<string, string | undefined>>,
    requestBody: requestBodies[slot],
    requestBodySize: requestBodySizes[slot] as number,
    status: statuses[slot] as number,
    responseHeaders: responseHeaders[slot] as Readonly<Record<string, string>>,
    responseBody: responseBodies[slot],
    responseBodySize: responseBodySizes[slot] as number,
    delayMs: delays[slot] as number,
  });
  return {
    capacity,
    record(seq, request, response) {
      if (capacity === 0) return;
      const slot = next % capacity;
      seqs[slot] = seq;
      methods[slot] = request.method;
      paths[slot] = request.path;
      basePaths[slot] = request.basePath;
      queries[slot] = request.query;
      requestHeaders[slot] = request.headers;
      requestBodySizes[slot] = request.body === undefined ? -1 : request.body.length;
      statuses[slot] = response.status;
      responseHeaders[slot] = response.headers;
      responseBodySizes[slot] = response.bytes !== undefined ? response.bytes.length : response.body.length;
      delays[slot] = response.delayMs ?? 0;
      if (chars > 0) {
        requestBodies[slot] = request.body === undefined ? undefined : detached(request.body, chars);
        responseBodies[slot] = response.bytes !== undefined ? response.bytes.slice(0, chars) : detached(response.body, chars);
      } else if (requestBodies[slot] !== undefined || responseBodies[slot] !== undefined) {
        requestBodies[slot] = undefined;
        responseBodies[slot] = undefined;
      }
      next++;
    },
    bySeq() {
      const out = new Map<number, KeptExchange>();
      for (let slot = 0; slot < capacity; slot++) if ((seqs[slot] as number) >= 0) out.set(seqs[slot] as number, exchangeAt(slot));
      return out;
    },
    clear() {
      seqs.fill(-1);
      for (const column of [methods, paths, basePaths, queries, requestHeaders, requestBodies, responseHeaders, responseBodies] as unknown[][]) column.fill(undefined);
      next = 0;
    },
    bodyChars: () => chars,
  };
}
