/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) for the simulated service: a request
 * that carries a `traceparent` is answered as one span of that trace, and the answer says which
 * (`traceresponse`, and `Server-Timing` for browsers). The simulator's span id is a function of
 * the request id, so the same seed and the same requests give the same headers, byte for byte.
 */
import type { ErrorDetail } from '../../contract/errors.js';

/** The trace a request continues (from its `traceparent`), or the one it starts. */
export interface TraceParent {
  /** 32 lower-case hex digits, not all zero. */
  readonly traceId: string;
  /** The caller's span: 16 lower-case hex digits, not all zero; null when the simulator started the trace. */
  readonly parentSpanId: string | null;
  /** The trace flags byte as two hex digits (`01`: sampled). */
  readonly flags: string;
}

/** What a request's `traceparent` header says: nothing, a trace to continue, or a value that is not one. */
export type TraceReading = { readonly kind: 'none' } | { readonly kind: 'continue'; readonly parent: TraceParent } | { readonly kind: 'malformed'; readonly warning: ErrorDetail };

const NONE: TraceReading = { kind: 'none' };
/** Version 00's form; a later version may add fields after a dash (the specification's forward compatibility). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** The longest header value read; a longer one is malformed. */
const MAX_TRACEPARENT_CHARS = 512;

/**
 * Reads a `traceparent` header value. A malformed one is ignored, as the specification asks
 * (the request is not part of any trace the client meant), and comes back as the warning that
 * tells the developer why.
 */
export function readTraceParent(value: string | undefined): TraceReading {
  if (value === undefined) return NONE;
  const text = value.trim();
  const match = text.length <= MAX_TRACEPARENT_CHARS ? TRACEPARENT.exec(text) : null;
  const [, version, traceId, parentSpanId, flags, rest] = match ?? [];
  const wellFormed =
    version !== undefined && traceId !== undefined && parentSpanId !== undefined && flags !== undefined && version !== 'ff' && (version !== '00' || rest === undefined) && traceId !== ZERO_TRACE && parentSpanId !== ZERO_SPAN;
  if (!wellFormed) {
    return {
      kind: 'malformed',
      warning: {
        field: 'traceparent',
        message: "traceparent was ignored: it is not 00-<32 lower-case hex trace id>-<16 hex parent span id>-<2 hex flags>, with ids not all zero (W3C Trace Context); the answer starts no trace",
      },
    };
  }
  return { kind: 'continue', parent: { traceId, parentSpanId, flags } };
}

/** 64 bits of FNV-1a over `text`, as 16 hex digits, seeded by `basis` (never all zero). */
function hash64(text: string, basis: number): string {
  let a = 0x811c9dc5 ^ basis;
  let b = 0x01000193 ^ Math.imul(basis, 0x9e3779b1);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  const hex = (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  return hex === ZERO_SPAN ? '0000000000000001' : hex;
}

/** The simulator's span id for the request with this id: the same id, the same span. */
export function spanIdOf(requestId: string): string {
  return hash64(requestId, 1);
}

/** The trace a request without a `traceparent` starts (for exported spans): a function of its request id. */
export function startedTrace(requestId: string): TraceParent {
  return { traceId: hash64(requestId, 2) + hash64(requestId, 3), parentSpanId: null, flags: '01' };
}

/** The headers an answer carries for the trace it continued: `traceresponse` and `Server-Timing`. */
export function traceHeaders(parent: TraceParent, spanId: string): Record<string, string> {
  const value = `00-${parent.traceId}-${spanId}-${parent.flags}`;
  return { traceresponse: value, 'Server-Timing': `traceparent;desc="${value}"` };
}

/** One stage of a chain and the milliseconds it took (only when the adapter gave a timer). */
export interface StageTiming {
  readonly stage: string;
  readonly ms: number;
}

/**
 * What an adapter that exports spans learns of one service request (`handle(request, { trace:
 * true })`): the span's ids, what the request was and how it ended. Not part of the wire answer.
 */
export interface ExchangeTrace {
  readonly traceId: string;
  readonly spanId: string;
  /** The caller's span, when the request continued a trace. */
  readonly parentSpanId: string | null;
  /** Whether the caller sampled the trace (flags bit 0); a started trace is sampled. */
  readonly sampled: boolean;
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  /** The route pattern matched (`/v1/query`), null when none. */
  readonly route: string | null;
  readonly status: number;
  /** `admitted`, or the rule or scenario that refused the request (`key_quota`, `endpoint_limit`, …), as the journal says. */
  readonly outcome: string;
  /** The refusal's code (`RATE_LIMIT_EXCEEDED`, …), null when admitted. */
  readonly errorCode: string | null;
  /** The stages run, in order, with their times; empty without a timer. */
  readonly stages: readonly StageTiming[];
}
