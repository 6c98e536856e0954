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
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
