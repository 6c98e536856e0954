/**
 * A set of (group, key) pairs of unsigned 32-bit integers, in open-addressed typed arrays.
 * It replaces `Set<number>` on the hot path of distinct counts, where composite keys above
 * 2^31 would be heap numbers: several times faster and without allocation per entry.
 */
export interface PairSet {
  /** Adds the pair; true when it was not there before. */
  add(group: number, key: number): boolean;
  readonly size: number;
}

const EMPTY = 0xffffffff;

/** Creates an empty pair set that grows as needed (load factor ≤ 0.5). */
export function createPairSet(initialCapacity = 1024): PairSet {
  let capacity = 1;
  while (capacity < initialCapacity * 2) capacity <<= 1;
  let groups = new Uint32Array(capacity).fill(EMPTY);
  let keys = new Uint32Array(capacity);
  let size = 0;

  const slotOf = (g: number, k: number, mask: number, gs: Uint32Array, ks: Uint32Array): number => {
    let h = (Math.imul(g, 0x9e3779b1) ^ Math.imul(k, 0x85ebca6b)) >>> 0;
    h ^= h >>> 15;
    let slot = h & mask;
    while (gs[slot] !== EMPTY && (gs[slot] !== g || ks[slot] !== k)) slot = (slot + 1) & mask;
    return slot;
  };

  const grow = (): void => {
    const oldGroups = groups;
    const oldKeys = keys;
    capacity <<= 1;
    groups = new Uint32Array(capacity).fill(EMPTY);
    keys = new Uint32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < oldGroups.length; i++) {
      const g = oldGroups[i] as number;
      if (g === EMPTY) continue;
      const slot = slotOf(g, oldKeys[i] as number, mask, groups, keys);
      groups[slot] = g;
      keys[slot] = oldKeys[i] as number;
    }
  };

  return {
    add(group, key) {
      const g = group >>> 0;
      const k = key >>> 0;
      const slot = slotOf(g, k, capacity - 1, groups, keys);
      if (groups[slot] !== EMPTY) return false;
      groups[slot] = g;
      keys[slot] = k;
      size++;
      if (size * 2 > capacity) grow();
      return true;
    },
    get size() {
      return size;
    },
  };
}
