import type { SimRequest } from '../messages.js';

/**
 * A short hash that is equal for equal requests: method, path, the query in name order, and
 * the body. FNV-1a, 2 × 32 bits, hex. Credentials and other headers are not part of it.
 */
export function fingerprintOf(request: SimRequest): string {
  const names = Object.keys(request.query);
  // Most requests name one parameter or none: nothing to sort, and no array made for the pairs.
  if (names.length > 1) names.sort();
  // The hash of `METHOD path?a=1&b=2\nbody`, taken piece by piece: the text is never built.
  const body = request.body ?? '';
  let length = request.method.length + 1 + request.path.length + 1 + 1 + body.length;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    length += (i === 0 ? 0 : 1) + name.length + 1 + String(request.query[name]).length;
  }
  const h: FnvState = { a: 0x811c9dc5, b: 0x01000193 ^ length };
  mix(h, request.method);
  mixCode(h, 0x20);
  mix(h, request.path);
  mixCode(h, 0x3f);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (i > 0) mixCode(h, 0x26);
    mix(h, name);
    mixCode(h, 0x3d);
    mix(h, String(request.query[name]));
  }
  mixCode(h, 0x0a);
  mix(h, body);
  return hex64(h.a >>> 0, h.b >>> 0);
}

/** The two running FNV-style words of {@link fingerprintOf}. */
interface FnvState {
  a: number;
  b: number;
}

function mixCode(h: FnvState, c: number): void {
  h.a = Math.imul(h.a ^ c, 0x01000193);
  h.b = Math.imul(h.b ^ c, 0x5bd1e995);
}

function mix(h: FnvState, text: string): void {
  let { a, b } = h;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  h.a = a;
  h.b = b;
}

/** Character codes of the hex digits. */
const DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Two 32-bit words as 16 hex digits, made as one flat string (journal entries keep it). */
function hex64(a: number, b: number): string {
  const d = (word: number, shift: number): number => DIGITS[(word >>> shift) & 15] as number;
  return String.fromCharCode(
    d(a, 28), d(a, 24), d(a, 20), d(a, 16), d(a, 12), d(a, 8), d(a, 4), d(a, 0),
    d(b, 28), d(b, 24), d(b, 20), d(b, 16), d(b, 12), d(b, 8), d(b, 4), d(b, 0),
  );
}
