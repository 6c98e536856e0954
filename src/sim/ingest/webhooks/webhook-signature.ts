import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { formatIso, truncate } from '../../text.js';

/**
 * The payment providers' webhook signatures, verified over the body's exact text: HMAC-SHA256
 * with the endpoint's secret, hex, over `<t>.<body>` (Stripe, header `stripe-signature:
 * t=<unix>,v1=<hex>[,v1=…]`) or `<ts>:<body>` (Paddle, header `paddle-signature:
 * ts=<unix>;h1=<hex>[;h1=…]`); the signing instant must be within 300 s of the receiver's clock
 * (the simulator's). Pure JavaScript (no node:crypto), so the core also runs in a browser; the
 * comparison takes the same time wherever the strings differ.
 */

/** Seconds a signature's timestamp may be away from the receiver's clock, either way. */
export const SIGNATURE_TOLERANCE_S = 300;

/** Header parts read at most: a longer header is read no further. */
const MAX_HEADER_PARTS = 32;

/** Why a signature was not accepted, in words a sender can act on (never the secret or the expected value). */
export interface SignatureProblem {
  readonly code: 'malformed_header' | 'timestamp_outside_tolerance' | 'signature_mismatch';
  readonly message: string;
}

/** HMAC-SHA256 of `message` with `secret` (both as UTF-8), lower-case hex. */
export function hmacSha256Hex(secret: string, message: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));
}

/** Whether two strings are equal, in a time that depends only on their lengths. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The header's `key=value` parts by key, in order; parts without a key or a value are skipped. */
function readHeader(header: string, separator: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  const items = header.split(separator, MAX_HEADER_PARTS);
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const key = item.slice(0, at).trim();
    const value = item.slice(at + 1).trim();
    if (key.length === 0 || value.length === 0) continue;
    const values = parts.get(key);
    if (values) values.push(value);
    else parts.set(key, [value]);
  }
  return parts;
}

const DIGITS = /^\d{1,15}$/;

/** How a provider writes its signature header and what it signs. */
export interface SignatureScheme {
  /** The header (`stripe-signature`, `paddle-signature`). */
  readonly header: string;
  /** Between the header's `key=value` parts. */
  readonly separator: string;
  /** The keys of the timestamp part and of a signature part. */
  readonly timestampKey: string;
  readonly signatureKey: string;
  /** Between the timestamp and the body in the signed text. */
  readonly joiner: string;
  /** Whether a signature's hex may be in either case. */
  readonly eitherCase: boolean;
  /** What the provider calls the endpoint's secret. */
  readonly secretName: string;
}

/** Stripe's: `stripe-signature: t=<unix>,v1=<hex>[,v1=…]` over `<t>.<body>`. */
export const STRIPE_SIGNATURE: SignatureScheme = { header: 'stripe-signature', separator: ',', timestampKey: 't', signatureKey: 'v1', joiner: '.', eitherCase: false, secretName: 'signing secret' };

/** Paddle's: `paddle-signature: ts=<unix>;h1=<hex>[;h1=…]` over `<ts>:<body>`, the hex in either case. */
export const PADDLE_SIGNATURE: SignatureScheme = { header: 'paddle-signature', separator: ';', timestampKey: 'ts', signatureKey: 'h1', joiner: ':', eitherCase: true, secretName: 'secret key' };

/** Checks the timestamp (digits, within the tolerance) and that there is at least one signature. */
function checkParts(scheme: SignatureScheme, header: string, timestamp: string | undefined, signatures: readonly string[], now: number): SignatureProblem | null {
  const name = scheme.header;
  if (timestamp === undefined || signatures.length === 0) {
    const example = `${scheme.timestampKey}=<unix seconds>${scheme.separator}${scheme.signatureKey}=<hex HMAC-SHA256>`;
    return { code: 'malformed_header', message: `${name} must read ${example}; got ${truncate(JSON.stringify(header), 120)}` };
  }
  if (!DIGITS.test(timestamp)) return { code: 'malformed_header', message: `The timestamp of ${name} must be Unix seconds (digits); got ${truncate(JSON.stringify(timestamp), 40)}` };
  const nowS = Math.floor(now / 1000);
  const skew = nowS - Number(timestamp);
  if (Math.abs(skew) > SIGNATURE_TOLERANCE_S) {
    return {
      code: 'timestamp_outside_tolerance',
      message: `The signature was made at ${timestamp}, ${Math.abs(skew)} s ${skew > 0 ? 'before' : 'after'} the receiver's clock (${nowS}, ${formatIso(nowS * 1000)}); at most ${SIGNATURE_TOLERANCE_S} s are accepted. The simulator's clock is virtual: sign with its time (GET /__sim/clock).`,
    };
  }
  return null;
}

const HEX = /^[0-9a-f]+$/i;

/**
 * Verifies a signature header of the scheme over the raw body: null when one of its signatures
 * is HMAC-SHA256(secret, `<timestamp><joiner><body>`) and the timestamp is within the tolerance
 * of `now` (epoch ms).
 */
export function verifySignature(scheme: SignatureScheme, body: string, header: string, secret: string, now: number): SignatureProblem | null {
  const parts = readHeader(header, scheme.separator);
  const timestamp = parts.get(scheme.timestampKey)?.[0];
  const signatures = parts.get(scheme.signatureKey) ?? [];
  const problem = checkParts(scheme, header, timestamp, signatures, now);
  if (problem) return problem;
  const expected = hmacSha256Hex(secret, `${timestamp as string}${scheme.joiner}${body}`);
  const matches = scheme.eitherCase
    ? (signature: string) => HEX.test(signature) && constantTimeEqual(expected, signature.toLowerCase())
    : (signature: string) => constantTimeEqual(expected, signature);
  if (signatures.some(matches)) return null;
  return {
    code: 'signature_mismatch',
    message: `No ${scheme.signatureKey} signature of ${scheme.header} is HMAC-SHA256 of "<${scheme.timestampKey}>${scheme.joiner}<raw body>" with this endpoint's ${scheme.secretName}`,
  };
}
