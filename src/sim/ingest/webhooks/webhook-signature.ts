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

/** Checks the shared part: a timestamp of digits within the tolerance, and at least one signature. */
function checkParts(header: string, name: string, timestamp: string | undefined, signatures: readonly string[], now: number, example: string): SignatureProblem | null {
  if (timestamp === undefined || signatures.length === 0) {
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

/**
 * Verifies a `stripe-signature` header over the raw body: null when one `v1` signature is
 * HMAC-SHA256(secret, `${t}.${body}`) and `t` is within the tolerance of `now` (epoch ms).
 */
export function verifyStripeSignature(body: string, header: string, secret: string, now: number): SignatureProblem | null {
  const parts = readHeader(header, ',');
  const timestamp = parts.get('t')?.[0];
  const signatures = parts.get('v1') ?? [];
  const problem = checkParts(header, 'stripe-signature', timestamp, signatures, now, 't=<unix seconds>,v1=<hex HMAC-SHA256>');
  if (problem) return problem;
  const expected = hmacSha256Hex(secret, `${timestamp as string}.${body}`);
  if (signatures.some((signature) => constantTimeEqual(expected, signature))) return null;
  return { code: 'signature_mismatch', message: `No v1 signature of stripe-signature is HMAC-SHA256 of "<t>.<raw body>" with this endpoint's signing secret` };
}

const HEX = /^[0-9a-f]+$/i;

/**
 * Verifies a `paddle-signature` header over the raw body: null when one `h1` signature is
 * HMAC-SHA256(secret, `${ts}:${body}`) (hex in either case) and `ts` is within the tolerance.
 */
export function verifyPaddleSignature(body: string, header: string, secret: string, now: number): SignatureProblem | null {
  const parts = readHeader(header, ';');
  const timestamp = parts.get('ts')?.[0];
  const signatures = parts.get('h1') ?? [];
  const problem = checkParts(header, 'paddle-signature', timestamp, signatures, now, 'ts=<unix seconds>;h1=<hex HMAC-SHA256>');
  if (problem) return problem;
  const expected = hmacSha256Hex(secret, `${timestamp as string}:${body}`);
  if (signatures.some((signature) => HEX.test(signature) && constantTimeEqual(expected, signature.toLowerCase()))) return null;
  return { code: 'signature_mismatch', message: `No h1 signature of paddle-signature is HMAC-SHA256 of "<ts>:<raw body>" with this endpoint's secret key` };
}
