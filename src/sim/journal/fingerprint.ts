import type { SimRequest } from '../messages.js';

/**
 * A short hash that is equal for equal requests: method, path, the query in name order, and
 * the body. FNV-1a, 2 × 32 bits, hex. Credentials and other headers are not part of it.
 */
export function fingerprintOf(request: SimRequest): string {
  const names = Object.keys(request.query);
  // Most requests name one parameter or none: nothing to sort, and no array made for the pairs.
  if (names.length > 1) names.sort();
  let query = '';
  for (let i = 0; i < names.length; i++) query += `${i === 0 ? '' : '&'}${names[i]}=${request.query[names[i] as string]}`;
  const text = `${request.method} ${request.path}?${query}\n${request.body ?? ''}`;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return hex64(a >>> 0, b >>> 0);
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
