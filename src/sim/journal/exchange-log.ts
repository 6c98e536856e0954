import type { SimRequest, SimResponse } from '../messages.js';

/** How many of the latest service exchanges a simulator keeps for `GET /__sim/journal.har`. */
export const DEFAULT_EXCHANGES_KEPT = 1_000;
/** The most characters of a body `harBodies` may keep (per body: 1,000 exchanges × 2 bodies × this at most). */
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
  /** Characters of each body kept from now on (0: none). */
  bodyChars(): number;
  setBodyChars(chars: number): void;
  readonly capacity: number;
}

/**
 * A string that holds only its own characters: a slice of a long string may keep the whole
 * string alive in V8, which would defeat the bound on what the log keeps.
 */
function detached(text: string, chars: number): string {
  return text.length <= chars ? text : (JSON.parse(JSON.stringify(text.slice(0, chars))) as string);
}

/** Creates an empty log keeping the latest `capacity` exchanges, with `bodyChars` characters of each body (0: no bodies). */
export function createExchangeLog(capacity = DEFAULT_EXCHANGES_KEPT, bodyChars = 0): ExchangeLog {
  const kept: (KeptExchange | undefined)[] = new Array(capacity);
  let next = 0;
  let chars = bodyChars;
  return {
    capacity,
    record(seq, request, response) {
      const slot = next % capacity;
      const bytes = response.bytes;
      kept[slot] = {
        seq,
        method: request.method,
        path: request.path,
        basePath: request.basePath,
        query: request.query,
        requestHeaders: request.headers,
        requestBody: chars > 0 && request.body !== undefined ? detached(request.body, chars) : undefined,
        requestBodySize: request.body === undefined ? -1 : request.body.length,
        status: response.status,
        responseHeaders: response.headers,
        responseBody: chars === 0 ? undefined : bytes !== undefined ? bytes.slice(0, chars) : detached(response.body, chars),
        responseBodySize: bytes !== undefined ? bytes.length : response.body.length,
        delayMs: response.delayMs ?? 0,
      };
      next++;
    },
    bySeq() {
      const out = new Map<number, KeptExchange>();
      for (const exchange of kept) if (exchange !== undefined) out.set(exchange.seq, exchange);
      return out;
    },
    clear() {
      kept.fill(undefined);
      next = 0;
    },
    bodyChars: () => chars,
    setBodyChars(value) {
      chars = value;
    },
  };
}
