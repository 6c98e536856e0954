import { createPairSet } from './pair-set.js';

/** Visitor keys below this are kept in a bitmap per group; the rest (ingested visitors, other websites of a scope) in a pair set. */
const BITMAP_KEYS = 2_097_152;

/**
 * Tracks distinct (group, visitor key) pairs as `createDistinct` does (true the first time a
 * pair is seen), faster where groups are few and visitor keys small, as one website's generated
 * visitors are (a pool of at most some hundred thousand ids): a bitmap per group, grown to the
 * largest key seen, at most 256 KiB a group. Keys from {@link BITMAP_KEYS} up go to a pair set.
 */
export function createVisitorBits(): (group: number, key: number) => boolean {
  const bitmaps: (Uint32Array | undefined)[] = [];
  const others = createPairSet(64);
  return (group, key) => {
    if (key >= BITMAP_KEYS) return others.add(group, key);
    const word = key >>> 5;
    let bits = bitmaps[group];
    if (bits === undefined || word >= bits.length) {
      let length = bits?.length ?? 64;
      while (length <= word) length *= 2;
      const grown = new Uint32Array(length);
      if (bits) grown.set(bits);
      bitmaps[group] = bits = grown;
    }
    const mask = 1 << (key & 31);
    const was = bits[word] as number;
    if ((was & mask) !== 0) return false;
    bits[word] = was | mask;
    return true;
  };
}
