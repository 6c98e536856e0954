/**
 * Counts requests in flight per API key (by the hash of the presented secret, so any
 * well-formed secret counts, known or not, as the service does). A slot is held from admission
 * until the adapter has finished sending the response.
 */
export interface InFlightGate {
  /** Takes a slot; false when `cap` are already held. `held` tells how many were held before. */
  acquire(fingerprint: string, cap: number): { acquired: boolean; held: number };
  /** Gives a slot back. Extra releases are ignored. */
  release(fingerprint: string): void;
  /** Slots held now by one fingerprint (the hash of a presented secret). */
  held(fingerprint: string): number;
  /** Slots held now by all keys together. */
  total(): number;
}

/**
 * Entries the gate's table holds before it drops those at zero. A fingerprint whose last slot is
 * given back keeps its entry (at zero), so a load over thousands of keys sets counts in place
 * instead of adding and deleting entries, which makes the table rehash into new storage that
 * outlives the young generation. Past this many entries (or twice the entries left holding
 * slots at the last sweep, when more hold slots) the zeros are dropped at once.
 */
export const MAX_GATE_ENTRIES = 16_384;

/** Creates an empty gate. */
export function createInFlightGate(): InFlightGate {
  const counts = new Map<string, number>();
  /** The size at which the next sweep runs: twice what the last one left, so sweeps stay rare when most entries hold slots. */
  let sweepAt = MAX_GATE_ENTRIES;
  /** Drops the fingerprints that hold no slot (when the table is past its bound). */
  const sweep = (): void => {
    for (const [fingerprint, held] of counts) if (held === 0) counts.delete(fingerprint);
    sweepAt = Math.max(MAX_GATE_ENTRIES, counts.size * 2);
  };
  return {
    acquire(fingerprint, cap) {
      const held = counts.get(fingerprint);
      if (held === undefined) {
        if (counts.size >= sweepAt) sweep();
        if (cap <= 0) return { acquired: false, held: 0 };
        counts.set(fingerprint, 1);
        return { acquired: true, held: 0 };
      }
      if (held >= cap) return { acquired: false, held };
      counts.set(fingerprint, held + 1);
      return { acquired: true, held };
    },
    release(fingerprint) {
      const held = counts.get(fingerprint);
      if (held !== undefined && held > 0) counts.set(fingerprint, held - 1);
    },
    held: (fingerprint) => counts.get(fingerprint) ?? 0,
    total() {
      let sum = 0;
      for (const n of counts.values()) sum += n;
      return sum;
    },
  };
}
