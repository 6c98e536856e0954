/**
 * Order-independent seeded values for derived activity (errors, vitals, revenue …): each value is
 * a pure function of its inputs, never of how many values were drawn before it, so any day or
 * session can be derived alone and every machine derives the same one.
 */

/** A 32-bit hash of a string (FNV-1a), for seeds and ids. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes 32-bit words into one well-spread unsigned 32-bit value (murmur3's finalizer per word). */
export function mix(...words: number[]): number {
  let h = 0x9e3779b9;
  for (const word of words) {
    let k = Math.imul(word | 0, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A float in [0, 1) from the same words as {@link mix}. */
export function unit(...words: number[]): number {
  return mix(...words) / 4_294_967_296;
}

/** An index in [0, n) from the same words as {@link mix}. */
export function below(n: number, ...words: number[]): number {
  return Math.floor(unit(...words) * n);
}

/** An index into `weights` (non-negative, not all zero), chosen in proportion to them by `u` in [0, 1). */
export function pickWeighted(weights: readonly number[], u: number): number {
  let total = 0;
  for (const w of weights) total += w;
  let at = u * total;
  for (let i = 0; i < weights.length; i++) {
    at -= weights[i] as number;
    if (at < 0) return i;
  }
  return weights.length - 1;
}

/** A log-normal draw with median `median` and log-sd `sigma` from two uniforms in (0, 1). */
export function logNormal(median: number, sigma: number, u1: number, u2: number): number {
  const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  return median * Math.exp(sigma * z);
}
