/**
 * Keys numbered in the order first seen, for counters kept per key in parallel columns (a
 * per-day digest's paths, transitions, page names, dimension codes).
 */
export interface Slots<K> {
  /** The keys, by slot. */
  readonly keys: K[];
  /** The slot of `key`: its index in the columns; a new one, the next number, the first time it is seen. */
  slotOf(key: K): number;
}

/** Creates empty slots; `grow` adds a new key's place to each column, once per new key. */
export function createSlots<K>(grow: () => void): Slots<K> {
  const slots = new Map<K, number>();
  const keys: K[] = [];
  return {
    keys,
    slotOf(key) {
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = keys.length;
        slots.set(key, slot);
        keys.push(key);
        grow();
      }
      return slot;
    },
  };
}
